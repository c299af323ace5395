/** The untimed claim rules: answers and tokens, atomicity, ownership and key isolation. */
import { describeValue } from '../../core/describe-value';
import { actsNot, checkOneWinner, expectAnswer } from './checked';
import type { Checked } from './checked';
import { IdempotencyStoreConformanceError } from './rules';

/** Claim answers, and tokens unique across keys and re-claims. */
export async function answersAndTokens(store: Checked): Promise<void> {
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

/** Concurrent claims of fresh keys: exactly one wins each. */
export async function atomicClaims(store: Checked, concurrency: number): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const key = `atomic:${round}`;
    const claims = await Promise.all(
      Array.from({ length: concurrency }, () => store.claim(key, 60_000)),
    );
    checkOneWinner(claims, key, concurrency);
  }
}

/** Only the owner's token acts; a completed marker is never released or re-completed. */
export async function ownership(store: Checked): Promise<void> {
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
export async function isolation(store: Checked): Promise<void> {
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
 * renewMany, when the store has it: each claim as renew would, in one call, the answers in the
 * claims' order; nothing it does not own changes (its extension in time: timed-checks.ts).
 */
export async function renewalsTogether(store: Checked): Promise<void> {
  if (!store.renewsMany) return;
  expectAnswers(await store.renewMany([], 60_000), [], 'no claims');
  const [first, second, done, taken] = ['many:1', 'many:2', 'many:done', 'many:taken'];
  const firstToken = await store.take(first, 60_000, 'renew-many');
  const secondToken = await store.take(second, 60_000, 'renew-many');
  const doneToken = await store.take(done, 60_000, 'renew-many');
  expectAnswer(await store.complete(done, doneToken, 60_000), true, 'owner-acts', 'complete');
  await store.take(taken, 60_000, 'renew-many');
  const answers = await store.renewMany(
    [
      { key: second, token: secondToken },
      { key: 'many:never', token: 'no-token' },
      { key: taken, token: firstToken },
      { key: done, token: doneToken },
      { key: first, token: firstToken },
    ],
    60_000,
  );
  expectAnswers(
    answers,
    [true, false, false, false, true],
    'the owners’ two claims (second, first), a key never claimed, another claim’s token and a completed key',
  );
  await store.expect(
    'many:never',
    'claimed',
    'renew-many',
    'after renewMany of a key never claimed',
  );
  await store.expect(done, 'completed', 'renew-many', 'after renewMany of a completed key');
  await store.expect(taken, 'in-progress', 'renew-many', 'after renewMany with a stranger’s token');
  expectAnswer(await store.complete(first, firstToken, 60_000), true, 'renew-many', 'complete');
}

function expectAnswers(actual: boolean[], expected: boolean[], what: string): void {
  if (actual.join() !== expected.join()) {
    throw new IdempotencyStoreConformanceError(
      'renew-many',
      `renewMany of ${what} answered ${describeValue(actual)}, expected ${describeValue(expected)}.`,
    );
  }
}
