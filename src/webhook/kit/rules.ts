/**
 * The idempotency store rules, written once: each is a name the conformance kit can fail with,
 * and its JSDoc is the rule. The IdempotencyStore interface (../stores/idempotency.ts) points
 * here.
 */
import { prefixed } from '../prefixed';

/**
 * The rules every IdempotencyStore honours (the kit checks them; a failure names one). A store
 * may also throw or reject when it is unavailable: the receiver then answers 503 without
 * running the notification handler, and the service resends.
 */
export type IdempotencyStoreRule =
  /** makeStore gives an object with claim, renew, complete and release methods. */
  | 'store-shape'
  /** claim answers { state: 'claimed', token } with a non-empty string token, or a bare state. */
  | 'claim-answer'
  /** claim is atomic: of concurrent claims of one key (fresh or expired), exactly one is claimed. */
  | 'atomic-claim'
  /** No two claims share a token, across keys and across re-claims of one key. */
  | 'unique-token'
  /**
   * The owner's renew, complete and release act and answer true: complete replaces the claim
   * with a completed marker that lives its ttlMs, release deletes the claim.
   */
  | 'owner-acts'
  /**
   * renew, complete and release act only while the token owns the key, an unexpired claim taken
   * with it (compare-and-set), and answer whether they acted. A token that does not own the key
   * (a stranger's, or one whose claim expired and was taken by another delivery) changes
   * nothing, so a late release cannot free the new owner's claim, nor a late complete overwrite
   * its state.
   */
  | 'owner-only'
  /**
   * A claim lasts ttlMs as given (any ttlMs from 1000 up; not less, not much more), then counts
   * as absent, so a receiver that crashed mid-handling does not block resends for ever.
   */
  | 'claim-expiry'
  /** renew extends an unexpired claim to ttlMs from now. */
  | 'renewal'
  /**
   * renewMany (optional; checked when the store has it) renews each claim it is given as renew
   * would, to ttlMs from now and only while its token owns its key, and answers an array of
   * booleans in their order: true for an owner's claim; false for a stranger's token, a key
   * nobody claimed, a completed key, each left unchanged; [] for no claims.
   */
  | 'renew-many'
  /** A completed marker answers completed for its ttlMs, is never released, then expires. */
  | 'completion-lifetime'
  /** Methods on a key nobody claimed answer false, and keys never collide. */
  | 'key-isolation'
  /**
   * A claim answered `claimed` under load still has its life: counted from when the store
   * wrote it, never from before the call (a clock read before a queue or a lock wait), so
   * every claim of a burst is held until ttlMs after the burst was sent. The receiver relies on
   * it: it renews a claim whose answer took long before running the handler.
   */
  | 'claim-life'
  /** Every call settles (within 10 s), with a boolean where one is due. */
  | 'settles'
  /**
   * Outcomes (OutcomeStore; checked when the store has recordOutcome, readOutcome and
   * subscribeOutcome): `recordOutcome` keeps the first outcome recorded for a paymentId, for
   * its ttlMs, and answers the outcome that stands (the earlier one when there was one): a later
   * FAILED never overwrites a COMPLETED, nor the reverse; NEEDS_REVIEW is a final status like
   * the others. `readOutcome` answers the unexpired outcome of a paymentId, or null (unknown
   * payments too); an outcome lapses after its ttlMs.
   */
  | 'outcome-record'
  /**
   * `subscribeOutcome` calls the listener once with the outcome of that paymentId when any
   * receiver sharing the store records it (in this process or another), and resolves only once
   * the subscription is live, so an outcome recorded after it resolved is never missed (the
   * caller reads the current state after subscribing); nothing of other payments, nor after
   * the unsubscribe function it gives was called.
   */
  | 'outcome-subscribe'
  /**
   * Paid orders (OrderStore; checked when the store has claimOrder and orderPaidBy): of
   * concurrent `claimOrder` calls of one order by different payments, every one answers the
   * same paymentId, one of theirs, and every later claim answers it too (its own payment's
   * included); `orderPaidBy` answers it, and null for an order nobody claimed; a claim lasts
   * its ttlMs, then the order counts as unpaid and the next claim takes it.
   */
  | 'order-claim';

/**
 * What an OutcomeStore also does, which the kit cannot check without breaking the store's
 * connection (each store's own fault tests do).
 */
export type OutcomeStoreDuty =
  /**
   * After a lost connection the store subscribes again and re-reads the outcome of every
   * waiting subscriber, calling the listener for those recorded meanwhile. While it cannot
   * subscribe again, it calls each waiting subscriber's `onLost` once: the outcome may still
   * come, but late, so a subscriber that promised it live (an event stream) should stop.
   */
  | 'outcome-reconnect'
  /**
   * `close` (optional) ends what subscriptions hold open (a listening connection), so that a
   * merchant's `pool.end()` or shutdown never hangs on it.
   */
  | 'outcome-close';

/** What checkIdempotencyStore rejects with: the broken rule, and what was seen. */
export class IdempotencyStoreConformanceError extends Error {
  readonly rule: IdempotencyStoreRule;
  constructor(rule: IdempotencyStoreRule, detail: string) {
    super(prefixed(`the idempotency store breaks rule "${rule}": ${detail}`));
    this.name = 'IdempotencyStoreConformanceError';
    this.rule = rule;
  }
}
