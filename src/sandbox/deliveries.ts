/**
 * Webhook delivery (spec 4.1 rules 1-2, 6.1): each notification is PUT until the receiver
 * answers 200, with exponential backoff, at most maxAttempts times. Every attempt sends the same
 * bytes with the same signature, as the service resends one notification rather than making a
 * new one. No jitter: the sandbox serves one merchant, and predictable waits are easier to read
 * on the deliveries page.
 */
import { describeFailure, putBytes } from './put';
import type { SandboxRetryOptions, FinalPaymentStatus, WebhookDeliveryAttempt } from './types';

export interface DelivererOptions {
  /** Receiver address; without one, notifications are not sent. */
  url: URL | undefined;
  retry: Required<SandboxRetryOptions>;
  /** The request headers for exact body bytes, the signature included. */
  headers: (body: Buffer) => Record<string, string>;
  log: (line: string) => void;
  onAttempt?: (attempt: WebhookDeliveryAttempt) => void;
  now?: () => Date;
}

export interface Deliverer {
  /** Starts delivering one notification (the JSON body, serialised once). */
  deliver(paymentId: string, status: FinalPaymentStatus, body: string): void;
  /** Every attempt so far, oldest first (copies). */
  attempts(): WebhookDeliveryAttempt[];
  /** Scheduled retries plus attempts in flight (0 once stopped). */
  pending(): number;
  /** Cancels scheduled retries, aborts attempts in flight, resolves when none is left. */
  stop(): Promise<void>;
}

/** Records kept for the page and the API; the oldest go first beyond this. */
const MAX_RECORDS = 5000;

/** Wait after attempt n (1-based) before attempt n+1. */
export function retryDelay(attempt: number, retry: Required<SandboxRetryOptions>): number {
  const delay = retry.initialDelayMs * retry.factor ** (attempt - 1);
  return Math.min(delay, retry.maxDelayMs);
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { url, retry, log } = options;
  const now = options.now ?? (() => new Date());
  const records: WebhookDeliveryAttempt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const stopping = new AbortController();

  function record(attempt: WebhookDeliveryAttempt): void {
    records.push(attempt);
    if (records.length > MAX_RECORDS) records.splice(0, records.length - MAX_RECORDS);
    const result = attempt.status !== null ? `HTTP ${attempt.status}` : attempt.error;
    const next =
      attempt.outcome === 'retrying'
        ? `; next attempt at ${attempt.nextAttemptAt}`
        : attempt.outcome === 'gave-up'
          ? `; giving up after ${attempt.attempt} attempts`
          : '';
    log(
      `webhook ${attempt.paymentStatus} ${attempt.paymentId} attempt ${attempt.attempt} → ${result}${next}`,
    );
    try {
      options.onAttempt?.({ ...attempt });
    } catch (error) {
      // A throwing observer must not stop the delivery it observes.
      log(`onDelivery threw: ${describeFailure(error)}`);
    }
  }

  function attemptDelivery(
    target: URL,
    paymentId: string,
    paymentStatus: FinalPaymentStatus,
    bytes: Buffer,
    headers: Record<string, string>,
    attempt: number,
  ): void {
    const at = now();
    const task = putBytes(target, bytes, {
      headers,
      timeoutMs: retry.timeoutMs,
      signal: stopping.signal,
    }).then(
      (response) => ({ status: response.statusCode, error: null }),
      (error: unknown) => ({ status: null, error: describeFailure(error) }),
    );
    const done = task.then(({ status, error }) => {
      inFlight.delete(done);
      const base = {
        paymentId,
        paymentStatus,
        url: target.href,
        attempt,
        at: at.toISOString(),
        status,
        error,
      };
      if (status === 200) {
        record({ ...base, outcome: 'delivered', nextAttemptAt: null });
      } else if (stopping.signal.aborted) {
        record({ ...base, outcome: 'cancelled', nextAttemptAt: null });
      } else if (attempt >= retry.maxAttempts) {
        record({ ...base, outcome: 'gave-up', nextAttemptAt: null });
      } else {
        const delay = retryDelay(attempt, retry);
        const nextAttemptAt = new Date(now().getTime() + delay).toISOString();
        // Scheduled before the record is published, so an observer that stops the sandbox
        // from its callback cancels this retry too.
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!stopping.signal.aborted) {
            attemptDelivery(target, paymentId, paymentStatus, bytes, headers, attempt + 1);
          }
        }, delay);
        timers.add(timer);
        record({ ...base, outcome: 'retrying', nextAttemptAt });
      }
    });
    inFlight.add(done);
  }

  return {
    deliver(paymentId, status, body) {
      if (stopping.signal.aborted) return;
      if (url === undefined) {
        log(`webhook ${status} ${paymentId} not sent: no webhookUrl is configured`);
        return;
      }
      // Signed once over the exact bytes that every attempt sends (spec 5.1.3-4).
      const bytes = Buffer.from(body, 'utf8');
      const headers = options.headers(bytes);
      attemptDelivery(url, paymentId, status, bytes, headers, 1);
    },
    attempts: () => records.map((attempt) => ({ ...attempt })),
    pending: () => timers.size + inFlight.size,
    async stop() {
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
