/**
 * `servicepay/webhook/testing`: the conformance kit for idempotency stores. It checks a store
 * against the IdempotencyStore rules with real time and real concurrency, with no test runner:
 *
 *   await checkIdempotencyStore(() => createMyStore({ prefix: `test-${randomUUID()}:` }));
 *
 * Each rule gets a fresh store from `makeStore` and runs beside the others, so the whole kit
 * takes a few seconds (mostly waiting out claims of 1 to 2.5 s). Methods are always called on
 * the store as given (`store.claim(...)`), so a Proxy that forwards them works.
 *
 * The kit lives in ./kit: the rules (rules.ts), the runner (run.ts), and the checks by concept.
 */
export { checkIdempotencyStore } from './kit/run';
export type { CheckIdempotencyStoreOptions } from './kit/run';
export { IdempotencyStoreConformanceError } from './kit/rules';
export type { IdempotencyStoreRule } from './kit/rules';
