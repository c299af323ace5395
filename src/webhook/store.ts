/**
 * The idempotency store contract. A receiver claims a notification before handing it to the
 * merchant's code and marks it completed afterwards, so each distinct notification is handled
 * once even when the service resends it (spec 4.1.2-3) or several receiver instances run.
 */
import type { WebhookNotification } from './notification';

/**
 * The answer to a claim:
 * - `claimed`: the caller now owns the key and must later call `complete` or `release`;
 * - `in-progress`: another delivery owns an unexpired claim;
 * - `completed`: the notification was already handled.
 */
export type IdempotencyClaim = 'claimed' | 'in-progress' | 'completed';

/**
 * Where receivers record which notifications they have handled. The default is an in-memory
 * store (one process); a store shared by several instances (Redis, SQL) must honour:
 *
 * 1. `claim` is atomic: of any number of concurrent claims of one key, exactly one gets
 *    `claimed` (Redis `SET key in-progress NX PX ttl`; SQL `INSERT ... ON CONFLICT DO NOTHING`
 *    and reading the row back).
 * 2. A claim expires after `ttlMs`, so a receiver that crashed mid-handling does not block the
 *    service's resends for ever; an expired claim (or completion) counts as absent.
 * 3. `complete` replaces the claim with a completed marker that lives `ttlMs`.
 * 4. `release` deletes the key only if it is still in progress, never a completed marker.
 * 5. A method may throw or reject when the store is unavailable; the receiver then answers 503
 *    without running the notification handler, and the service resends.
 */
export interface IdempotencyStore {
  /** Atomically claims `key` for `ttlMs` milliseconds unless it is claimed or completed. */
  claim(key: string, ttlMs: number): IdempotencyClaim | Promise<IdempotencyClaim>;
  /** Marks `key` as handled for `ttlMs` milliseconds. */
  complete(key: string, ttlMs: number): void | Promise<void>;
  /** Gives up an in-progress claim so the next delivery of the notification is processed. */
  release(key: string): void | Promise<void>;
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
