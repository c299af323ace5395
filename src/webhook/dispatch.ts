/**
 * Idempotent delivery: a verified notification reaches onNotification once, and the service is
 * answered 200 only after that call succeeded (spec 4.1.2-3).
 *
 * Concurrent duplicates inside one process wait for the first delivery's outcome instead of
 * answering at once: they get 200 when it succeeds, so the service stops resending, and 503
 * when it fails, so it resends (the first delivery already released its claim). A claim held by
 * another instance sharing the store answers 409 for the same reason: no delivery is ever
 * answered 200 before its notification was handled, so none is lost.
 *
 * A handler that hangs must not block its notification for ever: a duplicate waits at most
 * MAX_WAIT_MS (then 409), and once the claim's lifetime has passed the in-process record is
 * ignored just as the store ignores the expired claim, so a resend is handled afresh.
 */
import type { WebhookNotification } from './notification';
import type { WebhookNotificationContext } from './options';
import type { WebhookOutcome } from './outcome';
import type { ResolvedReceiverOptions } from './options';
import type { IdempotencyClaim } from './store';
import { isThenable } from './encoding';

export type DispatchOutcome = Extract<
  WebhookOutcome,
  | 'processed'
  | 'duplicate'
  | 'in-progress'
  | 'concurrent-delivery-failed'
  | 'handler-failed'
  | 'store-unavailable'
>;

export interface DispatchResult {
  outcome: DispatchOutcome;
  /** The failure behind an outcome other than processed or duplicate. */
  error?: unknown;
}

export type Dispatch = (
  notification: WebhookNotification,
  context: WebhookNotificationContext,
) => DispatchResult | Promise<DispatchResult>;

type Options = Pick<
  ResolvedReceiverOptions<unknown>,
  'store' | 'onNotification' | 'claimTtlMs' | 'completedTtlMs' | 'report'
>;

const DUPLICATE: DispatchResult = { outcome: 'duplicate' };
const IN_PROGRESS: DispatchResult = { outcome: 'in-progress' };

/** Longest a duplicate holds its HTTP request open waiting for the first delivery. */
const MAX_WAIT_MS = 10_000;

interface Running {
  result: Promise<DispatchResult>;
  /** When the claim behind it expires in the store. */
  expiresAt: number;
}

/** The answer for a duplicate, from the first delivery's outcome or the end of the wait. */
function waitFor(running: Running): Promise<DispatchResult> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve(IN_PROGRESS),
      Math.min(MAX_WAIT_MS, running.expiresAt - Date.now()),
    );
    void running.result.then((first) => {
      clearTimeout(timer);
      resolve(
        first.outcome === 'processed' || first.outcome === 'duplicate'
          ? DUPLICATE
          : { outcome: 'concurrent-delivery-failed', error: first.error },
      );
    });
  });
}

export function createDispatcher(options: Options): Dispatch {
  const { store, onNotification, claimTtlMs, completedTtlMs, report } = options;
  /** Deliveries being handled in this process, by idempotency key. */
  const inFlight = new Map<string, Running>();

  /** After a claim (or its promise): run the handler if the claim is ours. Never rejects. */
  async function handle(
    pending: IdempotencyClaim | PromiseLike<IdempotencyClaim>,
    notification: WebhookNotification,
    context: WebhookNotificationContext,
  ): Promise<DispatchResult> {
    const key = context.idempotencyKey;
    let claim: unknown;
    try {
      claim = await pending;
    } catch (error) {
      return { outcome: 'store-unavailable', error };
    }
    if (claim === 'completed') return DUPLICATE;
    if (claim === 'in-progress') return IN_PROGRESS;
    if (claim !== 'claimed') {
      return {
        outcome: 'store-unavailable',
        error: new TypeError(
          `servicepay: IdempotencyStore.claim must return 'claimed', 'in-progress' or 'completed', got ${String(claim)}.`,
        ),
      };
    }
    try {
      const handled = onNotification(notification, context);
      if (isThenable(handled)) await handled;
    } catch (error) {
      try {
        const released = store.release(key);
        if (isThenable(released)) await released;
      } catch (releaseError) {
        // The claim now expires after claimTtlMs; resends until then are answered 409.
        report(releaseError, { outcome: 'store-unavailable', status: 500, notification });
      }
      return { outcome: 'handler-failed', error };
    }
    try {
      const completed = store.complete(key, completedTtlMs);
      if (isThenable(completed)) await completed;
    } catch (error) {
      // The notification was handled: answer 200 so the service stops. Failing instead would
      // have the resend wait out the claim and then run onNotification a second time.
      report(error, { outcome: 'store-unavailable', status: 200, notification });
    }
    return { outcome: 'processed' };
  }

  return (notification, context) => {
    const key = context.idempotencyKey;
    const running = inFlight.get(key);
    if (running !== undefined && running.expiresAt > Date.now()) return waitFor(running);
    let claim: IdempotencyClaim | PromiseLike<IdempotencyClaim>;
    try {
      claim = store.claim(key, claimTtlMs);
    } catch (error) {
      return { outcome: 'store-unavailable', error };
    }
    // A resend of a handled notification, answered by a synchronous store: nothing to wait for.
    if (claim === 'completed') return DUPLICATE;
    if (claim === 'in-progress') return IN_PROGRESS;
    // Registered before anything awaits, so every later duplicate in this process sees it.
    const result = handle(claim, notification, context);
    inFlight.set(key, { result, expiresAt: Date.now() + claimTtlMs });
    void result.then(() => {
      if (inFlight.get(key)?.result === result) inFlight.delete(key);
    });
    return result;
  };
}
