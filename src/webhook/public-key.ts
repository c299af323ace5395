/**
 * The service's public key (spec 4.2): the text merchants hold, where it is served, how it is
 * fetched, the one cache of parsed keys, and the key source a receiver verifies with.
 * Runtime-neutral: uses the global fetch (or one passed in), no Node built-ins.
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
import { WebhookConfigError, WebhookKeyError, WebhookKeyFetchError } from './errors';
import { isPaddedBase64 } from './encoding';

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
       * @default 'http://localhost:4010' for SANDBOX (the local sandbox)
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

/** Base address of the local sandbox, the default for SANDBOX. */
export const SANDBOX_BASE_URL = 'http://localhost:4010';

/** Path of the public-key endpoint under an environment's base address (spec 4.2). */
export const PUBLIC_KEY_PATH = '/.well-known/signature/pem';

/**
 * The environment variable the documentation reads the key from (`publicKey:
 * process.env.SERVICEPAY_PUBLIC_KEY`). The library never reads the environment itself (edge
 * runtimes may have no `process`); messages name it so the fix is one line in a .env file.
 */
export const PUBLIC_KEY_ENV = 'SERVICEPAY_PUBLIC_KEY';

/** A key is a few hundred bytes; the request is aborted once an answer passes this. */
export const MAX_KEY_RESPONSE_BYTES = 64 * 1024;

/** Same-origin redirects followed before giving up (e.g. a trailing slash, a versioned path). */
const MAX_REDIRECTS = 3;

/** The service signs with RSA keys of at least this size; a shorter key is not its key. */
const MIN_RSA_BITS = 2048;

/** The likely cause of a key cut short, spelled out in every message about one. */
const MULTI_LINE_HINT = `a multi-line value in a .env file must be quoted (${PUBLIC_KEY_ENV}="-----BEGIN PUBLIC KEY-----\\n...") or written on one line, or the platform cut it`;

// Key text ------------------------------------------------------------------------------------

/** A public key reduced to one canonical form. */
export interface NormalisedPublicKey {
  /** The DER (SubjectPublicKeyInfo) as one line of base64. */
  readonly base64: string;
  /** A full PEM with 64-character lines, as node:crypto and openssl expect. */
  readonly pem: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)(?:-----END \1-----|$)/;

/** Why a PEM of another kind is not the key verification needs, and what to do instead. */
const WRONG_LABEL: Record<string, string> = {
  'RSA PUBLIC KEY':
    'it is a PKCS#1 "RSA PUBLIC KEY"; convert it with `openssl rsa -RSAPublicKey_in -pubout`, or use the text served at /.well-known/signature/pem',
  'PRIVATE KEY': 'it is a private key; verification needs the service public key',
  'RSA PRIVATE KEY': 'it is a private key; verification needs the service public key',
  CERTIFICATE:
    'it is a certificate; pass the public key served at /.well-known/signature/pem instead',
};

/**
 * Normalises key text as merchants hold it: the endpoint's answer (PEM body with the BEGIN/END
 * lines trimmed, with or without line breaks), a full PEM, or either pasted into an environment
 * variable with literal `\n` sequences. Throws WebhookKeyError when it cannot be the service's
 * key: wrong PEM kind, not base64, cut short, or an RSA key under 2048 bits. The runtime's
 * crypto parses the DER afterwards; what is checked here is checked alike on every runtime,
 * synchronously, so both entries refuse a bad key when the handler is created.
 */
export function normalisePublicKey(text: string): NormalisedPublicKey {
  // Environment variables often carry a PEM with literal "\n" sequences instead of newlines.
  let body = text.replace(/\\r|\\n/g, '\n');
  const block = PEM_BLOCK.exec(body);
  if (block) {
    const label = block[1] ?? '';
    if (label !== 'PUBLIC KEY') {
      const why = WRONG_LABEL[label] ?? 'a "PUBLIC KEY" PEM is expected';
      throw new WebhookKeyError(`servicepay: the public key is a "${label}" PEM: ${why}.`);
    }
    body = block[2] ?? '';
    if (body.trim() === '') {
      throw new WebhookKeyError(
        `servicepay: the public key holds only its "-----BEGIN PUBLIC KEY-----" line: ${MULTI_LINE_HINT}.`,
      );
    }
  }
  const base64 = body.replace(/\s+/g, '');
  if (!isPaddedBase64(base64)) {
    throw new WebhookKeyError(
      base64 === ''
        ? 'servicepay: the public key is empty; pass the text served at <base>/.well-known/signature/pem or a full PEM.'
        : `servicepay: the public key is not base64 PEM text (${base64.length} characters); pass the text served at <base>/.well-known/signature/pem or a full "PUBLIC KEY" PEM. If it looks cut short: ${MULTI_LINE_HINT}.`,
    );
  }
  checkDer(atob(base64));
  const lines = base64.match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return { base64, pem };
}

/** The error for a key argument of the wrong type; `accepted` names the key objects allowed. */
export function keyTypeError(value: unknown, accepted: string): WebhookKeyError {
  const got = value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
  return new WebhookKeyError(
    `servicepay: the public key must be the text served at <base>/.well-known/signature/pem, a "PUBLIC KEY" PEM, or ${accepted}; got ${got}.`,
  );
}

/** The error for an RSA key shorter than the service uses. */
export function shortKeyError(bits: number): WebhookKeyError {
  return new WebhookKeyError(
    `servicepay: the public key is RSA-${bits}; the service signs with RSA keys of at least ${MIN_RSA_BITS} bits, so this is not its key. Copy the key again from <base>/.well-known/signature/pem of the right environment.`,
  );
}

/** rsaEncryption, 1.2.840.113549.1.1.1, as DER content bytes. */
const RSA_OID = '\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01';

