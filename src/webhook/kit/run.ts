/** The kit's runner: every rule on its own fresh store, at once; the first failure reported. */
import type { IdempotencyStore } from '../stores/idempotency';
import { checkOption, integerFrom } from '../option-checks';
import { Checked } from './checked';
import {
  answersAndTokens,
  atomicClaims,
  isolation,
  ownership,
  renewalsTogether,
} from './claim-checks';
import { orders } from './order-checks';
import { outcomes } from './outcome-checks';
import { claimLife, timing } from './timed-checks';

/** Options of checkIdempotencyStore. */
export interface CheckIdempotencyStoreOptions {
  /**
   * Concurrent claims fired at one key in the atomicity checks.
   * @default 16
   */
  concurrency?: number;
}

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
  const concurrency = checkOption(
    'checkIdempotencyStore',
    'concurrency',
    options.concurrency,
    16,
    integerFrom(2),
  );
  const checks: ((store: Checked) => Promise<void>)[] = [
    (store) => answersAndTokens(store),
    (store) => atomicClaims(store, concurrency),
    (store) => ownership(store),
    (store) => isolation(store),
    (store) => renewalsTogether(store),
    (store) => timing(store, concurrency),
    (store) => claimLife(store, concurrency),
    (store) => outcomes(store),
    (store) => orders(store, concurrency),
  ];
  // Each rule on its own fresh store, all at once: one failure does not hide behind another's
  // leftovers, and the waits of the timed checks overlap.
  const results = await Promise.allSettled(
    checks.map(async (check) => check(new Checked(await makeStore()))),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
