/** The claim rules that need real time: expiry, renewal, completion lifetimes, claim life. */
import { describeValue } from '../../core/describe-value';
import type { IdempotencyClaim } from '../stores/idempotency';
import {
  EXPIRY_SLACK_MS,
  TIMED_ATTEMPTS,
  actsNot,
  checkOneWinner,
  expectAnswer,
  sleep,
} from './checked';
import type { Checked } from './checked';
import { IdempotencyStoreConformanceError } from './rules';

/**
 * A burst of claims of distinct keys at once (the store queues them: a pool, a single
 * connection, a lock): every claim answered `claimed` must still be held ttlMs after the burst
 * was sent, less the slack, however late its own answer came.
 */
export async function claimLife(store: Checked, concurrency: number): Promise<void> {
  const ttlMs = 1500;
  for (let attempt = 1; attempt <= TIMED_ATTEMPTS; attempt++) {
    const keys = Array.from({ length: concurrency * 4 }, (_, i) => `life:${attempt}:${i}`);
    const sent = Date.now();
    const claims = await Promise.all(keys.map((key) => store.claim(key, ttlMs)));
    // Answers later than half the life leave too little to check before it ends.
    if (Date.now() - sent > ttlMs / 2) continue;
    claims.forEach((claim, i) => {
      if (claim.state !== 'claimed') {
        throw new IdempotencyStoreConformanceError(
          'claim-life',
          `claim(${describeValue(keys[i])}) of a fresh key answered '${claim.state}'.`,
        );
      }
    });
    await sleep(sent + ttlMs - EXPIRY_SLACK_MS - Date.now());
    const again = await Promise.all(keys.map((key) => store.claim(key, 60_000)));
    if (Date.now() >= sent + ttlMs) continue; // checked too late to be conclusive
    const lapsed = again.findIndex((claim) => claim.state !== 'in-progress');
    if (lapsed !== -1) {
      throw new IdempotencyStoreConformanceError(
        'claim-life',
        `of ${keys.length} claims of ${ttlMs} ms sent at once, ${describeValue(keys[lapsed])} answered '${again[lapsed]?.state}' less than ${ttlMs} ms after it was sent: its life was counted from before the store wrote it.`,
      );
    }
    return;
  }
  throw new IdempotencyStoreConformanceError(
    'settles',
    `the store was too slow to time a burst of claims (${TIMED_ATTEMPTS} attempts).`,
  );
}

/**
 * Expiry, renewal and completion lifetimes, with real time. Each scenario notes when it acted;
 * one that a stalled machine ran too late to prove anything is run again on fresh keys.
 */
export async function timing(store: Checked, concurrency: number): Promise<void> {
  for (let attempt = 1; attempt <= TIMED_ATTEMPTS; attempt++) {
    if (await timedScenario(store, `timed:${attempt}:`, concurrency)) return;
  }
  throw new IdempotencyStoreConformanceError(
    'settles',
    `the store was too slow to time its claims (${TIMED_ATTEMPTS} attempts): claims of 1 s expired before the kit could check them.`,
  );
}

