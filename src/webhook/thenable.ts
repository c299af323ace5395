/**
 * Stores and hooks may answer synchronously or with a promise. Awaiting only real promises
 * keeps the common synchronous path (memory store, node:crypto, fixed key) free of a microtask
 * hop per step, which the receiver's load benchmark measures.
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
