/**
 * The idempotency store contract. A receiver claims a notification before handing it to the
 * merchant's code and marks it completed afterwards, so each distinct notification is handled
 * once even when the service resends it (spec 4.1.2-3) or several receiver instances run.
 */
import type { WebhookNotification } from '../verification/notification';
import { OutcomeListeners } from './outcomes';
import { checkOption, integerFrom } from '../option-checks';
import type { OutcomeListener, OutcomeStore, PaymentOutcome } from './outcomes';
import type { OrderStore } from './orders';
import { prefixed } from '../prefixed';

/**
 * The answer to a claim:
 * - `claimed`: the caller now owns the key, proven by `token`, and must later call `complete`
 *   or `release` with that token;
 * - `in-progress`: another delivery owns an unexpired claim;
 * - `completed`: the notification was already handled.
 */
export type IdempotencyClaim =
  | { readonly state: 'claimed'; readonly token: string }
  | { readonly state: 'in-progress' }
  | { readonly state: 'completed' };

/**
 * Where receivers record which notifications they have handled. The default is an in-memory
 * store (one process); a store shared by several instances (PostgreSQL, Redis, your own) must
 * honour the store rules. They are written once, one per name, in `IdempotencyStoreRule`
 * (`servicepay/webhook/testing`, src/webhook/kit/rules.ts), and `checkIdempotencyStore` from the
 * same entry checks a store against them. In brief: an atomic claim with a unique token, that
 * lapses after `ttlMs`; renew, complete and release only by the token's owner.
 */
export interface IdempotencyStore {
  /** Atomically claims `key` for `ttlMs` milliseconds unless it is claimed or completed. */
  claim(key: string, ttlMs: number): IdempotencyClaim | Promise<IdempotencyClaim>;
  /** Extends the claim `token` holds on `key` to `ttlMs` from now; false if it holds none. */
  renew(key: string, token: string, ttlMs: number): boolean | Promise<boolean>;
  /** Marks `key` as handled for `ttlMs` milliseconds if `token` holds its claim. */
  complete(key: string, token: string, ttlMs: number): boolean | Promise<boolean>;
  /** Gives up the claim `token` holds, so the next delivery of the notification is processed. */
  release(key: string, token: string): boolean | Promise<boolean>;
  /**
   * Renews several claims in one call, each as `renew` would (to `ttlMs` from now, only while
   * its token owns its key), and answers, in their order, whether each token owned its key.
   * The receiver's claim keeper renews every claim it holds with one call of it per period; a
   * store without it gets one `renew` per claim. The PostgreSQL and Redis stores have it.
   * @default undefined (one renew per claim)
   */
  renewMany?(
    claims: readonly { key: string; token: string }[],
    ttlMs: number,
  ): readonly boolean[] | Promise<readonly boolean[]>;
  /**
   * The database the records are kept in, for telemetry (OpenTelemetry's `db.system`:
   * `postgresql`, `redis`, `mysql`, ...; the built-in stores say theirs).
   * @default undefined (store calls are timed without it)
   */
  readonly dbSystem?: string;
}

/**
 * The default idempotency key: `<paymentId>:<paymentStatus>`.
 *
 * paymentId identifies the payment (spec 4.1.3) and the status makes a final status a distinct
 * notification: should a payment ever be reported both FAILED and COMPLETED, the merchant sees
 * both rather than losing one. merchantPaymentId is not part of the key: it is the same on every
 * resend of a payment, and a merchant who reuses one across attempts (retrying a failed payment
 * under the same order id) must not have the second payment's notification swallowed. A
 * merchant whose ids are unique per payment may key by them with the `idempotencyKey` option.
 */
export function notificationIdempotencyKey(notification: WebhookNotification): string {
  return `${notification.paymentId}:${notification.paymentStatus}`;
}

/** The answers that carry no token, shared: stores return them on every duplicate. */
export const IN_PROGRESS_CLAIM: IdempotencyClaim = Object.freeze({ state: 'in-progress' });
export const COMPLETED_CLAIM: IdempotencyClaim = Object.freeze({ state: 'completed' });