/** One run of the timed checks; false when it ran too late to be conclusive. */
async function timedScenario(
  store: Checked,
  prefix: string,
  concurrency: number,
): Promise<boolean> {
  const expiring = `${prefix}expiring`; // 1 s claim, left to expire
  const longer = `${prefix}longer`; // 2.5 s claim: honoured as given, not cut to 1 s
  const renewed = `${prefix}renewed`; // 1 s claim renewed at 0.5 s for 1.5 s
  const together = `${prefix}together`; // the same, by renewMany when the store has it
  const briefly = `${prefix}briefly`; // completed for 1 s
  const kept = `${prefix}kept`; // completed for 60 s

  const start = Date.now();
  const expiringToken = await store.take(expiring, 1000, 'claim-expiry');
  await store.take(longer, 2500, 'claim-expiry');
  const renewedToken = await store.take(renewed, 1000, 'renewal');
  const togetherToken = store.renewsMany ? await store.take(together, 1000, 'renew-many') : null;
  const brieflyToken = await store.take(briefly, 60_000, 'completion-lifetime');
  const keptToken = await store.take(kept, 60_000, 'completion-lifetime');
  expectAnswer(
    await store.complete(briefly, brieflyToken, 1000),
    true,
    'owner-acts',
    'the owner’s complete',
  );
  expectAnswer(
    await store.complete(kept, keptToken, 60_000),
    true,
    'owner-acts',
    'the owner’s complete',
  );
  const ready = Date.now();
  if (ready - start > 400) return false;

  await sleep(start + 500 - Date.now());
  const renewing = Date.now();
  const [renewedOk, togetherOk = [true]] = await Promise.all([
    store.renew(renewed, renewedToken, 1500),
    togetherToken === null
      ? undefined
      : store.renewMany([{ key: together, token: togetherToken }], 1500),
  ]);
  const renewedBy = Date.now();
  if (Date.now() - start >= 950) return false;
  expectAnswer(renewedOk, true, 'renewal', 'renew of an unexpired claim by its owner');
  expectAnswer(togetherOk[0]!, true, 'renew-many', 'renewMany of an unexpired claim by its owner');

  // Every 1 s entry was written before `ready`, so it has expired by ready + 1 s.
  await sleep(ready + 1000 + EXPIRY_SLACK_MS - Date.now());
  const [expired, stillLonger, stillRenewed, stillTogether] = await Promise.all([
    Promise.all(Array.from({ length: concurrency }, () => store.claim(expiring, 60_000))),
    store.claim(longer, 60_000),
    store.claim(renewed, 60_000),
    togetherToken === null ? null : store.claim(together, 60_000),
  ]);
  const checked = Date.now();
  const gone = expired.filter((claim) => claim.state === 'claimed');
  if (gone.length === 0) {
    throw new IdempotencyStoreConformanceError(
      'claim-expiry',
      `a claim of 1000 ms was still held ${checked - start} ms after it was taken.`,
    );
  }
  checkOneWinner(expired, expiring, concurrency);
  // Held claims are only proven held if the check ran before they could have expired.
  if (checked >= start + 2500 || checked >= renewing + 1500) return false;
  if (stillLonger.state !== 'in-progress') {
    throw new IdempotencyStoreConformanceError(
      'claim-expiry',
      `a claim of 2500 ms answered '${stillLonger.state}' ${checked - start} ms after it was taken; ttlMs must be honoured as given.`,
    );
  }
  for (const [claim, rule] of [
    [stillRenewed, 'renewal'],
    [stillTogether, 'renew-many'],
  ] as const) {
    if (claim !== null && claim.state !== 'in-progress') {
      throw new IdempotencyStoreConformanceError(
        rule,
        `a claim renewed for 1500 ms answered '${claim.state}' ${checked - renewing} ms after the renewal.`,
      );
    }
  }
  await store.expect(
    briefly,
    'claimed',
    'completion-lifetime',
    'a completion of 1000 ms, 1 s later',
  );
  await store.expect(kept, 'completed', 'completion-lifetime', 'a completion of 60 s, 1 s later');

  // The expired claim's first owner is late: its token must change nothing for the new owner.
  await actsNot(
    store,
    expiring,
    expiringToken,
    'owner-only',
    'a token whose claim expired and was taken again',
  );
  await store.expect(expiring, 'in-progress', 'owner-only', 'after the expired owner’s late calls');
  const winner = gone[0] as Extract<IdempotencyClaim, { state: 'claimed' }>;
  if (winner.token === expiringToken) {
    throw new IdempotencyStoreConformanceError(
      'unique-token',
      'the re-claim of an expired key got the expired claim’s token.',
    );
  }
  expectAnswer(
    await store.complete(expiring, winner.token, 60_000),
    true,
    'owner-acts',
    'the new owner’s complete',
  );

  // Still held past 2 s (a store keeping whole seconds must not cut 2.5 s to 2 s)...
  await sleep(start + 2150 - Date.now());
  const late = await store.claim(longer, 60_000);
  if (Date.now() >= start + 2500) return false;
  if (late.state !== 'in-progress') {
    throw new IdempotencyStoreConformanceError(
      'claim-expiry',
      `a claim of 2500 ms answered '${late.state}' ${Date.now() - start} ms after it was taken; ttlMs must be honoured as given.`,
    );
  }
  // ...and over 2.5 s after it was written (the renewed one: 1.5 s after its renewal).
  // Counted from when the writes had surely happened: `ready` and the renewal's answer.
  await sleep(Math.max(ready + 2500, renewedBy + 1500) + EXPIRY_SLACK_MS - Date.now());
  await store.expect(
    longer,
    'claimed',
    'claim-expiry',
    `a claim of 2500 ms, ${Date.now() - ready} ms after it was written`,
  );
  for (const [key, rule] of [
    [renewed, 'renewal'],
    ...(togetherToken === null ? [] : [[together, 'renew-many'] as const]),
  ] as const) {
    await store.expect(
      key,
      'claimed',
      rule,
      `a claim renewed for 1500 ms, ${Date.now() - renewedBy} ms after the renewal`,
    );
  }
  return true;
}
