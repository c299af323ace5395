/**
 * Payment outcomes: what a verified notification said about a payment, recorded by the receiver
 * after onNotification succeeded, in the same store it claims notifications in, so that the
 * shopper's return page can learn it (createPaymentStatusHandler) from any instance.
 *
 * A store offers outcomes by implementing the three optional methods of OutcomeStore beside the
 * IdempotencyStore ones. The memory, PostgreSQL and Redis stores do; a custom store without
 * them keeps receiving webhooks exactly as before, and the status handler refuses it at
 * creation, naming what is missing.
 */
import type { WebhookPaymentStatus } from './notification';

/** A payment's final outcome, as recorded once its notification was handled. */
export interface PaymentOutcome {
  /** The service's payment id. */
  readonly paymentId: string;
  /** The merchant's payment id, as sent with the payment (the component always sends one). */
  readonly merchantPaymentId: string;
  /** The final status the notification reported. */
  readonly status: WebhookPaymentStatus;
  /** When it was recorded: an ISO 8601 time. */
  readonly recordedAt: string;
}

/** Called with an outcome once it is recorded. */
export type OutcomeListener = (outcome: PaymentOutcome) => void;

/**
 * The optional half of a store that records outcomes. Rules (checkIdempotencyStore checks them
 * when the methods are present):
 *
 * 1. `recordOutcome` keeps the first outcome recorded for a paymentId, for `ttlMs`, and
 *    answers the outcome that stands (the earlier one when there was one): a later FAILED never
 *    overwrites a COMPLETED, nor the reverse.
 * 2. `readOutcome` answers the unexpired outcome of a paymentId, or null.
 * 3. `subscribeOutcome` calls the listener once with the outcome of that paymentId when it is
 *    recorded by any receiver sharing the store (in this process or another), and resolves only
 *    once the subscription is live, so an outcome recorded after it resolved is never missed
 *    (the caller reads the current state after subscribing). It gives an unsubscribe function.
 *    After a lost connection the store subscribes again and re-reads the outcome of every
 *    waiting subscriber, calling the listener for those recorded meanwhile.
 * 4. `close` (optional) ends what subscriptions hold open (a listening connection), so that a
 *    merchant's `pool.end()` or shutdown never hangs on it.
 */
export interface OutcomeStore {
  recordOutcome(outcome: PaymentOutcome, ttlMs: number): PaymentOutcome | Promise<PaymentOutcome>;
  readOutcome(paymentId: string): PaymentOutcome | null | Promise<PaymentOutcome | null>;
  subscribeOutcome(
    paymentId: string,
    listener: OutcomeListener,
  ): (() => void) | Promise<() => void>;
  close?(): void | Promise<void>;
}

/** The methods a store needs for outcomes, by name (for the messages that name what is missing). */
export const OUTCOME_METHODS = ['recordOutcome', 'readOutcome', 'subscribeOutcome'] as const;

/** Whether `store` records outcomes (has every method of OutcomeStore). */
export function recordsOutcomes(store: unknown): store is OutcomeStore {
  return OUTCOME_METHODS.every(
    (method) => typeof (store as Record<string, unknown> | null)?.[method] === 'function',
  );
}

/** The outcome a handled notification leaves, or null when it carries no merchantPaymentId. */
export function outcomeOf(
  notification: {
    paymentId: string;
    merchantPaymentId?: string | null;
    paymentStatus: WebhookPaymentStatus;
  },
  now: Date = new Date(),
): PaymentOutcome | null {
  const { paymentId, merchantPaymentId, paymentStatus } = notification;
  if (typeof merchantPaymentId !== 'string' || merchantPaymentId === '') return null;
  return Object.freeze({
    paymentId,
    merchantPaymentId,
    status: paymentStatus,
    recordedAt: now.toISOString(),
  });
}

/** An outcome read back from a store (JSON, a row), or null when it is not one. */
export function toOutcome(value: unknown): PaymentOutcome | null {
  const { paymentId, merchantPaymentId, status, recordedAt } = (value ?? {}) as Record<
    string,
    unknown
  >;
  if (
    typeof paymentId !== 'string' ||
    typeof merchantPaymentId !== 'string' ||
    (status !== 'COMPLETED' && status !== 'FAILED')
  ) {
    return null;
  }
  const when = recordedAt instanceof Date ? recordedAt.toISOString() : recordedAt;
  return Object.freeze({
    paymentId,
    merchantPaymentId,
    status,
    recordedAt: typeof when === 'string' ? when : new Date(0).toISOString(),
  });
}

/**
 * Listeners by paymentId, for a store's subscriptions: add, remove, deliver once, and the ids
 * still waiting (to re-read after a lost connection).
 */
export class OutcomeListeners {
  readonly #byPayment = new Map<string, Set<OutcomeListener>>();

  /** Number of listeners waiting, over every payment. */
  size = 0;

  /** Adds `listener`; the function returned removes it (once). */
  add(paymentId: string, listener: OutcomeListener): () => void {
    let set = this.#byPayment.get(paymentId);
    if (set === undefined) this.#byPayment.set(paymentId, (set = new Set()));
    set.add(listener);
    this.size++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#remove(paymentId, listener);
    };
  }

  #remove(paymentId: string, listener: OutcomeListener): void {
    const set = this.#byPayment.get(paymentId);
    if (set?.delete(listener) !== true) return;
    this.size--;
    if (set.size === 0) this.#byPayment.delete(paymentId);
  }

  /** Calls every listener of the outcome's payment once, and forgets them. */
  deliver(outcome: PaymentOutcome): void {
    const set = this.#byPayment.get(outcome.paymentId);
    if (set === undefined) return;
    this.#byPayment.delete(outcome.paymentId);
    this.size -= set.size;
    for (const listener of set) {
      try {
        listener(outcome);
      } catch {
        // One listener's failure is its own; the others still hear.
      }
    }
  }

  /** The paymentIds with at least one listener. */
  waiting(): string[] {
    return [...this.#byPayment.keys()];
  }
}
