/**
 * Keys given in the options rather than fetched: one, several while a key rotates (the current
 * and the next: a notification verified by any of them is accepted), or none yet.
 */
import { WebhookConfigError } from '../errors';
import type { KeySource } from './key-fetch';
import { normalisePublicKey } from './public-key';
import type { KeyInput } from './public-key';

/**
 * The most different keys `publicKey` may list: the key in use, the next, and one more while a
 * rotation ends. Every forged delivery is verified against each, so the list is bounded.
 */
export const MAX_PUBLIC_KEYS = 3;

/**
 * Keys given in the options, tried in order; never refetched. A key listed twice (the same
 * text, however its lines are broken, or the same key object) is kept once, where it first
 * appears: lists built from environment variables repeat keys easily.
 *
 * @throws WebhookConfigError when more than MAX_PUBLIC_KEYS different keys are listed.
 */
export function fixedKeySource<K>(listed: readonly KeyInput<K>[]): KeySource<K> {
  const keys: KeyInput<K>[] = [];
  const seen = new Set<unknown>();
  for (const key of listed) {
    const identity = typeof key === 'string' ? normalisePublicKey(key).base64 : key;
    if (seen.has(identity)) continue;
    seen.add(identity);
    keys.push(key);
  }
  if (keys.length > MAX_PUBLIC_KEYS) {
    throw new WebhookConfigError(
      `publicKey lists ${keys.length} different keys; at most ${MAX_PUBLIC_KEYS} are accepted (the key in use, the next, and one more while a rotation ends), since every forged delivery is verified against each. Remove the keys the service no longer signs with.`,
      'publicKey',
    );
  }
  const first = keys[0] as KeyInput<K>;
  const current = Promise.resolve(first);
  return {
    peek: () => first,
    current: () => current,
    // By position: the receiver tries each key once, in the order given.
    refresh: (_stale, tried) => Promise.resolve(keys[tried] ?? null),
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
