import { ServiceTransportError } from './errors';
import type {
  InitiatedPayment,
  Institution,
  PaymentInitiation,
  ServiceTransport,
} from './transport';
import { isPlainObject } from './validation';

export interface HttpTransportOptions {
  /** Address of a backend serving the contract below, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** A fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Gives up on a call after this many milliseconds: the whole exchange, from sending the
   * request to the last byte of the answer. @default 30000
   */
  timeoutMs?: number;
  /** Gives up on an answer larger than this many bytes. @default 4194304 (4 MiB) */
  maxResponseBytes?: number;
}

/**
 * The ServicePay HTTP contract (docs/http-contract.md; the sandbox serves it):
 *
 * - `GET  {baseUrl}/v1/institutions?environment=…&applicationId=…`
 *   → 200 `{ "institutions": [{ "id", "name", "iconUrl"? }] }`
 * - `POST {baseUrl}/v1/payments` with the PaymentInitiation as JSON and
 *   `Idempotency-Key: <merchantPaymentId>` → 201 `{ "paymentId", "authorisationUrl" }`
 * - any error → non-2xx with `{ "error": "<message the component reports>" }`
 *
 * Every read is bounded in time and size: a backend that sends its headers and then stalls
 * (or trickles, or streams without end) must not leave a payment "initiating" forever.
 * The entries of the answers are checked by the session (transport-answers.ts), whatever
 * the transport.
 */
export function createHttpTransport(options: HttpTransportOptions): ServiceTransport {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  // A list of a few hundred banks with inline logos fits many times over.
  const maxBytes = options.maxResponseBytes ?? 4_194_304; // 4 MiB

  async function call(
    path: string,
    signal: AbortSignal | undefined,
    init: RequestInit = { method: 'GET' },
  ): Promise<Record<string, unknown>> {
    // One controller for the whole exchange: the caller's abort (unmount) and the timer stay
    // attached until the body has been read, not only until the headers arrive.
    const controller = new AbortController();
    const { signal: exchange } = controller;
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response | undefined;
    let body: unknown;
    try {
      response = await (options.fetch ?? fetch)(base + path, {
        ...init,
        headers: { Accept: 'application/json', ...init.headers },
        signal: exchange,
      });
      const text = await readText(response, exchange, maxBytes);
      if (text === undefined) {
        throw new ServiceTransportError(`The service sent an answer larger than ${maxBytes} bytes`);
      }
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: reported below by status, or as unreadable.
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      // Aborted, and not by the caller: the timer.
      if (exchange.aborted) {
        throw new ServiceTransportError(`The service did not answer within ${timeoutMs} ms`);
      }
      if (error instanceof ServiceTransportError) throw error;
      // A body cut off after an error status is still reported by its status.
      if (!response) {
        throw new ServiceTransportError(`Network error: could not reach ${base}`, undefined, {
          cause: error,
        });
      }
    } finally {
      // No abort here: every path that leaves the exchange open has aborted or cancelled it, and
      // Chromium marks a completed request "(canceled)" when aborted after its last byte.
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
    // Set whenever we get here: every path without a response has thrown above.
    const { ok, status, statusText } = response!;
    if (ok && isPlainObject(body)) return body;
    // A parsed JSON value: `error` is read only from an object (an array or a primitive has none).
    const error = (body as { error?: unknown } | undefined)?.error;
    throw new ServiceTransportError(
      ok
        ? 'The service sent an unreadable answer'
        : typeof error == 'string'
          ? error
          : `HTTP ${status} ${statusText}`.trim(),
      status,
    );
  }

  return {
    async fetchInstitutions(req, signal): Promise<Institution[]> {
      // The session asks with these two only: `{ environment, applicationId }` as they are.
      const { institutions } = await call(
        `/v1/institutions?${new URLSearchParams(req as unknown as Record<string, string>)}`,
        signal,
      );
      // Icons may be given relative to the backend, which only the transport knows. Everything
      // else (a list, its entries, their logos) is checked once, by the session at its boundary
      // (transport-answers.ts), which reports what it dropped or repaired, whatever the transport.
      return (
        Array.isArray(institutions)
          ? institutions.map((item: unknown): unknown => {
              try {
                const { iconUrl } = item as Institution;
                return typeof iconUrl == 'string'
                  ? { ...(item as Institution), iconUrl: new URL(iconUrl, `${base}/`).href }
                  : item;
              } catch {
                return item;
              }
            })
          : institutions
      ) as Institution[];
    },

    // Checked by the session (transport-answers.ts): only an http(s) URL is ever opened.
    initiatePayment: (req: PaymentInitiation, signal) =>
      call('/v1/payments', signal, {
        method: 'POST',
        // Percent-encoded: a header carries only Latin-1, and an id may be any text (protocol.ts).
        headers: {
          'Content-Type': 'application/json',
          'Idempotency-Key': encodeURIComponent(req.merchantPaymentId),
        },
        body: JSON.stringify(req),
      }) as Promise<unknown> as Promise<InitiatedPayment>,
  };
}

/**
 * The body as text, or undefined once it passes `max` bytes (the download stops there).
 * Rejects once `signal` aborts, even with a fetch whose body ignores its signal. Also reads
 * the status endpoint's answers (result.ts).
 */
export async function readText(
  response: Response,
  signal: AbortSignal,
  max: number,
): Promise<string | undefined> {
  const aborted = new Promise<never>((_resolve, reject) => {
    const fail = () => reject(signal.reason as Error);
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail);
  });
  aborted.catch(() => undefined);
  // Read through a stream reader, a `no-store` answer is listed "(canceled)" in Chromium in some
  // loads though it came whole: one of known length within `max` is read whole; a fetch
  // without streams (an old polyfill) is bounded in time only.
  const reader =
    +(response.headers.get('content-length') ?? max + 1) > max && response.body?.getReader?.();
  if (!reader) return Promise.race([response.text(), aborted]);
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return text + decoder.decode();
      if ((size += value.byteLength) > max) return;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    // Stops the download of whatever is left (nothing, once done: the stream is closed).
    reader.cancel().catch(() => undefined);
  }
}
