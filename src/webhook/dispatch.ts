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
 * Each claim has an owner (its token): the claim is renewed while the handler runs (keepClaim),
 * and releasing or completing it is refused by the store once it has lapsed and perhaps been
 * taken by another delivery, so a slow or stalled delivery never frees or overwrites another's.
 *
 * A handler that hangs must not block its notification for ever: a duplicate waits at most
 * MAX_WAIT_MS (then 409); renewal stops after maxHandlingMs, and once the claim's lifetime has
 * passed the in-process record is ignored just as the store ignores the expired claim, so a
 * resend is handled afresh.
 */
import type { WebhookNotification } from './notification';
import type { WebhookNotificationContext } from './options';
import type { WebhookOutcome } from './receiver';
import type { ResolvedReceiverOptions } from './options';
import type { IdempotencyClaim } from './idempotency';
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
  'store' | 'onNotification' | 'claimTtlMs' | 'completedTtlMs' | 'maxHandlingMs' | 'report'
>;

const DUPLICATE: DispatchResult = { outcome: 'duplicate' };
const IN_PROGRESS: DispatchResult = { outcome: 'in-progress' };

/** Longest a duplicate holds its HTTP request open waiting for the first delivery. */
const MAX_WAIT_MS = 10_000;

interface Running {
  result: Promise<DispatchResult>;
  /** When the claim behind it expires in the store (moved on by each renewal). */
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

/** The claim's token, or the answer for a claim that is not ours (or not a valid answer). */
function ownClaim(claim: unknown): string | DispatchResult {
  const { state, token } = (claim ?? {}) as { state?: unknown; token?: unknown };
  if (state === 'claimed' && typeof token === 'string' && token !== '') return token;
  if (state === 'completed') return DUPLICATE;
  if (state === 'in-progress') return IN_PROGRESS;
  return {
    outcome: 'store-unavailable',
    error: new TypeError(
      `servicepay: IdempotencyStore.claim must return { state: 'claimed', token }, { state: 'in-progress' } or { state: 'completed' }, got ${describe(claim)}.`,
    ),
  };
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A store answer that may be a promise, as a promise (the store's methods may be either). */
function settle<T>(value: T | PromiseLike<T>): Promise<T> {
  return Promise.resolve(value);
}

export function createDispatcher(options: Options): Dispatch {
  const { store, onNotification, claimTtlMs, completedTtlMs, maxHandlingMs, report } = options;
  /** Deliveries being handled in this process, by idempotency key. */
  const inFlight = new Map<string, Running>();

  /**
   * Renews the claim every claimTtlMs/3 while onNotification runs, so a handler slower than
   * claimTtlMs keeps its claim and a resend elsewhere meanwhile answers 409 instead of running
   * the notification a second time; a crashed process stops renewing and its claim lapses
   * within claimTtlMs. Renewal stops after maxHandlingMs (a hung handler must not block its
   * notification for ever) or once the store says the claim is lost. Returns a stop function
   * that gives the first problem met, to be reported with the delivery's final answer.
   */
  function keepClaim(key: string, token: string, running: Running): () => unknown {
    const started = Date.now();
    const every = Math.floor(claimTtlMs / 3);
    let problem: unknown;
    let stopped = false;
    // setTimeout, not setInterval: the web-only runtimes of servicepay/webhook/web have it,
    // and a slow renewal never overlaps the next one.
    let timer = schedule();
    function schedule(): ReturnType<typeof setTimeout> {
      const next = setTimeout(renew, every);
      // Edge runtimes have no unref; on Node the timer must not keep the process alive.
      (next as { unref?: () => void }).unref?.();
      return next;
    }
    function renew(): void {
      if (stopped) return;
      if (Date.now() - started >= maxHandlingMs) {
        stopped = true;
        problem ??= new Error(
          `servicepay: onNotification ran longer than maxHandlingMs (${maxHandlingMs} ms) for ${key}: its claim was no longer renewed and lapsed, so a resend may have run the notification again.`,
        );
        return;
      }
      const asked = Date.now();
      let answer: Promise<boolean>;
      try {
        answer = settle(store.renew(key, token, claimTtlMs));
      } catch (error) {
        answer = Promise.reject(error);
      }
      answer.then(
        (owned) => {
          if (stopped) return;
          if (owned === true) {
            running.expiresAt = asked + claimTtlMs;
            timer = schedule();
            return;
          }
          stopped = true;
          problem ??= lostClaim(key);
        },
        (error: unknown) => {
          // Try again at the next tick: the claim may outlive the store's hiccup.
          problem ??= error;
          if (!stopped) timer = schedule();
        },
      );
    }
    return () => {
      stopped = true;
      clearTimeout(timer);
      return problem;
    };
  }

  /** After a claim (or its promise): run the handler if the claim is ours. Never rejects. */
  async function handle(
    pending: IdempotencyClaim | PromiseLike<IdempotencyClaim>,
    notification: WebhookNotification,
    context: WebhookNotificationContext,
    running: Running,
  ): Promise<DispatchResult> {
    const key = context.idempotencyKey;
    let token: string | DispatchResult;
    try {
      token = ownClaim(await pending);
    } catch (error) {
      return { outcome: 'store-unavailable', error };
    }
    if (typeof token !== 'string') return token;
    const stopRenewing = keepClaim(key, token, running);
    try {
      const handled = onNotification(notification, context);
      if (isThenable(handled)) await handled;
    } catch (error) {
      const problem = stopRenewing();
      if (problem !== undefined)
        report(problem, { outcome: 'handler-failed', status: 500, notification });
      try {
        // False when the claim already lapsed: it is someone else's now, or nobody's.
        await settle(store.release(key, token));
      } catch (releaseError) {
        // The claim now expires after claimTtlMs; resends until then are answered 409.
        report(releaseError, { outcome: 'store-unavailable', status: 500, notification });
      }
      return { outcome: 'handler-failed', error };
    }
    const problem = stopRenewing();
    if (problem !== undefined) report(problem, { outcome: 'processed', status: 200, notification });
    try {
      if ((await settle(store.complete(key, token, completedTtlMs))) !== true) {
        // The handler ran, but its claim had lapsed; the completion belongs to the delivery
        // that now owns the key (or the next resend), which will run the handler again.
        report(lostClaim(key), { outcome: 'processed', status: 200, notification });
      }
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
    // (A store answering null or a bare string goes on to handle(), which reports it.)
    if (!isThenable(claim) && claim != null) {
      if (claim.state === 'completed') return DUPLICATE;
      if (claim.state === 'in-progress') return IN_PROGRESS;
    }
    // Registered before anything awaits, so every later duplicate in this process sees it.
    const own: Running = { result: undefined as never, expiresAt: Date.now() + claimTtlMs };
    const result = handle(claim, notification, context, own);
    own.result = result;
    inFlight.set(key, own);
    void result.then(() => {
      if (inFlight.get(key)?.result === result) inFlight.delete(key);
    });
    return result;
  };
}

function lostClaim(key: string): Error {
  return new Error(
    `servicepay: the claim on ${key} lapsed while onNotification ran (the store no longer had it under this delivery's token): a resend may run the notification again. Renewals failed or the process stalled for longer than claimTtlMs.`,
  );
}
