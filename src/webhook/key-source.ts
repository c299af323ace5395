/**
 * Where a receiver gets the key it verifies with: a fixed key, or the public-key endpoint with
 * one refetch on a signature failure (key rotation), rate-limited so forged signatures cannot
 * turn the receiver into a load generator against the endpoint.
 */
import { fetchPublicKey } from './fetch-public-key';

/** A key as the verifiers accept it: text/PEM, or the runtime's key object. */
export type KeyInput<K> = string | K;

export interface KeySource<K> {
  /** The key already at hand, if any: lets the common path skip a promise per delivery. */
  peek(): KeyInput<K> | undefined;
  /** The key to verify with now. Rejects when the endpoint cannot be fetched. */
  current(): Promise<KeyInput<K>>;
  /**
   * After `stale` failed to verify: a newer key to retry with, or null when there is none to
   * try (a fixed key, or a refetch too soon after the last one).
   */
  refresh(stale: KeyInput<K>): Promise<KeyInput<K> | null>;
}

/** A key given in the options: nothing to refresh. */
export function fixedKeySource<K>(key: KeyInput<K>): KeySource<K> {
  const current = Promise.resolve(key);
  return {
    peek: () => key,
    current: () => current,
    refresh: () => Promise.resolve(null),
  };
}

export interface UrlKeySourceOptions {
  fetch: typeof fetch | undefined;
  /** Least time between two forced refetches. */
  refreshIntervalMs: number;
  now?: () => number;
}

/** A key fetched from `url`, refetched at most once per refreshIntervalMs after a failure. */
export function urlKeySource<K>(url: string, options: UrlKeySourceOptions): KeySource<K> {
  const now = options.now ?? Date.now;
  const fetchOptions = options.fetch === undefined ? {} : { fetch: options.fetch };
  let latest: string | undefined;
  let lastRefreshAt = -Infinity;
  let refreshing: Promise<string> | null = null;
  const remember = (pem: string): string => (latest = pem);

  return {
    peek: () => latest,
    current: () => fetchPublicKey({ url }, fetchOptions).then(remember),
    async refresh(stale) {
      // Another receiver sharing the address may have refetched already.
      const cached = remember(await fetchPublicKey({ url }, fetchOptions));
      if (cached !== stale) return cached;
      // From here to the assignment nothing awaits, so of several deliveries failing on the
      // old key at once exactly one starts the refetch and the others wait for its answer.
      if (refreshing === null) {
        if (now() - lastRefreshAt < options.refreshIntervalMs) return null;
        lastRefreshAt = now();
        refreshing = fetchPublicKey({ url }, { ...fetchOptions, forceRefresh: true }).finally(
          () => {
            refreshing = null;
          },
        );
      }
      const fresh = remember(await refreshing);
      return fresh === stale ? null : fresh;
    },
  };
}
