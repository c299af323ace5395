/**
 * The kit's view of a store: every call bounded in time and its answer checked for shape, and
 * the small assertions the rule checks share.
 */
import { describeValue } from '../../core/describe-value';
import type { Maybe } from '../maybe';
import { claimAnswer } from '../stores/idempotency';
import type { IdempotencyClaim, IdempotencyStore } from '../stores/idempotency';
import { IdempotencyStoreConformanceError } from './rules';
import type { IdempotencyStoreRule } from './rules';

/** Longest a single store call may take before the kit gives up on it. */
export const CALL_TIMEOUT_MS = 10_000;
/** Slack for a store's clock and rounding when checking that an expired entry is gone. */
export const EXPIRY_SLACK_MS = 250;
/** Timed scenarios that a stalled machine made inconclusive are run again, this many times. */
export const TIMED_ATTEMPTS = 3;

/** The store behind calls that check what each answer is made of. */
export class Checked {
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
  /** Whether the store has the optional renewMany, which the kit then checks. */
  get renewsMany(): boolean {
    return typeof this.#store.renewMany === 'function';
  }
  async renewMany(claims: { key: string; token: string }[], ttlMs: number): Promise<boolean[]> {
    const call = `renewMany(${describeValue(claims.map(({ key }) => key))})`;
    const result: unknown = await settled(call, this.#store.renewMany!(claims, ttlMs));
    if (
      !Array.isArray(result) ||
      result.length !== claims.length ||
      !result.every((owned) => typeof owned === 'boolean')
    ) {
      throw new IdempotencyStoreConformanceError(
        'renew-many',
        `${call} answered ${describeValue(result)}; expected an array of ${claims.length} booleans, one per claim in their order.`,
      );
    }
    return result;
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

async function answer(call: string, value: Maybe<boolean>): Promise<boolean> {
  const result: unknown = await settled(call, value);
  if (typeof result !== 'boolean') {
    throw new IdempotencyStoreConformanceError(
      'settles',
      `${call} answered ${describeValue(result)}; expected true (the token owned the key) or false.`,
    );
  }
  return result;
}

export function settled<T>(call: string, value: Maybe<T>): Promise<T> {
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

export function expectAnswer(
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

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** Fails `rule` unless renew, complete and release of `key` with `token` all act not. */
export async function actsNot(
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

export function checkOneWinner(claims: IdempotencyClaim[], key: string, concurrency: number): void {
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
