/**
 * Where the service's public key is served, how it is fetched, and the key source a receiver
 * verifies with. Runtime-neutral: uses the global fetch (or one passed in), no Node built-ins.
 *
 * The key decides which webhooks are genuine, so fetching it is locked down:
 * - only over https, except plain http to a loopback address (127.0.0.0/8, ::1, localhost) or
 *   for the SANDBOX environment, whose key guards no real money;
 * - redirects are followed by hand (`redirect: 'manual'`), only within the configured origin
 *   (scheme, host and port) and at most MAX_REDIRECTS times; any redirect to another origin,
 *   an https -> http downgrade included, is refused;
 * - the answer is streamed and the request aborted as soon as it passes 64 KiB;
 * - a receiver that failed to fetch the key remembers the failure for keyRefreshIntervalMs, so
 *   forged deliveries cannot make it hammer a failing endpoint.
 */
import { PUBLIC_KEY_PATH, SANDBOX_BASE_URL } from '../core/service-addresses';
import { readAtMost } from './encoding';
import { WebhookConfigError, WebhookKeyError, WebhookKeyFetchError } from './errors';
import { normalisePublicKey } from './public-key';
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

/** A key is a few hundred bytes; the request is aborted once an answer passes this. */
const MAX_KEY_RESPONSE_BYTES = 64 * 1024;

