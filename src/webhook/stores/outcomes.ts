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
import { isPaymentStatus } from '../../core/protocol';
import type { FinalPaymentStatus } from '../../core/protocol';

/** A payment's final outcome, as recorded once its notification was handled. */
export interface PaymentOutcome {
  /** The service's payment id. */
  readonly paymentId: string;
  /** The merchant's payment id, as sent with the payment (the component always sends one). */
  readonly merchantPaymentId: string;
  /**
   * The final status: the notification's COMPLETED or FAILED, or NEEDS_REVIEW for a COMPLETED
   * that does not match its order (the receiver's `expectedPayment`).
   */
  readonly status: FinalPaymentStatus;
  /** When it was recorded: an ISO 8601 time. */
  readonly recordedAt: string;
}

/** Called with an outcome once it is recorded. */
export type OutcomeListener = (outcome: PaymentOutcome) => void;

/**
 * The optional half of a store that records outcomes. Its rules are written once, in the kit
 * (`IdempotencyStoreRule` and `OutcomeStoreDuty`, src/webhook/kit/rules.ts):
 * `outcome-record` and `outcome-subscribe`, which checkIdempotencyStore checks when the
 * methods are present, and `outcome-reconnect` and `outcome-close`, which need a lost
 * connection to check.
 */
export interface OutcomeStore {
  recordOutcome(outcome: PaymentOutcome, ttlMs: number): PaymentOutcome | Promise<PaymentOutcome>;
  readOutcome(paymentId: string): PaymentOutcome | null | Promise<PaymentOutcome | null>;
  subscribeOutcome(
    paymentId: string,
    listener: OutcomeListener,
    onLost?: () => void,
  ): (() => void) | Promise<() => void>;
  close?(): void | Promise<void>;
  /**
   * Optional: records `outcome` as recordOutcome does (for `outcomeTtlMs`) and completes the
   * claim `token` holds on `key` as IdempotencyStore.complete does (for `ttlMs`), in one atomic
   * step; answers whether the claim was completed. The outcome is recorded whether or not the
   * claim still stood: the handler succeeded. When a store offers it, the receiver makes this
   * one call after onNotification succeeded instead of the two, so the window in which a crash
   * reruns the handler is one round trip, not two.
   */
  completeWithOutcome?(
    key: string,
    token: string,
    ttlMs: number,
    outcome: PaymentOutcome,
    outcomeTtlMs: number,
  ): boolean | Promise<boolean>;
}

/**
 * The outcome half of a store shared between instances (PostgreSQL, Redis): every method
 * answers a promise (a round trip), and close() gives back its listening connection.
 */
export interface SharedOutcomeStore extends OutcomeStore {
  recordOutcome(outcome: PaymentOutcome, ttlMs: number): Promise<PaymentOutcome>;
  readOutcome(paymentId: string): Promise<PaymentOutcome | null>;
  subscribeOutcome(
    paymentId: string,
    listener: OutcomeListener,
    onLost?: () => void,
  ): Promise<() => void>;
  close(): Promise<void>;
}

/** The methods a store needs for outcomes, by name (for the messages that name what is missing). */
export const OUTCOME_METHODS = ['recordOutcome', 'readOutcome', 'subscribeOutcome'] as const;

/** Whether `store` records outcomes (has every method of OutcomeStore). */
export function recordsOutcomes(store: unknown): store is OutcomeStore {
  return OUTCOME_METHODS.every(
    (method) => typeof (store as Record<string, unknown> | null)?.[method] === 'function',
  );
}

/**
 * The outcome a handled notification leaves with `status` (null: a status that decides none,
 * such as SETTLED), or null when it carries no merchantPaymentId.
 */
export function outcomeOf(
  notification: { paymentId: string; merchantPaymentId?: string | null },
  status: FinalPaymentStatus | null,
  now: Date = new Date(),
): PaymentOutcome | null {
  const { paymentId, merchantPaymentId } = notification;
  if (status === null || typeof merchantPaymentId !== 'string' || merchantPaymentId === '') {
    return null;
  }
  return Object.freeze({
    paymentId,
    merchantPaymentId,
    status,
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
    !isPaymentStatus(status) ||
    status === 'PENDING'
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
 * Listeners by paymentId, for a store's subscriptions: add, remove, deliver once, the ids still
 * waiting (to re-read after a lost connection), and their `onLost` calls.
 */
export class OutcomeListeners {
  /** Each payment's listeners, with the onLost not called yet (if any). */
  readonly #byPayment = new Map<string, Map<OutcomeListener, (() => void) | undefined>>();

  /** Number of listeners waiting, over every payment. */
  size = 0;

  /** Adds `listener`; the function returned removes it (once). */
  add(paymentId: string, listener: OutcomeListener, onLost?: () => void): () => void {
    let entries = this.#byPayment.get(paymentId);
    if (entries === undefined) this.#byPayment.set(paymentId, (entries = new Map()));
    entries.set(listener, onLost);
    this.size++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.#remove(paymentId, listener);
    };
  }

  #remove(paymentId: string, listener: OutcomeListener): void {
    const entries = this.#byPayment.get(paymentId);
    if (entries?.delete(listener) !== true) return;
    this.size--;
    if (entries.size === 0) this.#byPayment.delete(paymentId);
  }

  /** Calls every listener of the outcome's payment once, and forgets them. */
  deliver(outcome: PaymentOutcome): void {
    const entries = this.#byPayment.get(outcome.paymentId);
    if (entries === undefined) return;
    this.#byPayment.delete(outcome.paymentId);
    this.size -= entries.size;
    for (const listener of entries.keys()) guarded(() => listener(outcome));
  }

  /** Calls the onLost of every listener waiting, once each: the store cannot listen now. */
  lost(): void {
    for (const entries of this.#byPayment.values()) {
      for (const [listener, onLost] of entries) {
        if (onLost === undefined) continue;
        entries.set(listener, undefined);
        guarded(onLost);
      }
    }
  }

  /** The paymentIds with at least one listener. */
  waiting(): string[] {
    return [...this.#byPayment.keys()];
  }
}

function guarded(call: () => void): void {
  try {
    call();
  } catch {
    // One listener's failure is its own; the others still hear.
  }
}
