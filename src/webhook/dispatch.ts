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
 * Three faults of a store are met here rather than left to the next resend (docs/stores.md,
 * "What the promise survives"):
 * - A claim answered late (the store waited on a lock, or the answer was slow) may have little
 *   life left, or none: the handler starts only after a renewal confirmed the claim is still
 *   ours and gave it a full life again (renewBeforeHandling).
 * - A completion that fails (a dropped connection, a restart) is retried at once a few times,
 *   then in the background while the claim is kept renewed, so neither a resend to this process
 *   (answered 200: it was handled) nor one to another instance (409: still claimed) runs the
 *   handler again while the outcome is being recorded (completeLater).
 * - A handler that hangs must not block its notification, nor a shutdown, for ever: a duplicate
 *   waits at most MAX_WAIT_MS (then 409); renewal stops after maxHandlingMs, and once the
 *   claim's lifetime has passed the in-process record is ignored just as the store ignores the
 *   expired claim, so a resend is handled afresh; `abandon()` (listenWebhook's close) answers
 *   the deliveries still running 503 and releases their claims.
 */
import type { WebhookNotification } from './notification';
import type { WebhookNotificationContext } from './options';
import type { WebhookOutcome } from './receiver';
import type { ResolvedReceiverOptions } from './options';
import type { IdempotencyClaim } from './idempotency';
import { claimAnswer } from './idempotency';
import { describeValue } from '../core/describe-value';
import { isThenable, messageOf } from './encoding';
import { outcomeOf, recordsOutcomes } from './outcomes';
import type { PaymentOutcome } from './outcomes';
import type { RecordedStatus } from './reconcile';
import type { DeliveryTrace } from './receiver-telemetry';
import { UNTRACED } from './receiver-telemetry';
import { call, retrying } from './store-calls';

/** What the merchant's code came to: the status to record (null: none), or its failure. */
type Ran = { status: RecordedStatus } | { error: unknown };
export type DispatchOutcome = Extract<
  WebhookOutcome,
  | 'processed'
  | 'duplicate'
  | 'in-progress'
  | 'concurrent-delivery-failed'
  | 'handler-failed'
  | 'store-unavailable'
  | 'shutting-down'
>;

export interface DispatchResult {
  outcome: DispatchOutcome;
  /** The failure behind an outcome other than processed or duplicate. */
  error?: unknown;
}

export type Dispatch = (
  notification: WebhookNotification,
  context: WebhookNotificationContext,
  trace?: DeliveryTrace,
) => DispatchResult | Promise<DispatchResult>;

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

const DUPLICATE: DispatchResult = { outcome: 'duplicate' };
const IN_PROGRESS: DispatchResult = { outcome: 'in-progress' };
const PROCESSED: DispatchResult = { outcome: 'processed' };

/** Longest a duplicate holds its HTTP request open waiting for the first delivery. */
const MAX_WAIT_MS = 10_000;

/**
 * Pauses between the tries of a failed completion before the delivery is answered: about a
 * second in all, enough for a pool to replace connections a restart or an administrator cut
 * (each failed try discards one), short beside the service's patience for an answer.
 */
const COMPLETE_RETRY_DELAYS_MS = [50, 200, 750];

interface Running {
  result: Promise<DispatchResult>;
  /** When the claim behind it expires in the store (moved on by each renewal). */
  expiresAt: number;
  /** Set once the claim is ours and the handler runs: answers the delivery 'shutting-down'. */
  abandon?: () => Promise<void>;
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
  const answer = claimAnswer(claim);
  if (answer?.state === 'claimed') return answer.token;
  if (answer?.state === 'completed') return DUPLICATE;
  if (answer?.state === 'in-progress') return IN_PROGRESS;
  return {
    outcome: 'store-unavailable',
    error: new TypeError(
      `servicepay: IdempotencyStore.claim must return { state: 'claimed', token }, { state: 'in-progress' } or { state: 'completed' }, got ${describeValue(claim)}.`,
    ),
  };
}

/** At once, then after each of COMPLETE_RETRY_DELAYS_MS: about a second in all. */
const quickly = (n: number): number | null =>
  n === 0 ? 0 : (COMPLETE_RETRY_DELAYS_MS[n - 1] ?? null);

/** What keeps a claim renewed while its delivery needs it. */
interface Keeper {
  /** Renewal goes on until this time (moved on when a completion is retried later). */
  until: number;
  /** Set once the store said the token no longer owns the claim. */
  lost: boolean;
  /** Set once the completion was sent: a renewal answering false may have met it. */
  completing: boolean;
  /** Stops renewing; gives the first problem met, to be reported with the final answer. */
  stop(): unknown;
}

export function createDispatcher(options: Options): Dispatcher {
  const {
    store,
    handle: run,
    claimTtlMs,
    completedTtlMs,
    maxHandlingMs,
    outcomeTtlMs,
    report,
  } = options;
  /** The store's outcome half, when it has one (outcomes.ts): null keeps 0.10's behaviour. */
  const outcomes = recordsOutcomes(store) ? store : null;
  const renewEvery = Math.floor(claimTtlMs / 3);
  /** Deliveries being handled in this process, by idempotency key. */
  const inFlight = new Map<string, Running>();
  /**
   * Notifications handled here whose completion the store has not recorded yet (completeLater):
   * a resend reaching this process is a duplicate, whatever the store says meanwhile.
   */
  const completing = new Set<string>();

  /**
   * Renews the claim every claimTtlMs/3 while the delivery needs it, so a handler slower than
   * claimTtlMs keeps its claim and a resend elsewhere meanwhile answers 409 instead of running
   * the notification a second time; a crashed process stops renewing and its claim lapses
   * within claimTtlMs. Renewal stops at `until` (maxHandlingMs after the handler started: a
   * hung handler must not block its notification for ever) or once the store says the claim is
   * lost.
   */
  function keepClaim(key: string, token: string, running: Running): Keeper {
    let problem: unknown;
    let stopped = false;
    const keeper: Keeper = {
      until: Date.now() + maxHandlingMs,
      lost: false,
      completing: false,
      stop() {
        stopped = true;
        clearTimeout(timer);
        return problem;
      },
    };
    // setTimeout, not setInterval: the web-only runtimes of servicepay/webhook/web have it,
    // and a slow renewal never overlaps the next one.
    let timer = schedule();
    function schedule(): ReturnType<typeof setTimeout> {
      const next = setTimeout(renew, renewEvery);
      // Edge runtimes have no unref; on Node the timer must not keep the process alive.
      (next as { unref?: () => void }).unref?.();
      return next;
    }
    function renew(): void {
      if (stopped) return;
      if (Date.now() >= keeper.until) {
        stopped = true;
        problem ??= new Error(
          `servicepay: onNotification ran longer than maxHandlingMs (${maxHandlingMs} ms) for ${key}: its claim was no longer renewed and lapsed, so a resend may have run the notification again.`,
        );
        return;
      }
      const asked = Date.now();
      call(() => store.renew(key, token, claimTtlMs)).then(
        (owned) => {
          if (stopped) return;
          if (owned === true) {
            running.expiresAt = asked + claimTtlMs;
            timer = schedule();
            return;
          }
          stopped = true;
          // A renewal that met this delivery's own completion finds the claim gone: the
          // completion's answer, not this one, says whether the claim was lost.
          if (keeper.completing) return;
          keeper.lost = true;
          problem ??= lostClaim(key);
        },
        (error: unknown) => {
          // Try again at the next tick: the claim may outlive the store's hiccup.
          problem ??= error;
          if (!stopped) timer = schedule();
        },
      );
    }
    return keeper;
  }

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
  ): Promise<DispatchResult | null> {
    const asked = Date.now();
    let owned: boolean;
    try {
      owned = await call(() => store.renew(key, token, claimTtlMs));
    } catch (error) {
      // Unknown whether the claim stands: give it up, so the resend is handled.
      await call(() => store.release(key, token)).catch(() => {});
      return { outcome: 'store-unavailable', error };
    }
    if (owned === true) {
      running.expiresAt = asked + claimTtlMs;
      return null;
    }
    return {
      outcome: 'in-progress',
      error: new Error(
        `servicepay: the claim on ${key} was answered after ${waited} ms, longer than claimTtlMs (${claimTtlMs} ms) allows, and had lapsed by then; onNotification was not called, and the service's resend will be handled. The store was slow (a lock wait, an overloaded server or network).`,
      ),
    };
  }

  /** Retries a failed completion in the background while the claim is kept renewed. */
  async function completeLater(
    key: string,
    token: string,
    keeper: Keeper,
    notification: WebhookNotification,
  ): Promise<void> {
    keeper.until = Date.now() + maxHandlingMs;
    let wait = COMPLETE_RETRY_DELAYS_MS.at(-1) ?? 1000;
    const tried = await retrying(
      () => !keeper.lost && store.complete(key, token, completedTtlMs),
      () => {
        if (keeper.lost || Date.now() >= keeper.until) return null;
        const next = Math.min(wait, renewEvery);
        wait *= 2;
        return next;
      },
    );
    keeper.stop();
    completing.delete(key);
    if (!('value' in tried) || tried.value !== true) {
      report(
        new Error(
          `servicepay: gave up recording that ${key} was handled (the store failed or the claim was lost for ${maxHandlingMs} ms): its claim lapses within claimTtlMs and a later resend will run onNotification again.`,
        ),
        { outcome: 'processed', status: 200, notification },
      );
    }
  }

  /** After a claim (or its promise): run the handler if the claim is ours. Never rejects. */
  async function handle(
    pending: IdempotencyClaim | PromiseLike<IdempotencyClaim>,
    notification: WebhookNotification,
    context: WebhookNotificationContext,
    running: Running,
    asked: number,
    trace: DeliveryTrace,
  ): Promise<DispatchResult> {
    const key = context.idempotencyKey;
    let token: string | DispatchResult;
    try {
      token = ownClaim(await pending);
    } catch (error) {
      return { outcome: 'store-unavailable', error };
    }
    if (typeof token !== 'string') return token;
    const waited = Date.now() - asked;
    if (waited > renewEvery) {
      const refused = await renewBeforeHandling(key, token, running, waited);
      if (refused !== null) return refused;
    }
    const keeper = keepClaim(key, token, running);
    let abandoned!: (result: DispatchResult) => void;
    const abandonment = new Promise<DispatchResult>((resolve) => (abandoned = resolve));
    running.abandon = async () => {
      keeper.stop();
      const error = new Error(
        `servicepay: the server closed while onNotification was still running for ${key}: the delivery was answered 503 and its claim released, so the service's resend is handled; the running call was not stopped and may still finish.`,
      );
      await call(() => store.release(key, token)).catch(() => {});
      abandoned({ outcome: 'shutting-down', error });
    };
    const ran = trace.step('handle', () => runHandler(notification, context));
    const outcome = isThenable(ran) ? await Promise.race([ran, abandonment]) : ran;
    if ('outcome' in outcome) return outcome;
    if ('error' in outcome) {
      const problem = keeper.stop();
      if (problem !== undefined)
        report(problem, { outcome: 'handler-failed', status: 500, notification });
      try {
        // False when the claim already lapsed: it is someone else's now, or nobody's.
        await call(() => store.release(key, token));
      } catch (releaseError) {
        // The claim now expires after claimTtlMs; resends until then are answered 409.
        report(releaseError, { outcome: 'store-unavailable', status: 500, notification });
      }
      return { outcome: 'handler-failed', error: outcome.error };
    }
    running.abandon = undefined;
    return trace.step('complete', () => complete(key, token, keeper, notification, outcome.status));
  }

  /**
   * Records the payment's outcome for its return page (createPaymentStatusHandler), before the
   * completion: a notification whose outcome could not be recorded is still completed (its
   * handler must not run again), and the shopper's page then waits until its bound.
   */
  async function recordOutcome(
    outcome: PaymentOutcome,
    notification: WebhookNotification,
  ): Promise<void> {
    if (outcomes === null) return;
    const tried = await retrying(() => outcomes.recordOutcome(outcome, outcomeTtlMs), quickly);
    if ('value' in tried) return;
    report(
      new Error(
        `servicepay: the outcome of payment ${outcome.paymentId} (${outcome.status}) could not be recorded for its return page (${messageOf(tried.error)}); the notification was handled and answered 200, and the shopper's page will not learn the outcome from this delivery.`,
        { cause: tried.error },
      ),
      { outcome: 'store-unavailable', status: 200, notification },
    );
  }

  /** Runs the merchant's code (reconcile.ts): the status to record, or its failure. */
  function runHandler(
    notification: WebhookNotification,
    context: WebhookNotificationContext,
  ): Ran | Promise<Ran> {
    try {
      const handled = run(notification, context);
      if (!isThenable(handled)) return { status: handled };
      return Promise.resolve(handled).then(
        (status) => ({ status }),
        (error: unknown) => ({ error }),
      );
    } catch (error) {
      return { error };
    }
  }

  /**
   * Records the handled notification (and the payment's outcome, when the store keeps them):
   * now, after a few quick tries, or in the background.
   */
  async function complete(
    key: string,
    token: string,
    keeper: Keeper,
    notification: WebhookNotification,
    status: RecordedStatus,
  ): Promise<DispatchResult> {
    keeper.completing = true;
    const outcome = outcomes === null ? null : outcomeOf(notification, status);
    if (outcome !== null && outcomes?.completeWithOutcome !== undefined) {
      // One step, one round trip (PostgreSQL: one statement): the shortest window in which a
      // crash reruns the handler. Should it fail, the two calls below take over, so that an
      // outcome that cannot be recorded never holds back the completion.
      const completeWithOutcome = outcomes.completeWithOutcome.bind(outcomes);
      try {
        return completed(
          await call(() => completeWithOutcome(key, token, completedTtlMs, outcome, outcomeTtlMs)),
          key,
          keeper,
          notification,
        );
      } catch {
        // Told below, by the calls that take over, if they fail too.
      }
    }
    if (outcome !== null) await recordOutcome(outcome, notification);
    const tried = await retrying(() => store.complete(key, token, completedTtlMs), quickly);
    if ('value' in tried) return completed(tried.value, key, keeper, notification);
    // The notification was handled: answer 200 so the service stops. Its record is retried in
    // the background meanwhile; resends reaching this process are duplicates, and the claim,
    // still renewed, answers 409 to those reaching another instance.
    completing.add(key);
    report(
      new Error(
        `servicepay: ${key} was handled, but the store failed to record it (${messageOf(tried.error)}) after ${COMPLETE_RETRY_DELAYS_MS.length + 1} tries. Answered 200; the claim is kept and the record retried in the background for up to maxHandlingMs, so resends meanwhile do not run onNotification again unless this process stops first.`,
        { cause: tried.error },
      ),
      { outcome: 'store-unavailable', status: 200, notification },
    );
    void completeLater(key, token, keeper, notification);
    return PROCESSED;
  }

  /** After the store answered a completion: stop renewing, and tell what went wrong meanwhile. */
  function completed(
    recorded: boolean,
    key: string,
    keeper: Keeper,
    notification: WebhookNotification,
  ): DispatchResult {
    const problem = keeper.stop();
    if (problem !== undefined) report(problem, { outcome: 'processed', status: 200, notification });
    if (recorded !== true) {
      // The handler ran, but its claim had lapsed; the completion belongs to the delivery
      // that now owns the key (or the next resend), which will run the handler again.
      report(lostClaim(key), { outcome: 'processed', status: 200, notification });
    }
    return PROCESSED;
  }

  const dispatch: Dispatch = (notification, context, trace = UNTRACED) => {
    const key = context.idempotencyKey;
    if (completing.has(key)) return DUPLICATE;
    const running = inFlight.get(key);
    if (running !== undefined && running.expiresAt > Date.now()) return waitFor(running);
    const asked = Date.now();
    let claim: IdempotencyClaim | PromiseLike<IdempotencyClaim>;
    try {
      claim = trace.step('claim', () => store.claim(key, claimTtlMs));
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
    const own: Running = { result: undefined as never, expiresAt: asked + claimTtlMs };
    const result = handle(claim, notification, context, own, asked, trace);
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

function lostClaim(key: string): Error {
  return new Error(
    `servicepay: the claim on ${key} lapsed while onNotification ran (the store no longer had it under this delivery's token): a resend may run the notification again. Renewals failed or the process stalled for longer than claimTtlMs.`,
  );
}