/**
 * Reads just enough of the SubjectPublicKeyInfo DER (given as a binary string) to tell a key
 * cut short and an RSA modulus under 2048 bits, without a crypto library: importKey is
 * asynchronous on WebCrypto, and these two mistakes must fail when the handler is created.
 * Anything else odd in the DER is left to the runtime's parser.
 */
function checkDer(der: string): void {
  const outer = tlv(der, 0);
  if (outer === null || outer.tag !== 0x30) throw notDer();
  if (outer.end > der.length) {
    throw new WebhookKeyError(
      `servicepay: the public key is cut short (${der.length} of ${outer.end} bytes): ${MULTI_LINE_HINT}. Copy it again from <base>/.well-known/signature/pem.`,
    );
  }
  if (outer.end < der.length) throw notDer();
  const algorithm = tlv(der, outer.start);
  const oid = algorithm && algorithm.tag === 0x30 ? tlv(der, algorithm.start) : null;
  if (algorithm === null || oid === null || oid.tag !== 0x06) throw notDer();
  if (der.slice(oid.start, oid.end) !== RSA_OID) return; // not RSA: the runtime's check says so
  const bitString = tlv(der, algorithm.end);
  const rsaKey = bitString?.tag === 0x03 ? tlv(der, bitString.start + 1) : null;
  const modulus = rsaKey?.tag === 0x30 ? tlv(der, rsaKey.start) : null;
  if (modulus === null || modulus.tag !== 0x02 || modulus.end > outer.end) throw notDer();
  let start = modulus.start;
  while (start < modulus.end && der.charCodeAt(start) === 0) start++;
  const first = der.charCodeAt(start);
  const bits = start < modulus.end ? (modulus.end - start - 1) * 8 + (32 - Math.clz32(first)) : 0;
  if (bits < MIN_RSA_BITS) throw shortKeyError(bits);
}

/** One DER tag-length header at `at`: where its content starts and ends, or null if unreadable. */
function tlv(der: string, at: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > der.length) return null;
  const tag = der.charCodeAt(at);
  let length = der.charCodeAt(at + 1);
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3 || start + count > der.length) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der.charCodeAt(start++);
  }
  return { tag, start, end: start + length };
}

function notDer(): WebhookKeyError {
  return new WebhookKeyError(
    'servicepay: the public key text is base64 but not a valid public key (SubjectPublicKeyInfo DER); copy it again from <base>/.well-known/signature/pem.',
  );
}

// The one key cache ---------------------------------------------------------------------------

/**
 * Parsed keys by the exact text given, bounded. Parsing a key (a PEM parse on Node, an
 * asynchronous importKey on WebCrypto) costs far more than a verification, so each runtime
 * keeps what it parsed here: a lookup hashes a string V8 has usually hashed already, and a
 * verification then costs the RSA operation and little else. One class for the Node and
 * WebCrypto public keys and the signing keys, each with its own instance (different values).
 */
export class KeyCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #max: number;

  /** `max`: enough for key rotation overlap and a few environments; odd inputs cannot grow it. */
  constructor(max = 32) {
    this.#max = max;
  }

  get(text: string): V | undefined {
    return this.#entries.get(text);
  }

  set(text: string, value: V): V {
    if (this.#entries.size >= this.#max) {
      // Map iteration is insertion order: drop the oldest entry.
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(text, value);
    return value;
  }

  /** Forgets `text` if it still maps to `value` (a failed asynchronous parse). */
  forget(text: string, value: V): void {
    if (this.#entries.get(text) === value) this.#entries.delete(text);
  }
}

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
}

/** Fetched keys (full PEM) by address. */
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
    promise: download(url, options).then(
      (pem) => {
        entry.settled = true;
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
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > MAX_KEY_RESPONSE_BYTES) {
        reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (cause) {
    if (cause instanceof WebhookKeyError) throw cause;
    throw new WebhookKeyFetchError(
      `servicepay: the public key from ${url} could not be read.`,
      url,
      response.status,
      { cause },
    );
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
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

// The key a receiver verifies with ------------------------------------------------------------

/** A key as the verifiers accept it: text/PEM, or the runtime's key object. */
export type KeyInput<K> = string | K;

/**
 * The crypto seam between the runtime-neutral receiver and a runtime: node:crypto in
 * `servicepay/webhook`, WebCrypto in `servicepay/webhook/web`.
 */
export interface CryptoProvider<K> {
  /** Verifies a delivery's signature; node:crypto's is synchronous, WebCrypto's asynchronous. */
  verify(
    body: Uint8Array,
    authorization: string | null,
    key: KeyInput<K>,
  ): boolean | Promise<boolean>;
  /** Throws WebhookKeyError unless `key` can verify; run when a handler is created. */
  checkKey(key: unknown): void;
}

export interface KeySource<K> {
  /** The key already at hand, if any: lets the common path skip a promise per delivery. */
  peek(): KeyInput<K> | undefined;
  /** The key to verify with now. Rejects when the endpoint cannot be fetched. */
  current(): Promise<KeyInput<K>>;
  /**
   * After `stale` failed to verify: a newer key to retry with, or null when there is none to
   * try (a fixed key, or a refetch too soon after the last one or after a failure).
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

/**
 * No key configured (the environment variable is not set, e.g. during `next build`): every
 * delivery that needs the key fails with `error`, answered 500 and reported to onError.
 */
export function missingKeySource<K>(error: Error): KeySource<K> {
  return {
    peek: () => undefined,
    current: () => Promise.reject(error),
    refresh: () => Promise.resolve(null),
  };
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
  let latest: string | undefined;
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
        return (latest = pem);
      },
      (error: unknown) => {
        failure = { error, until: now() + options.refreshIntervalMs };
        throw error;
      },
    );
  };

  return {
    peek: () => latest,
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
