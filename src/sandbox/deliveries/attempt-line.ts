/** The sandbox's terminal line for each delivery attempt. */
import { hintLine } from './hints';
import type { WebhookDeliveryAttempt } from '../types';

/** A 4xx: the refusal the receiver check's forged case wants. */
export const isRefusal = (status: number | null): boolean =>
  status !== null && Math.floor(status / 100) === 4;

/**
 * "webhook COMPLETED <id> attempt 1 → HTTP 401; giving up after 3 attempts. Likely cause: …".
 * The receiver check's forged case (`forged`) is sent once, and a 4xx is the answer it wants:
 * said as such, not as a delivery giving up over a likely cause.
 */
export function attemptLine(attempt: WebhookDeliveryAttempt, forged: boolean): string {
  const result = attempt.status !== null ? `HTTP ${attempt.status}` : attempt.error;
  const refusedAsWanted = forged && isRefusal(attempt.status);
  const next =
    attempt.outcome === 'retrying'
      ? `; next attempt at ${attempt.nextAttemptAt}`
      : attempt.outcome !== 'gave-up'
        ? ''
        : refusedAsWanted
          ? '; refused, as the receiver check’s forged case expects'
          : forged
            ? '; sent once, as the receiver check’s forged case is'
            : `; giving up after ${attempt.attempt} attempts`;
  const copy =
    attempt.copy > 1 || attempt.reason !== 'settled'
      ? ` (copy ${attempt.copy}, ${attempt.reason})`
      : '';
  const hint = attempt.hint && !refusedAsWanted ? `. ${hintLine(attempt)}` : '';
  return `webhook ${attempt.paymentStatus} ${attempt.paymentId} attempt ${attempt.attempt}${copy} → ${result}${next}${hint}`;
}
