/**
 * Where the service's public key is served, how it is fetched, and the key source a receiver
 * verifies with. Runtime-neutral: uses the global fetch (or one passed in), no Node built-ins.
 *
 * The key decides which webhooks are genuine, so fetching it is locked down:
 * - only over https, except plain http to a loopback address (127.0.0.0/8, ::1, localhost) or
 *   for the SANDBOX environment, whose key guards no real money;
 * - redirects only within the configured origin, and the answer cut off at 64 KiB: the
 *   bounded read itself is key-download.ts's;
 * - a receiver that failed to fetch the key remembers the failure for keyRefreshIntervalMs, so
 *   forged deliveries cannot make it hammer a failing endpoint.
 */
import { PUBLIC_KEY_PATH, SANDBOX_BASE_URL } from '../../core/service-addresses';
import { WebhookConfigError } from '../errors';
import { download } from './key-download';
import type { KeyInput } from './public-key';

/** The service environments (spec 1). */
export type WebhookEnvironment = 'SANDBOX' | 'LIVE';

/** Where the key is served: an environment (with an optional base address) or a full address. */
export type PublicKeySource =
  | {
      /** The environment whose key to fetch. */
      environment: WebhookEnvironment;
      /**
       * The environment's base address; the key is at `<baseUrl>/.well-known/signature/pem`.
       * Required for LIVE: the specification gives no address for it. Must be https, except
       * for SANDBOX and loopback addresses.
       * @default 'http://127.0.0.1:4010' for SANDBOX (the local sandbox)
       */
      baseUrl?: string;
    }
  | {
      /** The full address of the public-key endpoint: https, or http to a loopback address. */
      url: string;
    };

/** Options of fetchPublicKey. */
export interface FetchPublicKeyOptions {
  /**
   * The fetch implementation.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Ignore the cached key and GET it again, e.g. after a signature failure (key rotation).
   * Concurrent refreshes of one address still share one request.
   * @default false
   */
  forceRefresh?: boolean;
  /**
   * Abort the request after this many milliseconds.
   * @default 10000
   */
  timeoutMs?: number;
}

// The sandbox's address and the key's path are shared with core and the sandbox.
export { PUBLIC_KEY_PATH, SANDBOX_BASE_URL };

// Where the key is served ---------------------------------------------------------------------

/**
 * The endpoint address for a source, throwing WebhookConfigError when there is none or it may
 * not be used (plain http to a host that is not loopback, outside SANDBOX).
 */