/**
 * A store's answer to claim() as the contract allows it (a token that is a non-empty string),
 * or null when it is none: the receiver answers 503 for it, the conformance kit fails
 * `claim-answer`.
 */
export function claimAnswer(claim: unknown): IdempotencyClaim | null {
  const { state, token } = (claim ?? {}) as { state?: unknown; token?: unknown };
  if (state === 'claimed' && typeof token === 'string' && token !== '') return { state, token };
  if (state === 'completed') return COMPLETED_CLAIM;
  if (state === 'in-progress') return IN_PROGRESS_CLAIM;
  return null;
}

/** A claim token unique across processes and machines (stores shared between instances). */
export function newClaimToken(): string {
  return globalThis.crypto.randomUUID();
}

/** The smallest claim lifetime every store must honour, and the receiver accepts. */
export const MIN_CLAIM_TTL_MS = 1000;

// ---------------------------------------------------------------------------------------------
// The in-process store: the default, enough for one long-lived process (docs/stores.md).
/**
 * The default idempotency store: one process's memory, bounded and expiring. It is enough for a
 * single receiver instance; several instances need a shared store (see IdempotencyStore).
 */

/**
 * Values by key that lapse after their lifetime, at most `max` of them: when full, the oldest
 * written go first (with similar lifetimes, about the order of expiry). The memory store's
 * outcomes and paid orders.
 */
class Expiring<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  constructor(
    readonly max: number,
    readonly now: () => number,
  ) {}

  /** The unexpired value of `key`, or null. */
  get(key: string): V | null {
    const held = this.#entries.get(key);
    if (held === undefined) return null;
    if (held.expiresAt > this.now()) return held.value;
    this.#entries.delete(key);
    return null;
  }

  set(key: string, value: V, ttlMs: number): void {
    const now = this.now();
    for (const [old, held] of this.#entries) {
      if (this.#entries.size < this.max && held.expiresAt > now) break;
      this.#entries.delete(old);
    }
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: now + ttlMs });
  }
}

/** Options of MemoryIdempotencyStore. */
export interface MemoryIdempotencyStoreOptions {
  /**
   * Most keys held, so a flood of distinct notifications cannot exhaust memory. When full, the
   * oldest completion markers and expired claims are dropped first; a live claim (a handler
   * still running) is never dropped: with only live claims left, a new claim is refused (the
   * receiver answers 503 and the service resends). Outcomes and paid orders are bounded by it
   * too, each on their own, the oldest dropped first.
   * @default 10000
   */
  maxEntries?: number;
  /**
   * Clock in milliseconds, for tests of expiry.
   * @default Date.now
   */
  now?: () => number;
}

/** What a full memory store throws from claim: the receiver answers 503, the service resends. */
export class IdempotencyStoreFullError extends Error {
  constructor(maxEntries: number) {
    super(
      prefixed(
        `MemoryIdempotencyStore is full: all ${maxEntries} entries (maxEntries) are claims of notifications still being handled, and none may be dropped without running one twice. The delivery was answered 503 and will be resent; raise maxEntries if this many handlers run at once.`,
      ),
    );
    this.name = 'IdempotencyStoreFullError';
  }
}

/**
 * A bounded in-memory IdempotencyStore whose claims and completions expire.
 *
 * Claims and completion markers are kept apart, each a Map in the order written (which, with
 * similar lifetimes, is about the order of expiry): making room drops expired claims from the
 * head of the first and completion markers from the head of the second, O(1) per write, and
 * never touches a live claim, whose loss would let a resend run the notification a second
 * time while the first run goes on.
 */
