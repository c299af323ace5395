/**
 * `servicepay/webhook/testing`: the conformance kit for idempotency stores. It checks a store
 * against the IdempotencyStore rules with real time and real concurrency, with no test runner:
 *
 *   await checkIdempotencyStore(() => createMyStore({ prefix: `test-${randomUUID()}:` }));
 *
 * Each rule gets a fresh store from `makeStore` and runs beside the others, so the whole kit
 * takes a few seconds (mostly waiting out claims of 1 to 2.5 s). Methods are always called on
 * the store as given (`store.claim(...)`), so a Proxy that forwards them works.
 */
import { describeValue } from '../core/describe-value';
import { claimAnswer } from './idempotency';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency';
import { recordsOutcomes } from './outcomes';
import type { OutcomeStore, PaymentOutcome } from './outcomes';

/** The rules the kit checks; a failure names one. */
export type IdempotencyStoreRule =
  /** makeStore gives an object with claim, renew, complete and release methods. */
  | 'store-shape'
  /** claim answers { state: 'claimed', token } with a non-empty string token, or a bare state. */
  | 'claim-answer'
  /** Of concurrent claims of one key (fresh or expired), exactly one is claimed. */
  | 'atomic-claim'
  /** No two claims share a token, across keys and across re-claims of one key. */
  | 'unique-token'
  /** The owner's renew, complete and release act and answer true. */
  | 'owner-acts'
  /** A token that does not own the key (a stranger's, or a stale one) changes nothing. */
  | 'owner-only'
  /** A claim lasts ttlMs as given (not less, not much more), then counts as absent. */
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

/** Options of checkIdempotencyStore. */
export interface CheckIdempotencyStoreOptions {
  /**
   * Concurrent claims fired at one key in the atomicity checks.
   * @default 16
   */
  concurrency?: number;
}

/** Longest a single store call may take before the kit gives up on it. */
const CALL_TIMEOUT_MS = 10_000;
/** Slack for a store's clock and rounding when checking that an expired entry is gone. */
const EXPIRY_SLACK_MS = 250;
/** Timed scenarios that a stalled machine made inconclusive are run again, this many times. */
const TIMED_ATTEMPTS = 3;

/**
 * Resolves when stores from `makeStore` honour the IdempotencyStore contract; rejects with an
 * IdempotencyStoreConformanceError naming the first broken rule otherwise. `makeStore` is
 * called once per rule and must return a fresh, empty store (or a promise of one) that shares
 * nothing with earlier ones: a new table, key prefix or database.
 */