/** Same-origin redirects followed before giving up (e.g. a trailing slash, a versioned path). */
const MAX_REDIRECTS = 3;

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
      `servicepay: environment must be "SANDBOX" or "LIVE", got ${JSON.stringify(source.environment)}.`,
      'environment',
    );
  } else if (source.baseUrl !== undefined) {
    url = String(source.baseUrl).replace(/\/+$/, '') + PUBLIC_KEY_PATH;
  } else if (source.environment === 'SANDBOX') {
    url = SANDBOX_BASE_URL + PUBLIC_KEY_PATH;
  } else {
    throw new WebhookConfigError(
      'servicepay: no public-key address is known for LIVE; pass the LIVE base address given by the service (baseUrl / publicKeyBaseUrl), the full key address (url / publicKeyUrl), or the key itself (publicKey).',
      'baseUrl',
    );
  }
  if (typeof url !== 'string' || !URL.canParse(url)) {
    throw new WebhookConfigError(
      `servicepay: the public-key address ${JSON.stringify(url)} is not an absolute URL.`,
      option,
    );
  }
  const environment = 'environment' in source ? source.environment : undefined;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return url;
  if (protocol === 'http:' && (environment === 'SANDBOX' || isLoopback(hostname))) return url;
  throw new WebhookConfigError(
    environment === 'LIVE'
      ? `servicepay: the LIVE public key must be fetched over https, got ${JSON.stringify(url)}; pass the https base address given by the service (baseUrl / publicKeyBaseUrl).`
      : `servicepay: the public-key address ${JSON.stringify(url)} must be https (plain http only for loopback addresses and the SANDBOX environment): the key decides which webhooks are genuine.`,
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

async function download(url: string, options: FetchPublicKeyOptions): Promise<string> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new WebhookConfigError(
      'servicepay: no fetch implementation is available; pass one as the fetch option.',
      'fetch',
    );
  }
  // One controller for the whole exchange, redirects and body included: the timeout covers it
  // all, and passing the size limit aborts the request (closing the connection).
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 10_000);
  const origin = new URL(url).origin;
  try {
    let address = url;
    for (let redirects = 0; ; redirects++) {
      const response = await request(fetchImpl, address, controller.signal, url);
      // A fetch that follows redirects itself despite `redirect: 'manual'` still says where it
      // ended up.
      if (response.redirected && response.url !== '' && new URL(response.url).origin !== origin) {
        throw crossOrigin(url, response.url);
      }
      const next = redirectTarget(response, address, url);
      if (next === null) {
        if (!response.ok) {
          throw new WebhookKeyFetchError(
            `servicepay: the public-key endpoint ${url} answered HTTP ${response.status}; check the address (it should end in ${PUBLIC_KEY_PATH}).`,
            url,
            response.status,
          );
        }
        return normaliseAnswer(url, await readLimited(response, url, controller));
      }
      void response.body?.cancel().catch(() => {});
      if (new URL(next).origin !== origin) throw crossOrigin(url, next);
      if (redirects === MAX_REDIRECTS) {
        throw new WebhookKeyFetchError(
          `servicepay: the public-key endpoint ${url} redirected more than ${MAX_REDIRECTS} times.`,
          url,
          response.status,
        );
      }
      address = next;
    }
  } catch (error) {
    controller.abort();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function request(
  fetchImpl: typeof fetch,
  address: string,
  signal: AbortSignal,
  url: string,
): Promise<Response> {
  try {
    return await fetchImpl(address, {
      method: 'GET',
      headers: { accept: 'text/plain, application/x-pem-file, */*' },
      redirect: 'manual',
      signal,
    });
  } catch (cause) {
    throw new WebhookKeyFetchError(
      `servicepay: the public key could not be fetched from ${url}; check the address and that the service (or the local sandbox) is reachable.`,
      url,
      undefined,
      { cause },
    );
  }
}

/** The absolute address a redirect points to, or null when the response is not a redirect. */
function redirectTarget(response: Response, address: string, url: string): string | null {
  // A browser-like fetch hides a manual redirect's target (an "opaqueredirect", status 0).
  if (response.type === 'opaqueredirect') {
    throw new WebhookKeyFetchError(
      `servicepay: the public-key endpoint ${url} redirected to an address this fetch does not reveal; use the final address as publicKeyUrl.`,
      url,
    );
  }
  if (![301, 302, 303, 307, 308].includes(response.status)) return null;
  const location = response.headers.get('location');
  if (location === null || !URL.canParse(location, address)) {
    throw new WebhookKeyFetchError(
      `servicepay: the public-key endpoint ${url} answered HTTP ${response.status} without a usable Location.`,
      url,
      response.status,
    );
  }
  return new URL(location, address).href;
}

function crossOrigin(url: string, target: string): WebhookKeyFetchError {
  return new WebhookKeyFetchError(
    `servicepay: the public-key endpoint ${url} redirected to ${new URL(target).origin}, another origin; the key is only taken from the configured origin. Configure the address that serves the key itself.`,
    url,
  );
}

/** The body as text, aborting the request as soon as it passes MAX_KEY_RESPONSE_BYTES. */
async function readLimited(
  response: Response,
  url: string,
  controller: AbortController,
): Promise<string> {
  const tooLarge = (): WebhookKeyError => {
    controller.abort();
    return new WebhookKeyError(
      `servicepay: ${url} answered more than ${MAX_KEY_RESPONSE_BYTES} bytes, which is not a public key; the request was aborted.`,
    );
  };
  if (Number(response.headers.get('content-length')) > MAX_KEY_RESPONSE_BYTES) throw tooLarge();
  if (response.body === null) return '';
  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(response.body, MAX_KEY_RESPONSE_BYTES);
  } catch (cause) {
    throw new WebhookKeyFetchError(
      `servicepay: the public key from ${url} could not be read.`,
      url,
      response.status,
      { cause },
    );
  }
  if (bytes === null) throw tooLarge();
  return new TextDecoder().decode(bytes);
}

function normaliseAnswer(url: string, text: string): string {
  try {
    return normalisePublicKey(text).pem;
  } catch (cause) {
    throw new WebhookKeyError(
      `servicepay: ${url} did not answer a public key (${(cause as Error).message.replace(/^servicepay: /, '')})`,
      { cause },
    );
  }
}

export interface KeySource<K> {
  /** The key already at hand, if any: lets the common path skip a promise per delivery. */
  peek(): KeyInput<K> | undefined;
  /** The key to verify with now. Rejects when the endpoint cannot be fetched. */
  current(): Promise<KeyInput<K>>;
  /**
   * After `stale` failed to verify: another key to retry with, or null when there is none to
   * try (the last fixed key, or a refetch too soon after the last one or after a failure).
   */
  refresh(stale: KeyInput<K>): Promise<KeyInput<K> | null>;
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