export class MemoryIdempotencyStore implements IdempotencyStore, OutcomeStore, OrderStore {
  /** Live (or expired, until dropped) claims: key -> token and expiry. */
  readonly #claims = new Map<string, { token: string; expiresAt: number }>();
  /** Completion markers: key -> expiry. */
  readonly #completed = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Claims taken so far: a token is the claim's number, unique within this store. */
  #taken = 0;
  /** Recorded outcomes by paymentId. */
  readonly #outcomes: Expiring<PaymentOutcome>;
  readonly #listeners = new OutcomeListeners();
  /** Which payment paid each order (OrderStore). */
  readonly #orders: Expiring<string>;
  readonly dbSystem = 'memory';

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    const maxEntries = checkOption(
      'MemoryIdempotencyStore',
      'maxEntries',
      options.maxEntries,
      10_000,
      integerFrom(1),
    );
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
    this.#outcomes = new Expiring(maxEntries, this.#now);
    this.#orders = new Expiring(maxEntries, this.#now);
  }

  /** Number of keys held, expired ones included until they are dropped. */
  get size(): number {
    return this.#claims.size + this.#completed.size;
  }

  claim(key: string, ttlMs: number): IdempotencyClaim {
    const now = this.#now();
    const done = this.#completed.get(key);
    if (done !== undefined) {
      if (done > now) return COMPLETED_CLAIM;
      this.#completed.delete(key);
    }
    const held = this.#claims.get(key);
    if (held !== undefined) {
      if (held.expiresAt > now) return IN_PROGRESS_CLAIM;
      this.#claims.delete(key);
    }
    this.#makeRoom(now);
    const token = String(++this.#taken);
    this.#claims.set(key, { token, expiresAt: now + ttlMs });
    return { state: 'claimed', token };
  }

  renew(key: string, token: string, ttlMs: number): boolean {
    const now = this.#now();
    if (!this.#owns(key, token, now)) return false;
    // Delete first so the key moves to the end of the Map's order, with the latest expiries.
    this.#claims.delete(key);
    this.#claims.set(key, { token, expiresAt: now + ttlMs });
    return true;
  }

  complete(key: string, token: string, ttlMs: number): boolean {
    const now = this.#now();
    if (!this.#owns(key, token, now)) return false;
    this.#claims.delete(key);
    this.#completed.set(key, now + ttlMs);
    return true;
  }

  release(key: string, token: string): boolean {
    if (!this.#owns(key, token, this.#now())) return false;
    this.#claims.delete(key);
    return true;
  }

  recordOutcome(outcome: PaymentOutcome, ttlMs: number): PaymentOutcome {
    const standing = this.#outcomes.get(outcome.paymentId);
    if (standing !== null) return standing;
    this.#outcomes.set(outcome.paymentId, outcome, ttlMs);
    this.#listeners.deliver(outcome);
    return outcome;
  }

  readOutcome(paymentId: string): PaymentOutcome | null {
    return this.#outcomes.get(paymentId);
  }

  /**
   * Synchronous, so atomic within the process: of two payments of one order handled at once,
   * the first to get here pays it.
   */
  claimOrder(orderId: string, paymentId: string, ttlMs: number): string {
    const payer = this.#orders.get(orderId);
    if (payer !== null) return payer;
    this.#orders.set(orderId, paymentId, ttlMs);
    return paymentId;
  }

  orderPaidBy(orderId: string): string | null {
    return this.#orders.get(orderId);
  }

  /** In process: live at once, and nothing to reconnect. */
  subscribeOutcome(paymentId: string, listener: OutcomeListener): () => void {
    return this.#listeners.add(paymentId, listener);
  }

  /** Whether `token` holds the unexpired claim on `key`. */
  #owns(key: string, token: string, now: number): boolean {
    const held = this.#claims.get(key);
    return held !== undefined && held.token === token && held.expiresAt > now;
  }

  /** Room for one more entry, or IdempotencyStoreFullError when only live claims are left. */
  #makeRoom(now: number): void {
    for (const [key, held] of this.#claims) {
      if (held.expiresAt > now) break;
      this.#claims.delete(key);
    }
    for (const [key, expiresAt] of this.#completed) {
      if (this.size < this.#maxEntries && expiresAt > now) break;
      this.#completed.delete(key);
    }
    if (this.size >= this.#maxEntries) throw new IdempotencyStoreFullError(this.#maxEntries);
  }
}
