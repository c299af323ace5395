/**
 * Completion: recording that a notification was handled (and the payment's outcome, when the
 * store keeps them), after onNotification succeeded. A completion that fails (a dropped
 * connection, a restart) is retried at once a few times, then in the background while the claim
 * is kept renewed, so neither a resend to this process (answered 200: it was handled) nor one to
 * another instance (409: still claimed) runs the handler again while the record is being made.
 * One schedule of retries serves every write here (docs/stores.md, "What the promise survives").
 */
import type { HeldClaim } from './claim-keeper';
import { lostClaim } from './claim-keeper';
import type { Maybe } from '../maybe';
import { messageOf } from '../verification/encoding';
import type { WebhookNotification } from '../verification/notification';
import type { ResolvedReceiverOptions } from './options';
import { outcomeOf, recordsOutcomes } from '../stores/outcomes';
import type { OutcomeStore, PaymentOutcome } from '../stores/outcomes';
import type { RecordedStatus } from './reconcile';
import { prefixed } from '../prefixed';

/**
 * The pauses before the second, third and fourth try: about a second in all, enough for a pool
 * to replace connections a restart or an administrator cut (each failed try discards one), short
 * beside the service's patience for an answer. The tries after those, in the background, go on
 * doubling from the last, at most a renewal period apart.
 */
const QUICK_PAUSES_MS = [50, 200, 750];

/** The tries made before the delivery is answered. */
const QUICK_TRIES = QUICK_PAUSES_MS.length + 1;

type Options = Pick<
  ResolvedReceiverOptions<unknown>,
  'store' | 'claimTtlMs' | 'completedTtlMs' | 'maxHandlingMs' | 'outcomeTtlMs' | 'report'
>;

/** Records a handled notification; resolves once the delivery can be answered 200. */
export type Complete = (
  key: string,
  token: string,
  hold: HeldClaim,
  notification: WebhookNotification,
  status: RecordedStatus,
) => Promise<void>;

/**
 * `complete`, and `completing`: the notifications handled here whose completion the store has
 * not recorded yet. A resend reaching this process is a duplicate, whatever the store says.
 */
