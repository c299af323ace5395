/**
 * The idempotency store rules, written once: each is a name the conformance kit can fail with,
 * and its JSDoc is the rule. The IdempotencyStore interface (../stores/idempotency.ts) points
 * here.
 */

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
   * Outcomes (checked when the store has recordOutcome, readOutcome and subscribeOutcome):
   * the first recorded for a payment stands (NEEDS_REVIEW too), and both methods answer it;
   * unknown payments read null; an outcome lapses after its ttlMs.
   */
  | 'outcome-record'
  /**
   * A subscription is live once subscribeOutcome resolved: the listener hears the payment's
   * outcome once, and nothing of other payments or after it unsubscribed.
   */
  | 'outcome-subscribe';

/** What checkIdempotencyStore rejects with: the broken rule, and what was seen. */
export class IdempotencyStoreConformanceError extends Error {
  readonly rule: IdempotencyStoreRule;
  constructor(rule: IdempotencyStoreRule, detail: string) {
    super(`servicepay: the idempotency store breaks rule "${rule}": ${detail}`);
    this.name = 'IdempotencyStoreConformanceError';
    this.rule = rule;
  }
}