export async function checkIdempotencyStore(
  makeStore: () => IdempotencyStore | Promise<IdempotencyStore>,
  options: CheckIdempotencyStoreOptions = {},
): Promise<void> {
  const concurrency = options.concurrency ?? 16;
  if (!Number.isInteger(concurrency) || concurrency < 2) {
    throw new RangeError(
      `servicepay: checkIdempotencyStore concurrency must be an integer of at least 2, got ${String(concurrency)}.`,
    );
  }
  const checks: ((store: Checked) => Promise<void>)[] = [
    (store) => answersAndTokens(store),
    (store) => atomicClaims(store, concurrency),
    (store) => ownership(store),
    (store) => isolation(store),
    (store) => timing(store, concurrency),
    (store) => claimLife(store, concurrency),
    (store) => outcomes(store),
  ];
  // Each rule on its own fresh store, all at once: one failure does not hide behind another's
  // leftovers, and the waits of the timed checks overlap.
  const results = await Promise.allSettled(
    checks.map(async (check) => check(new Checked(await makeStore()))),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}

/** The store behind calls that check what each answer is made of. */
class Checked {
  readonly #store: IdempotencyStore;
  /** The store as given, for the optional outcome methods. */
  get raw(): IdempotencyStore {
    return this.#store;
  }
  constructor(store: IdempotencyStore) {
    for (const method of ['claim', 'renew', 'complete', 'release'] as const) {
      if (typeof (store as Partial<IdempotencyStore> | null)?.[method] !== 'function') {
        throw new IdempotencyStoreConformanceError(
          'store-shape',
          `makeStore() gave ${store === null ? 'null' : typeof store} without a ${method} method.`,
        );
      }
    }
    this.#store = store;
  }

  async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
    const claim: unknown = await settled(
      `claim(${describeValue(key)})`,
      this.#store.claim(key, ttlMs),
    );
    const answer = claimAnswer(claim);
    if (answer !== null) return answer;
    throw new IdempotencyStoreConformanceError(
      'claim-answer',
      `claim(${describeValue(key)}) answered ${describeValue(claim)}; expected { state: 'claimed', token: '<non-empty string>' }, { state: 'in-progress' } or { state: 'completed' }.`,
    );
  }

  renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    return answer(`renew(${describeValue(key)})`, this.#store.renew(key, token, ttlMs));
  }
  complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    return answer(`complete(${describeValue(key)})`, this.#store.complete(key, token, ttlMs));
  }
  release(key: string, token: string): Promise<boolean> {
    return answer(`release(${describeValue(key)})`, this.#store.release(key, token));
  }

  /** Claims `key`, which must be free, and returns the token. */
  async take(key: string, ttlMs: number, rule: IdempotencyStoreRule): Promise<string> {
    const claim = await this.claim(key, ttlMs);
    if (claim.state !== 'claimed') {
      throw new IdempotencyStoreConformanceError(
        rule,
        `claim(${describeValue(key)}) of a free key answered '${claim.state}'; expected 'claimed'.`,
      );
    }
    return claim.token;
  }

  /** Fails `rule` unless claiming `key` now answers `state` (taking it when it is free). */
  async expect(
    key: string,
    state: IdempotencyClaim['state'],
    rule: IdempotencyStoreRule,
    why: string,
    ttlMs = 60_000,
  ): Promise<IdempotencyClaim> {
    const claim = await this.claim(key, ttlMs);
    if (claim.state !== state) {
      throw new IdempotencyStoreConformanceError(
        rule,
        `${why}: claim(${describeValue(key)}) answered '${claim.state}', expected '${state}'.`,
      );
    }
    return claim;
  }
}

async function answer(call: string, value: boolean | Promise<boolean>): Promise<boolean> {
  const result: unknown = await settled(call, value);
  if (typeof result !== 'boolean') {
    throw new IdempotencyStoreConformanceError(
      'settles',
      `${call} answered ${describeValue(result)}; expected true (the token owned the key) or false.`,
    );
  }
  return result;
}

function settled<T>(call: string, value: T | Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new IdempotencyStoreConformanceError(
            'settles',
            `${call} did not settle within ${CALL_TIMEOUT_MS} ms.`,
          ),
        ),
      CALL_TIMEOUT_MS,
    );
  });
  return Promise.race([Promise.resolve(value), timeout]).finally(() => clearTimeout(timer));
}

function expectAnswer(
  actual: boolean,
  expected: boolean,
  rule: IdempotencyStoreRule,
  what: string,
): void {
  if (actual !== expected) {
    throw new IdempotencyStoreConformanceError(
      rule,
      `${what} answered ${actual}, expected ${expected}.`,
    );
  }
}

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Claim answers, and tokens unique across keys and re-claims. */
async function answersAndTokens(store: Checked): Promise<void> {
  const tokens = new Set<string>();
  const record = (token: string, how: string): void => {
    if (tokens.has(token)) {
      throw new IdempotencyStoreConformanceError(
        'unique-token',
        `${how} got token ${describeValue(token)}, which an earlier claim already had.`,
      );
    }
    tokens.add(token);
  };
  for (let i = 0; i < 5; i++)
    record(await store.take(`tokens:${i}`, 60_000, 'claim-answer'), `claim of key ${i}`);
  // Re-claims of one key after each release must not reuse a token either.
  for (let i = 0; i < 5; i++) {
    const token = await store.take('tokens:again', 60_000, 'owner-acts');
    record(token, `re-claim ${i + 1} of one key`);
    expectAnswer(
      await store.release('tokens:again', token),
      true,
      'owner-acts',
      'the owner’s release',
    );
  }
}

