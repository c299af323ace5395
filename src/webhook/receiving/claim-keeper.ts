/**
 * The claim keeper: every claim this process holds is renewed while its delivery needs it, on
 * one timer for all of them (BullMQ's LockManager), so a handler slower than claimTtlMs keeps
 * its claim and a resend elsewhere meanwhile answers 409 instead of running the notification a
 * second time. A crashed process stops renewing, and its claims lapse within claimTtlMs.
 *
 * The timer ticks every claimTtlMs/3 while anything is held; a tick renews each claim last
 * asked for at least half a period ago, so each renewal is asked for within half a lifetime of
 * the one before. Renewal stops at `until` (maxHandlingMs after the handler started: a hung
 * handler must not block its notification for ever) or once the store says the claim is lost.
 *
 * A tick's claims are renewed in one store call where the store offers one (`renewMany`: one
 * UPDATE in PostgreSQL, one pipelined round trip in Redis), so a process holding a hundred
 * slow deliveries asks its database once per period, not a hundred times; a store without it
 * gets one `renew` per claim, each on its own.
 */
import { kindOf } from '../value-kinds';
import type { IdempotencyStore } from '../stores/idempotency';
import { prefixed } from '../prefixed';

/** One claim being kept. */
export interface HeldClaim {
  /** Renewal goes on until this time (moved on when a completion is retried later). */
  until: number;
  /** Set once the store said the token no longer owns the claim. */
  readonly lost: boolean;
  /** Set once the completion was sent: a renewal answering false may have met it. */
  completing: boolean;
  /** Stops renewing; gives the first problem met, to be reported with the final answer. */
  stop(): unknown;
}

export interface ClaimKeeper {
  /**
   * Keeps the claim `token` holds on `key` renewed from now to maxHandlingMs from now.
   * `askedAt` is when the claim (or its last renewal) was asked for; `renewed` hears the
   * claim's new expiry after each renewal.
   */
  hold(
    key: string,
    token: string,
    askedAt: number,
    renewed: (expiresAt: number) => void,
  ): HeldClaim;
}

export function createClaimKeeper(
  store: Pick<IdempotencyStore, 'renew' | 'renewMany'>,
  claimTtlMs: number,
  maxHandlingMs: number,
): ClaimKeeper {
  const period = Math.floor(claimTtlMs / 3);
  const held = new Set<Hold>();
  // setTimeout, not setInterval: the web-only runtimes of servicepay/webhook/web have it.
  let timer: ReturnType<typeof setTimeout> | undefined;

  class Hold implements HeldClaim {
    until = Date.now() + maxHandlingMs;
    lost = false;
    completing = false;
    renewing = false;
    problem: unknown;
    constructor(
      readonly key: string,
      readonly token: string,
      public askedAt: number,
      readonly renewed: (expiresAt: number) => void,
    ) {}

    stop(): unknown {
      held.delete(this);
      if (held.size === 0 && timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      return this.problem;
    }
  }

  function tick(): void {
    timer = undefined;
    const now = Date.now();
    const due: Hold[] = [];
    for (const hold of held) {
      if (hold.renewing || now - hold.askedAt < period / 2) continue;
      if (now >= hold.until) {
        held.delete(hold);
        hold.problem ??= new Error(
          prefixed(
            `onNotification ran longer than maxHandlingMs (${maxHandlingMs} ms) for ${hold.key}: its claim was no longer renewed and lapsed, so a resend may have run the notification again.`,
          ),
        );
        continue;
      }
      due.push(hold);
    }
    renew(due, now);
    schedule();
  }

  function schedule(): void {
    if (timer !== undefined || held.size === 0) return;
    timer = setTimeout(tick, period);
    // Edge runtimes have no unref; on Node the timer must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
  }

  /** Renews the claims due: in one call where the store has renewMany, else one call each. */
  function renew(due: Hold[], asked: number): void {
    if (due.length === 0) return;
    const { renewMany } = store;
    if (typeof renewMany !== 'function') {
      for (const hold of due) {
        void settle([hold], asked, async () => [
          await store.renew(hold.key, hold.token, claimTtlMs),
        ]);
      }
      return;
    }
    const claims = due.map(({ key, token }) => ({ key, token }));
    void settle(due, asked, async () =>
      answersFor(await renewMany.call(store, claims, claimTtlMs), claims.length),
    );
  }

  /** Applies the store's answers (whether each token still owns its key), or its failure. */
  async function settle(
    holds: Hold[],
    asked: number,
    ask: () => Promise<readonly unknown[]>,
  ): Promise<void> {
    for (const hold of holds) hold.renewing = true;
    let owned: readonly unknown[];
    try {
      owned = await ask();
    } catch (error) {
      // Tried again at the next tick: the claims may outlive the store's hiccup.
      for (const hold of holds) hold.problem ??= error;
      return;
    } finally {
      for (const hold of holds) hold.renewing = false;
    }
    holds.forEach((hold, i) => answered(hold, owned[i] === true, asked));
  }

  /** One claim's answer: renewed from `asked` on, or lost. */
  function answered(hold: Hold, owned: boolean, asked: number): void {
    if (!held.has(hold)) return;
    if (owned) {
      hold.askedAt = asked;
      hold.renewed(asked + claimTtlMs);
      return;
    }
    held.delete(hold);
    // A renewal that met this delivery's own completion finds the claim gone: the
    // completion's answer, not this one, says whether the claim was lost.
    if (hold.completing) return;
    hold.lost = true;
    hold.problem ??= lostClaim(hold.key);
  }

  return {
    hold(key, token, askedAt, renewed) {
      const hold = new Hold(key, token, askedAt, renewed);
      held.add(hold);
      schedule();
      return hold;
    },
  };
}

/** renewMany's answer as the contract has it (a boolean per claim, in order), or a TypeError. */
function answersFor(answer: unknown, count: number): readonly boolean[] {
  if (
    Array.isArray(answer) &&
    answer.length === count &&
    answer.every((owned) => typeof owned === 'boolean')
  ) {
    return answer;
  }
  throw new TypeError(
    prefixed(
      `the store's renewMany answered ${Array.isArray(answer) ? `an array of ${answer.length} values` : kindOf(answer)} for ${count} claims; it must answer an array of ${count} booleans, one per claim in their order (docs/stores.md, "A store of your own"). The claims are renewed again at the next period.`,
    ),
  );
}

/** The problem of a claim that lapsed while its delivery still needed it. */
export function lostClaim(key: string): Error {
  return new Error(
    prefixed(
      `the claim on ${key} lapsed while onNotification ran (the store no longer had it under this delivery's token): a resend may run the notification again. Renewals failed or the process stalled for longer than claimTtlMs.`,
    ),
  );
}
