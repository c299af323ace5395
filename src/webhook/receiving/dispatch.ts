/**
 * Idempotent delivery: a verified notification reaches onNotification once, and the service is
 * answered 200 only after that call succeeded (spec 4.1.2-3). This file is the flow; the claim
 * keeper (claim-keeper.ts) keeps claims renewed and completion (completion.ts) records them.
 *
 * Synchronous and asynchronous meet once, in `dispatch`: what can be answered at once is (a
 * notification completed here, a synchronous store's 'completed' or 'in-progress'), which on
 * node:http spares every resend a promise; everything else is plain `async`.
 *
 * Concurrent duplicates inside one process wait for the first delivery's verdict instead of
 * answering at once: they get 200 when it succeeds, so the service stops resending, and 503
 * when it fails, so it resends (the first delivery already released its claim). A claim held by
 * another instance sharing the store answers 409 for the same reason: no delivery is ever
 * answered 200 before its notification was handled, so none is lost.
 *
 * Each claim has an owner (its token): releasing or completing it is refused by the store once
 * it has lapsed and perhaps been taken by another delivery, so a slow or stalled delivery never
 * frees or overwrites another's. A claim answered late (the store waited on a lock, or the
 * answer was slow) may have little life left, or none: the handler starts only after a renewal
 * confirmed the claim is still ours (renewBeforeHandling). A handler that hangs must not block
 * its notification, nor a shutdown, for ever: a duplicate waits at most MAX_WAIT_MS (then 409);
 * renewal stops after maxHandlingMs, and once the claim's lifetime has passed the in-process
 * record is ignored just as the store ignores the expired claim, so a resend is handled afresh;
 * `abandon()` (listenWebhook's close) answers the deliveries still running 503 and releases
 * their claims.
 */
import { createClaimKeeper } from './claim-keeper';
import { createCompletion } from './completion';
import { kindOf } from '../value-kinds';
import { isThenable } from '../maybe';
import type { Maybe } from '../maybe';
import { claimAnswer } from '../stores/idempotency';
import type { WebhookNotification, WebhookNotificationContext } from '../verification/notification';
import type { ResolvedReceiverOptions } from './options';
import type { RecordedStatus } from './reconcile';
import type { DeliveryTrace } from './trace';
import { UNTRACED } from './trace';
import type { WebhookVerdict } from './verdicts';
import { prefixed } from '../prefixed';

/** The verdicts the dispatcher reaches; the receiver reaches the others before it. */
export type DispatchVerdict = Extract<
  WebhookVerdict,
  | 'processed'
  | 'duplicate'
  | 'in-progress'
  | 'concurrent-delivery-failed'
  | 'handler-failed'
  | 'store-unavailable'
  | 'shutting-down'
>;

export interface Dispatched {
  verdict: DispatchVerdict;
  /** The failure behind a verdict other than processed or duplicate. */
  error?: unknown;
}

/** Answers at once when it can, otherwise with a promise that never rejects. */
export type Dispatch = (
  notification: WebhookNotification,
  context: WebhookNotificationContext,
  trace?: DeliveryTrace,
) => Maybe<Dispatched>;

export interface Dispatcher {
  dispatch: Dispatch;
  /**
   * Ends every delivery whose onNotification is still running: each is answered
   * 'shutting-down' (503, so the service resends), stops renewing and releases its claim.
   * Resolves once the releases have settled. The handlers themselves go on: JavaScript cannot
   * stop them.
   */
  abandon(): Promise<void>;
}

type Options = Pick<
  ResolvedReceiverOptions<unknown>,
  'store' | 'handle' | 'claimTtlMs' | 'completedTtlMs' | 'maxHandlingMs' | 'outcomeTtlMs' | 'report'
>;

/** What the merchant's code came to: the status to record (null: none), or its failure. */
type Ran = { status: RecordedStatus } | { error: unknown };

const DUPLICATE: Dispatched = { verdict: 'duplicate' };
const IN_PROGRESS: Dispatched = { verdict: 'in-progress' };
const PROCESSED: Dispatched = { verdict: 'processed' };

/** Longest a duplicate holds its HTTP request open waiting for the first delivery. */
const MAX_WAIT_MS = 10_000;

interface Running {
  result: Promise<Dispatched>;
  /** When the claim behind it expires in the store (moved on by each renewal). */
  expiresAt: number;
  /** Set once the claim is ours and the handler runs: answers the delivery 'shutting-down'. */
  abandon?: () => Promise<void>;
}

/** The answer for a duplicate, from the first delivery's verdict or the end of the wait. */
function waitFor(running: Running): Promise<Dispatched> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve(IN_PROGRESS),
      Math.min(MAX_WAIT_MS, running.expiresAt - Date.now()),
    );
    void running.result.then((first) => {
      clearTimeout(timer);
      resolve(
        first.verdict === 'processed' || first.verdict === 'duplicate'
          ? DUPLICATE
          : { verdict: 'concurrent-delivery-failed', error: first.error },
      );
    });
  });
}

/** The claim's token, or the answer for a claim that is not ours (or not a valid answer). */
function ownClaim(claim: unknown): string | Dispatched {
  const answer = claimAnswer(claim);
  if (answer?.state === 'claimed') return answer.token;
  if (answer?.state === 'completed') return DUPLICATE;
  if (answer?.state === 'in-progress') return IN_PROGRESS;
  return {
    verdict: 'store-unavailable',
    error: new TypeError(
      prefixed(
        `IdempotencyStore.claim must return { state: 'claimed', token }, { state: 'in-progress' } or { state: 'completed' }, got ${kindOf(claim)}.`,
      ),
    ),
  };
}

