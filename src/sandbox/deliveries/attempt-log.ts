/**
 * Every delivery attempt, kept in full (the request, the answer, how long it took, a hint at
 * the cause of a failure), the oldest dropped beyond `deliveryHistory`; each new one logged in
 * a line (attemptLine) and told to the listeners (the deliveries page's event stream,
 * onDelivery).
 */
import { createListeners } from './listeners';
import { hintLine } from './hints';
import type { WebhookDeliveryAttempt } from '../api/types';

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

export interface AttemptLog {
  /** The id the next attempt gets. */
  nextId(): number;
  /** Keeps the attempt, logs it (`forged`: the receiver check's forged case), tells the listeners. */
  publish(attempt: WebhookDeliveryAttempt, forged?: boolean): void;
  /** Every attempt kept, oldest first (copies). */
  attempts(): WebhookDeliveryAttempt[];
  /** The attempts kept, newest first (not copies: to read only). */
  newestFirst(): Iterable<WebhookDeliveryAttempt>;
  /** The id of the latest attempt (0 before the first). */
  lastAttemptId(): number;
  /** The attempts kept with an id above `id`, oldest first (not copies: to read only). */
  attemptsAfter(id: number): readonly WebhookDeliveryAttempt[];
  /** Calls the listener with each new attempt record; returns the unsubscribe function. */
  subscribe(listener: (attempt: WebhookDeliveryAttempt) => void): () => void;
  clear(): void;
}

export function createAttemptLog(options: {
  history: number;
  log: (line: string) => void;
  onAttempt?: (attempt: WebhookDeliveryAttempt) => void;
  describe: (error: unknown) => string;
}): AttemptLog {
  const { log } = options;
  const records: WebhookDeliveryAttempt[] = [];
  // A throwing observer must not stop the delivery it observes.
  const listeners = createListeners<WebhookDeliveryAttempt>((error) =>
    log(`onDelivery threw: ${options.describe(error)}`),
  );
  const { onAttempt } = options;
  if (onAttempt) listeners.subscribe((attempt) => onAttempt(structuredClone(attempt)));
  let lastId = 0;

  return {
    nextId: () => ++lastId,
    publish(attempt, forged = false) {
      records.push(attempt);
      if (records.length > options.history) records.splice(0, records.length - options.history);
      log(attemptLine(attempt, forged));
      listeners.emit(structuredClone(attempt));
    },
    attempts: () => records.map((attempt) => structuredClone(attempt)),
    *newestFirst() {
      for (let i = records.length - 1; i >= 0; i -= 1) yield records[i]!;
    },
    lastAttemptId: () => lastId,
    attemptsAfter(id) {
      // Ids increase along the records: the ones after `id` are a tail.
      let start = records.length;
      while (start > 0 && records[start - 1]!.id > id) start -= 1;
      return records.slice(start);
    },
    subscribe: listeners.subscribe,
    clear: listeners.clear,
  };
}