export function createCompletion(options: Options): {
  complete: Complete;
  completing: ReadonlySet<string>;
} {
  const { store, completedTtlMs, maxHandlingMs, outcomeTtlMs, report } = options;
  /** The store's outcome half, when it has one (outcomes.ts): null keeps 0.10's behaviour. */
  const outcomes = recordsOutcomes(store) ? store : null;
  const longestPause = Math.floor(options.claimTtlMs / 3);
  const completing = new Set<string>();

  /** The pause before try `n` (from 0) of the one schedule. */
  function pauseBefore(n: number): number {
    if (n === 0) return 0;
    if (n < QUICK_TRIES) return QUICK_PAUSES_MS[n - 1]!;
    return Math.min(QUICK_PAUSES_MS.at(-1)! * 2 ** (n - QUICK_TRIES), longestPause);
  }

  /**
   * Tries `write` from try `first` on, as long as `more(n)` allows try n: its answer, or the
   * last failure.
   */
  async function retry<T>(
    write: () => Maybe<T>,
    first: number,
    more: (n: number) => boolean,
  ): Promise<{ value: T } | { error: unknown }> {
    let error: unknown;
    for (let n = first; more(n); n++) {
      const ms = pauseBefore(n);
      if (ms > 0) await pause(ms);
      try {
        return { value: await write() };
      } catch (failure) {
        error = failure;
      }
    }
    return { error };
  }
  const quickly = (n: number) => n < QUICK_TRIES;

  /**
   * Records the payment's outcome for its return page (createPaymentStatusHandler), before the
   * completion: a notification whose outcome could not be recorded is still completed (its
   * handler must not run again), and the shopper's page then waits until its bound.
   */
  async function recordOutcome(
    outcomes: OutcomeStore,
    outcome: PaymentOutcome,
    notification: WebhookNotification,
  ): Promise<void> {
    const tried = await retry(() => outcomes.recordOutcome(outcome, outcomeTtlMs), 0, quickly);
    if ('value' in tried) return;
    report(
      new Error(
        prefixed(
          `the outcome of payment ${outcome.paymentId} (${outcome.status}) could not be recorded for its return page (${messageOf(tried.error)}); the notification was handled and answered 200, and the shopper's page will not learn the outcome from this delivery.`,
        ),
        { cause: tried.error },
      ),
      { outcome: 'store-unavailable', status: 200, notification },
    );
  }

  /** After the store answered a completion: stop renewing, and tell what went wrong meanwhile. */
  function completed(
    recorded: boolean,
    key: string,
    hold: HeldClaim,
    notification: WebhookNotification,
  ): void {
    const problem = hold.stop();
    if (problem !== undefined) report(problem, { outcome: 'processed', status: 200, notification });
    if (recorded !== true) {
      // The handler ran, but its claim had lapsed; the completion belongs to the delivery
      // that now owns the key (or the next resend), which will run the handler again.
      report(lostClaim(key), { outcome: 'processed', status: 200, notification });
    }
  }

  /** Goes on retrying a failed completion in the background while the claim is kept renewed. */
  async function completeLater(
    key: string,
    token: string,
    hold: HeldClaim,
    notification: WebhookNotification,
  ): Promise<void> {
    hold.until = Date.now() + maxHandlingMs;
    const tried = await retry(
      () => !hold.lost && store.complete(key, token, completedTtlMs),
      QUICK_TRIES,
      () => !hold.lost && Date.now() < hold.until,
    );
    hold.stop();
    completing.delete(key);
    if (!('value' in tried) || tried.value !== true) {
      report(
        new Error(
          prefixed(
            `gave up recording that ${key} was handled (the store failed or the claim was lost for ${maxHandlingMs} ms): its claim lapses within claimTtlMs and a later resend will run onNotification again.`,
          ),
        ),
        { outcome: 'processed', status: 200, notification },
      );
    }
  }

  const complete: Complete = async (key, token, hold, notification, status) => {
    hold.completing = true;
    const outcome = outcomes === null ? null : outcomeOf(notification, status);
    if (outcome !== null && outcomes?.completeWithOutcome !== undefined) {
      // One step, one round trip (PostgreSQL: one statement): the shortest window in which a
      // crash reruns the handler. Should it fail, the two writes below take over, so that an
      // outcome that cannot be recorded never holds back the completion.
      try {
        const recorded = await outcomes.completeWithOutcome(
          key,
          token,
          completedTtlMs,
          outcome,
          outcomeTtlMs,
        );
        return completed(recorded, key, hold, notification);
      } catch {
        // Told below, by the writes that take over, if they fail too.
      }
    }
    if (outcome !== null && outcomes !== null) await recordOutcome(outcomes, outcome, notification);
    const tried = await retry(() => store.complete(key, token, completedTtlMs), 0, quickly);
    if ('value' in tried) return completed(tried.value, key, hold, notification);
    // The notification was handled: answer 200 so the service stops. Its record is retried in
    // the background meanwhile; resends reaching this process are duplicates, and the claim,
    // still renewed, answers 409 to those reaching another instance.
    completing.add(key);
    report(
      new Error(
        prefixed(
          `${key} was handled, but the store failed to record it (${messageOf(tried.error)}) after ${QUICK_TRIES} tries. Answered 200; the claim is kept and the record retried in the background for up to maxHandlingMs, so resends meanwhile do not run onNotification again unless this process stops first.`,
        ),
        { cause: tried.error },
      ),
      { outcome: 'store-unavailable', status: 200, notification },
    );
    void completeLater(key, token, hold, notification);
  };

  return { complete, completing };
}

/** A pause that never keeps a Node process alive (edge runtimes have no unref). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    (timer as { unref?: () => void }).unref?.();
  });
}
