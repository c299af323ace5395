/**
 * Values at hand now or later: the one home of the receive path's crossings between
 * synchronous and asynchronous code. Stores, keys and the merchant's hooks may answer
 * synchronously or with a promise. A value at hand is used at once, so the common synchronous
 * path (the memory store, node:crypto, a fixed key) pays no promise and no microtask hop per
 * step, which the receiver's benchmark measures (receiver >= 0.90 of bare verify-and-parse,
 * docs/benchmarks.md). Every crossing goes through these three, never `instanceof Promise` or
 * `'then' in`: a store's answer may be any thenable.
 *
 * Public signatures (IdempotencyStore, the receiver's hooks) spell `T | Promise<T>` out, so that
 * what a merchant reads in the types is plain TypeScript; inside, it is `Maybe<T>`.
 */

/** A value now, or a promise of it. */
export type Maybe<T> = T | PromiseLike<T>;

/** Whether `value` is a promise (anything with a `then` method) rather than the value itself. */
export function isThenable<T>(value: Maybe<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * `next` of the value: at once when it is at hand, once its promise fulfils otherwise (a
 * rejection passes through untouched). Not named `then`: a module exporting `then` is itself a
 * thenable to `await import(...)`.
 */
export function whenReady<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return isThenable(value) ? value.then(next) : next(value);
}

/**
 * Calls `after` once `value` settles (now, or when its promise does), with its failure when it
 * rejected; gives `value` back unchanged, for a caller that only watches (a timer, a span).
 */
export function whenSettled<T>(value: T, after: (failure: unknown, failed: boolean) => void): T {
  if (!isThenable(value)) {
    after(undefined, false);
    return value;
  }
  value.then(
    () => after(undefined, false),
    (error: unknown) => after(error, true),
  );
  return value;
}