/** Fails `rule` unless renew, complete and release of `key` with `token` all act not. */
async function actsNot(
  store: Checked,
  key: string,
  token: string,
  rule: IdempotencyStoreRule,
  whose: string,
): Promise<void> {
  expectAnswer(await store.renew(key, token, 60_000), false, rule, `renew with ${whose}`);
  expectAnswer(await store.complete(key, token, 60_000), false, rule, `complete with ${whose}`);
  expectAnswer(await store.release(key, token), false, rule, `release with ${whose}`);
}

/** Concurrent claims of fresh keys: exactly one wins each. */
async function atomicClaims(store: Checked, concurrency: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const key = `atomic:${round}`;
    const claims = await Promise.all(
      Array.from({ length: concurrency }, () => store.claim(key, 60_000)),
    );
    checkOneWinner(claims, key, concurrency);
  }
}

function checkOneWinner(claims: IdempotencyClaim[], key: string, concurrency: number): void {
  const won = claims.filter((claim) => claim.state === 'claimed');
  if (won.length !== 1) {
    throw new IdempotencyStoreConformanceError(
      'atomic-claim',
      `of ${concurrency} concurrent claims of ${describeValue(key)}, ${won.length} answered 'claimed'; exactly one must.`,
    );
  }
  const other = claims.find((claim) => claim.state !== 'claimed' && claim.state !== 'in-progress');
  if (other !== undefined) {
    throw new IdempotencyStoreConformanceError(
      'atomic-claim',
      `a concurrent claim of ${describeValue(key)} answered '${other.state}' while it was in progress.`,
    );
  }
}

/** Only the owner's token acts; a completed marker is never released or re-completed. */
async function ownership(store: Checked): Promise<void> {
  const key = 'owned';
  const token = await store.take(key, 60_000, 'owner-acts');
  const stranger = await store.take('owned:other', 60_000, 'owner-acts');
  for (const [what, call] of [
    ['release with another claim’s token', () => store.release(key, stranger)],
    ['complete with another claim’s token', () => store.complete(key, stranger, 60_000)],
    ['renew with another claim’s token', () => store.renew(key, stranger, 60_000)],
    ['release with a made-up token', () => store.release(key, `${token}x`)],
    ['complete with a made-up token', () => store.complete(key, `${token}x`, 60_000)],
  ] as const) {
    expectAnswer(await call(), false, 'owner-only', what);
    await store.expect(key, 'in-progress', 'owner-only', `after ${what}`);
  }
  // Concurrent strangers and the owner: only the owner's completion lands.
  const raced = await Promise.all([
    store.release(key, stranger),
    store.complete(key, token, 60_000),
    store.release(key, `${token}x`),
  ]);
  expectAnswer(raced[1], true, 'owner-acts', 'the owner’s complete');
  expectAnswer(raced[0] || raced[2], false, 'owner-only', 'a stranger’s concurrent release');
  await store.expect(key, 'completed', 'owner-acts', 'after the owner’s complete');
  await actsNot(store, key, token, 'completion-lifetime', 'the token of a completed key');
  await store.expect(
    key,
    'completed',
    'completion-lifetime',
    'after release, renew and complete of a completed key',
  );

  const released = 'owned:released';
  const first = await store.take(released, 60_000, 'owner-acts');
  expectAnswer(await store.renew(released, first, 60_000), true, 'owner-acts', 'the owner’s renew');
  expectAnswer(await store.release(released, first), true, 'owner-acts', 'the owner’s release');
  expectAnswer(
    await store.release(released, first),
    false,
    'owner-only',
    'a second release with the same token',
  );
  const second = await store.take(released, 60_000, 'owner-acts');
  await actsNot(store, released, first, 'owner-only', 'the released token');
  await store.expect(released, 'in-progress', 'owner-only', 'after the released token acted');
  expectAnswer(
    await store.complete(released, second, 60_000),
    true,
    'owner-acts',
    'the new owner’s complete',
  );
}