export function publicKeyUrl(source: PublicKeySource): string {
  let url: string;
  let option: 'url' | 'baseUrl' = 'baseUrl';
  if ('url' in source) {
    url = source.url;
    option = 'url';
  } else if (source.environment !== 'SANDBOX' && source.environment !== 'LIVE') {
    throw new WebhookConfigError(
      `environment must be "SANDBOX" or "LIVE", got ${JSON.stringify(source.environment)}.`,
      'environment',
    );
  } else if (source.baseUrl !== undefined) {
    url = String(source.baseUrl).replace(/\/+$/, '') + PUBLIC_KEY_PATH;
  } else if (source.environment === 'SANDBOX') {
    url = SANDBOX_BASE_URL + PUBLIC_KEY_PATH;
  } else {
    throw new WebhookConfigError(
      'no public-key address is known for LIVE; pass the LIVE base address given by the service (baseUrl / publicKeyBaseUrl), the full key address (url / publicKeyUrl), or the key itself (publicKey).',
      'baseUrl',
    );
  }
  if (typeof url !== 'string' || !URL.canParse(url)) {
    throw new WebhookConfigError(
      `the public-key address ${JSON.stringify(url)} is not an absolute URL.`,
      option,
    );
  }
  const environment = 'environment' in source ? source.environment : undefined;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return url;
  if (protocol === 'http:' && (environment === 'SANDBOX' || isLoopback(hostname))) return url;
  throw new WebhookConfigError(
    environment === 'LIVE'
      ? `the LIVE public key must be fetched over https, got ${JSON.stringify(url)}; pass the https base address given by the service (baseUrl / publicKeyBaseUrl).`
      : `the public-key address ${JSON.stringify(url)} must be https (plain http only for loopback addresses and the SANDBOX environment): the key decides which webhooks are genuine.`,
    option,
  );
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

// Fetching ------------------------------------------------------------------------------------

interface CacheEntry {
  readonly promise: Promise<string>;
  settled: boolean;
  /** The key at hand (this request's once it succeeded, else the one it refreshes), for receivers to verify with without a promise. */
  pem?: string;
}

/**
 * Fetched keys (full PEM) by address: the only record of a fetched key, which fetchPublicKey
 * and every receiver's key source read. (Parsed keys are cached by text: public-key.ts.)
 */
const fetched = new Map<string, CacheEntry>();

/**
 * Fetches the service's public key and returns it as a full PEM (the endpoint trims the
 * BEGIN/END lines; they are restored). The key is cached per address for the life of the
 * process; concurrent callers share one request; a failed request is not cached here (a
 * receiver's key source remembers failures itself).
 *
 * @throws WebhookConfigError when no usable address is known (LIVE without a base address, or
 *   plain http to a host that is not loopback outside SANDBOX).
 * @throws WebhookKeyFetchError when the request fails, answers a non-2xx status, or redirects
 *   to another origin.
 * @throws WebhookKeyError when the answer is not a public key or is larger than 64 KiB.
 */
export function fetchPublicKey(
  source: PublicKeySource,
  options: FetchPublicKeyOptions = {},
): Promise<string> {
  let url: string;
  try {
    url = publicKeyUrl(source);
  } catch (error) {
    return Promise.reject(error);
  }
  const previous = fetched.get(url);
  // An in-flight request is shared even by a forced refresh: a second request to the same
  // endpoint at the same moment would not bring a fresher answer.
  if (previous !== undefined && (!options.forceRefresh || !previous.settled)) {
    return previous.promise;
  }
  const entry: CacheEntry = {
    settled: false,
    // A refresh keeps the key at hand until it brings another.
    ...(previous?.pem === undefined ? {} : { pem: previous.pem }),
    promise: download(url, options).then(
      (pem) => {
        entry.settled = true;
        entry.pem = pem;
        return pem;
      },
      (error: unknown) => {
        // A failed refresh keeps the previous key, which is still right unless the key
        // really rotated.
        if (fetched.get(url) === entry) {
          if (previous !== undefined) fetched.set(url, previous);
          else fetched.delete(url);
        }
        throw error;
      },
    ),
  };
  fetched.set(url, entry);
  return entry.promise;
}

/** The key last fetched from `url`; undefined before a request succeeded. */
function settledKey(url: string): string | undefined {
  return fetched.get(url)?.pem;
}

export interface KeySource<K> {
  /** The key already at hand, if any: lets the common path skip a promise per delivery. */
  peek(): KeyInput<K> | undefined;
  /** The key to verify with now. Rejects when the endpoint cannot be fetched. */
  current(): Promise<KeyInput<K>>;
  /**
   * After `stale`, the `tried`th key tried (1 for the first), failed to verify: another key to
   * retry with, or null when there is none to try (past the last fixed key, or a refetch too
   * soon after the last one or after a failure). Fixed keys are walked by position, never by
   * looking `stale` up.
   */
  refresh(stale: KeyInput<K>, tried: number): Promise<KeyInput<K> | null>;
  /** How many keys refresh may offer in a row: one refetch, or the rest of a fixed list. */
  readonly alternates: number;
  /** The keys tried, for the signature error when every one failed (fixed lists). */
  readonly tried?: string;
}

export interface UrlKeySourceOptions {
  fetch: typeof fetch | undefined;
  /** Least time between two forced refetches, and how long a failed fetch is remembered. */
  refreshIntervalMs: number;
  now?: () => number;
}

/**
 * A key fetched from `url`, refetched at most once per refreshIntervalMs after a signature
 * failure. A failed fetch (network, status, not a key) is remembered for the same interval:
 * until it passes, deliveries get the same error without a request, so forged deliveries
 * cannot turn the receiver into a load generator against a failing endpoint.
 */
export function urlKeySource<K>(url: string, options: UrlKeySourceOptions): KeySource<K> {
  const now = options.now ?? Date.now;
  const fetchOptions = options.fetch === undefined ? {} : { fetch: options.fetch };
  let lastRefreshAt = -Infinity;
  let refreshing: Promise<string> | null = null;
  let failure: { error: unknown; until: number } | null = null;

  const failing = (): boolean => failure !== null && now() < failure.until;
  const get = (forceRefresh: boolean): Promise<string> => {
    if (failing()) return Promise.reject(failure?.error);
    return fetchPublicKey(
      { url },
      forceRefresh ? { ...fetchOptions, forceRefresh } : fetchOptions,
    ).then(
      (pem) => {
        failure = null;
        return pem;
      },
      (error: unknown) => {
        failure = { error, until: now() + options.refreshIntervalMs };
        throw error;
      },
    );
  };

  return {
    alternates: 1,
    // The key fetched last from the address: a refresh in flight keeps the previous one at
    // hand until it succeeds (and fetchPublicKey restores it on failure).
    peek: () => settledKey(url),
    current: () => get(false),
    async refresh(stale) {
      // The endpoint failed moments ago: no fresher key to try until the interval passes.
      if (failing()) return null;
      // Another receiver sharing the address may have refetched already.
      const cached = await get(false);
      if (cached !== stale) return cached;
      // From here to the assignment nothing awaits, so of several deliveries failing on the
      // old key at once exactly one starts the refetch and the others wait for its answer.
      if (refreshing === null) {
        if (now() - lastRefreshAt < options.refreshIntervalMs) return null;
        lastRefreshAt = now();
        refreshing = get(true).finally(() => {
          refreshing = null;
        });
      }
      const fresh = await refreshing;
      return fresh === stale ? null : fresh;
    },
  };
}
