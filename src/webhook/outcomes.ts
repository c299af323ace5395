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
import { isPaymentStatus } from '../core/protocol';
import type { FinalPaymentStatus } from '../core/protocol';

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
 * The optional half of a store that records outcomes. Rules (checkIdempotencyStore checks them
 * when the methods are present):
 *
 * 1. `recordOutcome` keeps the first outcome recorded for a paymentId, for `ttlMs`, and
 *    answers the outcome that stands (the earlier one when there was one): a later FAILED never
 *    overwrites a COMPLETED, nor the reverse; NEEDS_REVIEW is a final status like the others.
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

// The listening connection ------------------------------------------------------------------

/** One connection a store listens for outcomes on, or the attempt to open one. */
export interface ListeningConnection {
  /** Settles once the subscription is live (and a gap re-read), or the attempt failed. */
  ready: Promise<void>;
  /** Lost, idle or closed: its events no longer count. */
  over: boolean;
}

/** What differs between stores: how a connection is opened, ended and read around. */
export interface ListeningDriver<C extends ListeningConnection> {
  /** A new connection record, not yet connecting; `lost(error)` is what its events call. */
  create(lost: (error?: unknown) => void): C;
  /** Connects and subscribes; `wanted()` throws once the connection was closed or left meanwhile. */
  connect(connection: C, wanted: () => void): Promise<void>;
  /** Gives the connection back or closes it (may be called again for one already over). */
  end(connection: C, how: 'idle' | 'close' | 'lost', error?: unknown): void;
  /** Reads the outcome of each waiting payment and delivers those recorded. */
  reread(waiting: string[], listeners: OutcomeListeners): Promise<void>;
}

const MAX_BACKOFF_MS = 5000;
const CLOSED =
  'servicepay: subscribeOutcome was called after the store was closed (close()). Subscribe before closing it, or create a new store.';

/**
 * The listening half both shared stores have in common: ONE connection per store, opened when
 * the first subscriber arrives and ended when nobody waits (or on close()); when it is lost
 * while somebody waits, another is opened with bounded backoff and the outcome of every
 * waiting payment re-read, so an outcome announced in the gap, to nobody, is found there.
 */
export class OutcomeListening<C extends ListeningConnection> {
  listeners = new OutcomeListeners();
  readonly #driver: ListeningDriver<C>;
  #current: C | undefined;
  #closed = false;
  /** Set when a connection was lost while somebody waited: re-read on the next one. */
  #gap = false;
  #retries = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(driver: ListeningDriver<C>) {
    this.#driver = driver;
  }

  get current(): C | undefined {
    return this.#current;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Delivers the outcomes recorded for every waiting payment. */
  reread(): Promise<void> {
    const waiting = this.listeners.waiting();
    return waiting.length === 0 ? Promise.resolve() : this.#driver.reread(waiting, this.listeners);
  }

  async subscribe(paymentId: string, listener: OutcomeListener): Promise<() => void> {
    if (this.#closed) throw new Error(CLOSED);
    const remove = this.listeners.add(paymentId, listener);
    this.#current ??= this.#open();
    try {
      await this.#current.ready;
    } catch (error) {
      remove();
      this.#idle();
      throw error;
    }
    return () => {
      remove();
      this.#idle();
    };
  }

  /** Ends `connection` (marked over, no longer current). */
  finish(connection: C, how: 'idle' | 'close' | 'lost', error?: unknown): void {
    connection.over = true;
    if (this.#current === connection) this.#current = undefined;
    this.#driver.end(connection, how, error);
  }

  /** A live connection was lost: another, and a re-read, while anybody waits. */
  lost(connection: C, error?: unknown): void {
    if (connection.over) return;
    this.finish(connection, 'lost', error);
    if (this.listeners.size > 0) {
      this.#gap = true;
      this.#retryLater();
    }
  }

  close(): void {
    this.#closed = true;
    this.listeners = new OutcomeListeners();
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#current !== undefined) this.finish(this.#current, 'close');
  }

  #open(): C {
    const connection = this.#driver.create((error) => this.lost(connection, error));
    const wanted = (): void => {
      if (!connection.over) return;
      throw new Error(
        this.#closed
          ? CLOSED
          : 'servicepay: the connection listening for outcomes was lost or closed while subscribing; subscribe again.',
      );
    };
    connection.ready = (async () => {
      try {
        await this.#driver.connect(connection, wanted);
        wanted();
        this.#retries = 0;
        if (this.#gap) {
          await this.reread();
          wanted();
          this.#gap = false;
        }
      } catch (error) {
        // Closed or left meanwhile: say that, rather than how the connection ended.
        wanted();
        throw error;
      }
    })();
    connection.ready.catch((error: unknown) => {
      if (connection.over) return;
      this.finish(connection, 'lost', error);
      if (this.#gap) this.#retryLater();
    });
    return connection;
  }

  /** Opens a connection again after a bounded, growing pause, while anybody waits. */
  #retryLater(): void {
    if (this.#closed || this.#retryTimer !== undefined) return;
    const pause = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.#retries++);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (!this.#closed && this.listeners.size > 0 && this.#current === undefined) {
        this.#current = this.#open();
      }
    }, pause);
    // Never what keeps a process alive.
    (this.#retryTimer as { unref?: () => void }).unref?.();
  }

  /** After the last subscriber left: nobody to re-read for, and the connection goes back. */
  #idle(): void {
    if (this.listeners.size > 0) return;
    this.#gap = false;
    this.#retries = 0;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#current !== undefined) this.finish(this.#current, 'idle');
  }
}