/** Keys are opaque strings: nothing unclaimed answers true, and near-identical keys differ. */
async function isolation(store: Checked): Promise<void> {
  for (const [what, call] of [
    ['renew of a key never claimed', () => store.renew('never', 'no-token', 60_000)],
    ['complete of a key never claimed', () => store.complete('never', 'no-token', 60_000)],
    ['release of a key never claimed', () => store.release('never', 'no-token')],
  ] as const) {
    expectAnswer(await call(), false, 'key-isolation', what);
  }
  await store.expect('never', 'claimed', 'key-isolation', 'after calls on a key never claimed');
  // Keys a naive store might confuse: case, prefixes, wildcards and quoting of Redis and SQL.
  const keys = [
    'pay_1:COMPLETED',
    'pay_1:completed',
    'pay_1:COMPLETED ',
    'pay_1',
    'pay_1:*',
    'pay_%:COMPLETED',
    "pay_1':COMPLETED",
    'pay_1\\:COMPLETED',
    'pay_1:COMPLETÉ',
    `pay_${'x'.repeat(300)}`,
  ];
  const token = await store.take(keys[0] as string, 60_000, 'key-isolation');
  for (const key of keys.slice(1)) {
    await store.expect(
      key,
      'claimed',
      'key-isolation',
      `with only ${describeValue(keys[0])} claimed`,
    );
  }
  expectAnswer(
    await store.complete(keys[0] as string, token, 60_000),
    true,
    'owner-acts',
    'the owner’s complete',
  );
  for (const key of keys.slice(1)) {
    await store.expect(
      key,
      'in-progress',
      'key-isolation',
      `after ${describeValue(keys[0])} was completed`,
    );
  }
}

/**
 * Expiry, renewal and completion lifetimes, with real time. Each scenario notes when it acted;
 * one that a stalled machine ran too late to prove anything is run again on fresh keys.
 */
/**
 * A burst of claims of distinct keys at once (the store queues them: a pool, a single
 * connection, a lock): every claim answered `claimed` must still be held ttlMs after the burst
 * was sent, less the slack, however late its own answer came.
 */