export function createDispatcher(options: Options): Dispatcher {
  const { store, handle: run, claimTtlMs, report } = options;
  const keeper = createClaimKeeper(store, claimTtlMs, options.maxHandlingMs);
  const { complete, completing } = createCompletion(options);
  /** A claim answered later than this is renewed before its handler runs. */
  const renewEvery = Math.floor(claimTtlMs / 3);
  /** Deliveries being handled in this process, by idempotency key. */
  const inFlight = new Map<string, Running>();
  /** Gives up a claim: false when it had lapsed. A store's throw becomes a rejection. */
  const release = async (key: string, token: string) => store.release(key, token);

  /**
   * A claim whose answer took longer than a renewal period may have little life left, or none
   * (a PostgreSQL claim that waited on a lock, a slow network): confirm it and give it a full
   * life before the handler starts. Null to go on; otherwise the answer for the delivery.
   */
  async function renewBeforeHandling(
    key: string,
    token: string,
    running: Running,
    waited: number,
  ): Promise<Dispatched | null> {
    const asked = Date.now();
    let owned: boolean;
    try {
      owned = await store.renew(key, token, claimTtlMs);
    } catch (error) {
      // Unknown whether the claim stands: give it up, so the resend is handled.
      await release(key, token).catch(() => {});
      return { verdict: 'store-unavailable', error };
    }
    if (owned === true) {
      running.expiresAt = asked + claimTtlMs;
      return null;
    }
    return {
      verdict: 'in-progress',
      error: new Error(
        prefixed(
          `the claim on ${key} was answered after ${waited} ms, longer than claimTtlMs (${claimTtlMs} ms) allows, and had lapsed by then; onNotification was not called, and the service's resend will be handled. The store was slow (a lock wait, an overloaded server or network).`,
        ),
      ),
    };
  }

  /** Runs the merchant's code (reconcile.ts): the status to record, or its failure. */
  async function runHandler(
    notification: WebhookNotification,
    context: WebhookNotificationContext,
  ): Promise<Ran> {
    try {
      return { status: await run(notification, context) };
    } catch (error) {
      return { error };
    }
  }

  /** After a claim (or its promise): run the handler if the claim is ours. Never rejects. */
  async function deliver(
    claim: unknown,
    notification: WebhookNotification,
    context: WebhookNotificationContext,
    running: Running,
    asked: number,
    trace: DeliveryTrace,
  ): Promise<Dispatched> {
    const key = context.idempotencyKey;
    let token: string | Dispatched;
    try {
      token = ownClaim(await claim);
    } catch (error) {
      return { verdict: 'store-unavailable', error };
    }
    if (typeof token !== 'string') return token;
    const waited = Date.now() - asked;
    if (waited > renewEvery) {
      const refused = await renewBeforeHandling(key, token, running, waited);
      if (refused !== null) return refused;
    }
    const hold = keeper.hold(
      key,
      token,
      running.expiresAt - claimTtlMs,
      (expiresAt) => (running.expiresAt = expiresAt),
    );
    const abandonment = new Promise<Dispatched>((resolve) => {
      running.abandon = async () => {
        hold.stop();
        const error = new Error(
          prefixed(
            `the server closed while onNotification was still running for ${key}: the delivery was answered 503 and its claim released, so the service's resend is handled; the running call was not stopped and may still finish.`,
          ),
        );
        await release(key, token).catch(() => {});
        resolve({ verdict: 'shutting-down', error });
      };
    });
    const ran = trace.step('handle', () => runHandler(notification, context));
    const settled = await Promise.race([ran, abandonment]);
    if ('verdict' in settled) return settled;
    if ('error' in settled) {
      const problem = hold.stop();
      if (problem !== undefined)
        report(problem, { outcome: 'handler-failed', status: 500, notification });
      try {
        // False when the claim already lapsed: it is someone else's now, or nobody's.
        await release(key, token);
      } catch (releaseError) {
        // The claim now expires after claimTtlMs; resends until then are answered 409.
        report(releaseError, { outcome: 'store-unavailable', status: 500, notification });
      }
      return { verdict: 'handler-failed', error: settled.error };
    }
    running.abandon = undefined;
    await trace.step('complete', () => complete(key, token, hold, notification, settled.status));
    return PROCESSED;
  }

  const dispatch: Dispatch = (notification, context, trace = UNTRACED) => {
    const key = context.idempotencyKey;
    if (completing.has(key)) return DUPLICATE;
    const running = inFlight.get(key);
    if (running !== undefined && running.expiresAt > Date.now()) return waitFor(running);
    const asked = Date.now();
    let claim: unknown;
    try {
      claim = trace.step('claim', () => store.claim(key, claimTtlMs));
    } catch (error) {
      return { verdict: 'store-unavailable', error };
    }
    // A resend of a handled notification, answered by a synchronous store: nothing to wait for.
    // (Any other answer, a promise or one that is not a claim, goes on to deliver().)
    if (!isThenable(claim)) {
      const answer = claimAnswer(claim);
      if (answer?.state === 'completed') return DUPLICATE;
      if (answer?.state === 'in-progress') return IN_PROGRESS;
    }
    // Registered before anything awaits, so every later duplicate in this process sees it.
    const own: Running = { result: undefined as never, expiresAt: asked + claimTtlMs };
    const result = deliver(claim, notification, context, own, asked, trace);
    own.result = result;
    inFlight.set(key, own);
    void result.then(() => {
      if (inFlight.get(key)?.result === result) inFlight.delete(key);
    });
    return result;
  };

  return {
    dispatch,
    async abandon() {
      const running = [...inFlight.values()].flatMap((delivery) =>
        delivery.abandon === undefined ? [] : [delivery.abandon()],
      );
      await Promise.all(running);
    },
  };
}
