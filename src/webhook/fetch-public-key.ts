/**
 * The service's public key, fetched from its endpoint (spec 4.2) and cached per address.
 * Runtime-neutral: uses the global fetch (or one passed in), no Node built-ins.
 */
import { WebhookConfigError, WebhookKeyError, WebhookKeyFetchError } from './errors';
import { normalisePublicKey } from './public-key-text';

/** The service environments (spec 1). */
export type WebhookEnvironment = 'SANDBOX' | 'LIVE';

/** Where the key is served: an environment (with an optional base address) or a full address. */
export type PublicKeySource =
  | {
      /** The environment whose key to fetch. */
      environment: WebhookEnvironment;
      /**
       * The environment's base address; the key is at `<baseUrl>/.well-known/signature/pem`.
       * Required for LIVE: the specification gives no address for it.
       * @default 'http://localhost:4010' for SANDBOX (the local sandbox)
       */
      baseUrl?: string;
    }
  | {
      /** The full address of the public-key endpoint. */
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

/** Base address of the local sandbox, the default for SANDBOX. */
export const SANDBOX_BASE_URL = 'http://localhost:4010';

/** Path of the public-key endpoint under an environment's base address (spec 4.2). */
export const PUBLIC_KEY_PATH = '/.well-known/signature/pem';

/** A key is a few hundred bytes; refuse to buffer an endpoint that answers megabytes. */
const MAX_KEY_RESPONSE_CHARS = 64 * 1024;

interface CacheEntry {
  readonly promise: Promise<string>;
  settled: boolean;
}

const cache = new Map<string, CacheEntry>();

/** The endpoint address for a source, throwing WebhookConfigError when there is none. */
export function publicKeyUrl(source: PublicKeySource): string {
  let url: string;
  if ('url' in source) {
    url = source.url;
  } else if (source.environment !== 'SANDBOX' && source.environment !== 'LIVE') {
    throw new WebhookConfigError(
      `servicepay: environment must be "SANDBOX" or "LIVE", got ${JSON.stringify(source.environment)}.`,
      'environment',
    );
  } else if (source.baseUrl !== undefined) {
    url = source.baseUrl.replace(/\/+$/, '') + PUBLIC_KEY_PATH;
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
      'url',
    );
  }
  return url;
}

/**
 * Fetches the service's public key and returns it as a full PEM (the endpoint trims the
 * BEGIN/END lines; they are restored). The key is cached per address for the life of the
 * process; concurrent callers share one request; a failed request is not cached.
 *
 * @throws WebhookConfigError when no address is known (LIVE without a base address).
 * @throws WebhookKeyFetchError when the request fails or answers a non-2xx status.
 * @throws WebhookKeyError when the answer is not a public key.
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
  const previous = cache.get(url);
  // An in-flight request is shared even by a forced refresh: a second request to the same
  // endpoint at the same moment would not bring a fresher answer.
  if (previous !== undefined && (!options.forceRefresh || !previous.settled)) {
    return previous.promise;
  }
  const entry: CacheEntry = {
    settled: false,
    promise: download(url, options).then(
      (pem) => {
        entry.settled = true;
        return pem;
      },
      (error: unknown) => {
        // Not cached: the next caller tries again. A failed refresh keeps the previous key,
        // which is still right unless the key really rotated.
        if (cache.get(url) === entry) {
          if (previous !== undefined) cache.set(url, previous);
          else cache.delete(url);
        }
        throw error;
      },
    ),
  };
  cache.set(url, entry);
  return entry.promise;
}

async function download(url: string, options: FetchPublicKeyOptions): Promise<string> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new WebhookConfigError(
      'servicepay: no fetch implementation is available; pass one as the fetch option.',
      'fetch',
    );
  }
  let text: string;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'GET',
      headers: { accept: 'text/plain, application/x-pem-file, */*' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (cause) {
    throw new WebhookKeyFetchError(
      `servicepay: the public key could not be fetched from ${url}; check the address and that the service (or the local sandbox) is reachable.`,
      url,
      undefined,
      { cause },
    );
  }
  if (!response.ok) {
    throw new WebhookKeyFetchError(
      `servicepay: the public-key endpoint ${url} answered HTTP ${response.status}; check the address (it should end in ${PUBLIC_KEY_PATH}).`,
      url,
      response.status,
    );
  }
  try {
    text = await response.text();
  } catch (cause) {
    throw new WebhookKeyFetchError(
      `servicepay: the public key from ${url} could not be read.`,
      url,
      response.status,
      { cause },
    );
  }
  if (text.length > MAX_KEY_RESPONSE_CHARS) {
    throw new WebhookKeyError(
      `servicepay: ${url} answered ${text.length} characters, which is not a public key.`,
    );
  }
  try {
    return normalisePublicKey(text).pem;
  } catch (cause) {
    throw new WebhookKeyError(
      `servicepay: ${url} did not answer a public key (${(cause as Error).message.replace(/^servicepay: /, '')})`,
      { cause },
    );
  }
}
