/**
 * Keys given in the options rather than fetched: one, several while a key rotates (the current
 * and the next: a notification verified by any of them is accepted), or none yet.
 */
import type { KeySource } from './key-fetch';
import type { KeyInput } from './public-key';

/** Keys given in the options, tried in order; never refetched. */
export function fixedKeySource<K>(keys: readonly KeyInput<K>[]): KeySource<K> {
  const first = keys[0] as KeyInput<K>;
  const current = Promise.resolve(first);
  return {
    peek: () => first,
    current: () => current,
    // The key after `stale` in the list: the receiver tries each once, in order.
    refresh: (stale) => Promise.resolve(keys[keys.indexOf(stale) + 1] ?? null),
    alternates: keys.length - 1,
    ...(keys.length > 1 ? { tried: `each of the ${keys.length} keys of publicKey` } : {}),
  };
}

/**
 * No key configured (the environment variable is not set, e.g. during `next build`): every
 * delivery that needs the key fails with `error`, answered 500 and reported to onError.
 */
export function missingKeySource<K>(error: Error): KeySource<K> {
  return {
    peek: () => undefined,
    current: () => Promise.reject(error),
    refresh: () => Promise.resolve(null),
    alternates: 0,
  };
}
