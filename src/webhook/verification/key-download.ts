/**
 * The bounded https read of the service's public key: one GET, redirects followed by hand within
 * the configured origin, the answer streamed and cut off at 64 KiB, all within one timeout.
 * The key decides which webhooks are genuine, so the read is locked down:
 * - redirects are followed by hand (`redirect: 'manual'`), only within the configured origin
 *   (scheme, host and port) and at most MAX_REDIRECTS times; any redirect to another origin,
 *   an https -> http downgrade included, is refused;
 * - the answer is streamed and the request aborted as soon as it passes 64 KiB.
 * Which addresses may be read at all (https, or http to loopback or SANDBOX), the cache and the
 * backoff are key-fetch.ts's.
 */
import { PUBLIC_KEY_PATH } from '../../core/service-addresses';
import { readAtMost } from './encoding';
import { WebhookConfigError, WebhookKeyError, WebhookKeyFetchError } from '../errors';
import { normalisePublicKey } from './public-key';
import { unprefixed } from '../prefixed';

/** A key is a few hundred bytes; the request is aborted once an answer passes this. */
const MAX_KEY_RESPONSE_BYTES = 64 * 1024;

/** Same-origin redirects followed before giving up (e.g. a trailing slash, a versioned path). */
const MAX_REDIRECTS = 3;

/** The key at `url` as a full PEM; the errors are fetchPublicKey's. */
export async function download(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number },
): Promise<string> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new WebhookConfigError(
      'no fetch implementation is available; pass one as the fetch option.',
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
            `the public-key endpoint ${url} answered HTTP ${response.status}; check the address (it should end in ${PUBLIC_KEY_PATH}).`,
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
          `the public-key endpoint ${url} redirected more than ${MAX_REDIRECTS} times.`,
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
      `the public key could not be fetched from ${url}; check the address and that the service (or the local sandbox) is reachable.`,
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
      `the public-key endpoint ${url} redirected to an address this fetch does not reveal; use the final address as publicKeyUrl.`,
      url,
    );
  }
  if (![301, 302, 303, 307, 308].includes(response.status)) return null;
  const location = response.headers.get('location');
  if (location === null || !URL.canParse(location, address)) {
    throw new WebhookKeyFetchError(
      `the public-key endpoint ${url} answered HTTP ${response.status} without a usable Location.`,
      url,
      response.status,
    );
  }
  return new URL(location, address).href;
}

function crossOrigin(url: string, target: string): WebhookKeyFetchError {
  return new WebhookKeyFetchError(
    `the public-key endpoint ${url} redirected to ${new URL(target).origin}, another origin; the key is only taken from the configured origin. Configure the address that serves the key itself.`,
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
      `${url} answered more than ${MAX_KEY_RESPONSE_BYTES} bytes, which is not a public key; the request was aborted.`,
    );
  };
  if (Number(response.headers.get('content-length')) > MAX_KEY_RESPONSE_BYTES) throw tooLarge();
  if (response.body === null) return '';
  let bytes: Uint8Array | null;
  try {
    bytes = await readAtMost(response.body, MAX_KEY_RESPONSE_BYTES);
  } catch (cause) {
    throw new WebhookKeyFetchError(
      `the public key from ${url} could not be read.`,
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
      `${url} did not answer a public key (${unprefixed((cause as Error).message)})`,
      { cause },
    );
  }
}