async function claimLife(store: Checked, concurrency: number): Promise<void> {
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

/** The outcome rules, when the store has the outcome methods; nothing otherwise. */
async function outcomes(checked: Checked): Promise<void> {
  const store = checked.raw;
  if (!recordsOutcomes(store)) return;
  const id = (): string => globalThis.crypto.randomUUID();
  const outcome = (paymentId: string, status: PaymentOutcome['status']): PaymentOutcome => ({
    paymentId,
    merchantPaymentId: id(),
    status,
    recordedAt: new Date().toISOString(),
  });
  const same = (a: PaymentOutcome | null, b: PaymentOutcome): boolean =>
    a !== null &&
    a.paymentId === b.paymentId &&
    a.merchantPaymentId === b.merchantPaymentId &&
    a.status === b.status;
  const read = (paymentId: string) =>
    settled(
      `readOutcome(${describeValue(paymentId)})`,
      Promise.resolve(store.readOutcome(paymentId)),
    );
  const record = (value: PaymentOutcome, ttlMs: number) =>
    settled(
      `recordOutcome(${describeValue(value.paymentId)})`,
      Promise.resolve(store.recordOutcome(value, ttlMs)),
    );

  if ((await read(id())) !== null) {
    throw new IdempotencyStoreConformanceError(
      'outcome-record',
      'readOutcome of a payment never recorded answered an outcome; expected null.',
    );
  }
  const first = outcome(id(), 'NEEDS_REVIEW'); // any final status, not only the notification's
  const stood = await record(first, 60_000);
  const later = await record({ ...outcome(first.paymentId, 'COMPLETED') }, 60_000);
  const readBack = await read(first.paymentId);
  if (!same(stood, first) || !same(later, first) || !same(readBack, first)) {
    throw new IdempotencyStoreConformanceError(
      'outcome-record',
      `the first outcome recorded for a payment must stand: recorded ${describeValue(first)}, then another status; answers were ${describeValue(stood)}, ${describeValue(later)}, read ${describeValue(readBack)}.`,
    );
  }

  // Subscriptions: one that waits, one that left before the record, one for another payment.
  const heard: PaymentOutcome[] = [];
  const strayed: PaymentOutcome[] = [];
  const target = outcome(id(), 'COMPLETED');
  const subscribe = (paymentId: string, listener: (o: PaymentOutcome) => void) =>
    settled(
      `subscribeOutcome(${describeValue(paymentId)})`,
      Promise.resolve(store.subscribeOutcome(paymentId, listener)),
    );
  const stop = await subscribe(target.paymentId, (o) => heard.push(o));
  const left = await subscribe(target.paymentId, (o) => strayed.push(o));
  const other = await subscribe(id(), (o) => strayed.push(o));
  left();
  await record(target, 60_000);
  for (let i = 0; i < 100 && heard.length === 0; i++) await sleep(50);
  await sleep(200); // a second call, if any, arrives meanwhile
  stop();
  other();
  if (heard.length !== 1 || !same(heard[0] ?? null, target) || strayed.length > 0) {
    throw new IdempotencyStoreConformanceError(
      'outcome-subscribe',
      `a subscriber of ${describeValue(target.paymentId)} heard ${describeValue(heard)} (expected exactly that outcome, once), and subscribers that had left or wait for another payment heard ${describeValue(strayed)} (expected nothing).`,
    );
  }

  // Expiry: an outcome kept for 1 s is gone after it.
  const brief = outcome(id(), 'COMPLETED');
  await record(brief, 1000);
  const written = Date.now();
  await sleep(written + 1000 + EXPIRY_SLACK_MS - Date.now());
  if ((await read(brief.paymentId)) !== null) {
    throw new IdempotencyStoreConformanceError(
      'outcome-record',
      `an outcome recorded for 1000 ms was still read ${Date.now() - written} ms later.`,
    );
  }
  await (store as OutcomeStore).close?.();
}

async function timing(store: Checked, concurrency: number): Promise<void> {
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
  const briefly = `${prefix}briefly`; // completed for 1 s
  const kept = `${prefix}kept`; // completed for 60 s

  const start = Date.now();
  const expiringToken = await store.take(expiring, 1000, 'claim-expiry');
  await store.take(longer, 2500, 'claim-expiry');
  const renewedToken = await store.take(renewed, 1000, 'renewal');
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
  const renewedOk = await store.renew(renewed, renewedToken, 1500);
  const renewedBy = Date.now();
  if (Date.now() - start >= 950) return false;
  expectAnswer(renewedOk, true, 'renewal', 'renew of an unexpired claim by its owner');

  // Every 1 s entry was written before `ready`, so it has expired by ready + 1 s.
  await sleep(ready + 1000 + EXPIRY_SLACK_MS - Date.now());
  const [expired, stillLonger, stillRenewed] = await Promise.all([
    Promise.all(Array.from({ length: concurrency }, () => store.claim(expiring, 60_000))),
    store.claim(longer, 60_000),
    store.claim(renewed, 60_000),
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
  if (stillRenewed.state !== 'in-progress') {
    throw new IdempotencyStoreConformanceError(
      'renewal',
      `a claim renewed for 1500 ms answered '${stillRenewed.state}' ${checked - renewing} ms after the renewal.`,
    );
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
  await store.expect(
    renewed,
    'claimed',
    'renewal',
    `a claim renewed for 1500 ms, ${Date.now() - renewedBy} ms after the renewal`,
  );
  return true;
}
