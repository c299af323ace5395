/**
 * Every delivery attempt, kept in full (the request, the answer, how long it took, a hint at
 * the cause of a failure), the oldest dropped beyond `deliveryHistory`; each new one logged in
 * a line and told to the listeners (the deliveries page's event stream, onDelivery).
 */
import { attemptLine } from './attempt-line';
import type { WebhookDeliveryAttempt } from '../types';

export interface AttemptLog {
  /** The id the next attempt gets. */
  nextId(): number;
  /** Keeps the attempt, logs it (`forged`: the receiver check's forged case), tells the listeners. */
  publish(attempt: WebhookDeliveryAttempt, forged?: boolean): void;
  /** Every attempt kept, oldest first (copies). */
  attempts(): WebhookDeliveryAttempt[];
  /** The attempts kept, newest first (not copies: to read only). */
  newestFirst(): Iterable<WebhookDeliveryAttempt>;
  lastAttemptId(): number;
  /** The attempts kept with an id above `id`, oldest first (not copies: to read only). */
  attemptsAfter(id: number): readonly WebhookDeliveryAttempt[];
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
  const listeners = new Set<(attempt: WebhookDeliveryAttempt) => void>();
  let lastId = 0;

  return {
    nextId: () => ++lastId,
    publish(attempt, forged = false) {
      records.push(attempt);
      if (records.length > options.history) records.splice(0, records.length - options.history);
      log(attemptLine(attempt, forged));
      for (const listener of [...listeners, options.onAttempt]) {
        try {
          listener?.(structuredClone(attempt));
        } catch (error) {
          // A throwing observer must not stop the delivery it observes.
          log(`onDelivery threw: ${options.describe(error)}`);
        }
      }
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
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear: () => listeners.clear(),
  };
}
