/**
 * The Fetch front door: the receiver as `(request: Request) => Promise<Response>`, for Next.js
 * route handlers, edge runtimes, Deno, Bun and Cloudflare Workers. Runtime-neutral: each entry
 * passes its crypto (node:crypto in `servicepay/webhook`, WebCrypto in
 * `servicepay/webhook/web`).
 */
import { readAtMost } from '../verification/encoding';
import { WebhookConfigError } from '../errors';
import { resolveReceiverOptions } from './options';
import type { WebhookReceiverOptions } from './options';
import type { CryptoProvider } from '../verification/public-key';
import { createReceiver } from './receiver';
import type { BodyRead } from './receiver';
import { observed } from './receiver-telemetry';
import type { ReceiverResponse } from './verdicts';

/** Options of createFetchWebhookHandler. `K` is the runtime's key object type. */
export interface FetchReceiverOptions<K> extends WebhookReceiverOptions<K> {
  /**
   * The address a delivery came from; required with allowedSourceAddresses because a Request
   * carries none. Read it from what the platform provides (e.g. a header the platform's proxy
   * overwrites), never from a header a client can set freely.
   */
  getSourceAddress?: (request: Request) => string | null | undefined;
}

/** A Fetch API handler; the returned promise never rejects. */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

/**
 * Creates the webhook receiver as a Fetch API handler on the given crypto: PUT only, size
 * limit, signature verified on the exact bytes, notification parsed and handed to
 * onNotification once per distinct notification; 200 only after it succeeded. Each entry
 * exports it as createFetchWebhookHandler, bound to its crypto.
 *
 * @throws WebhookConfigError or WebhookKeyError when the options are unusable.
 */
export function createFetchHandlerWith<K>(
  options: FetchReceiverOptions<K>,
  crypto: CryptoProvider<K>,
): FetchWebhookHandler {
  const resolved = resolveReceiverOptions<K>(options, crypto);
  if (resolved.isAllowedSource !== null && typeof options.getSourceAddress !== 'function') {
    throw new WebhookConfigError(
      'allowedSourceAddresses needs getSourceAddress(request) with the Fetch handler, because a Request carries no client address.',
      'getSourceAddress',
    );
  }
  const receiver = observed(createReceiver)<K>(resolved, crypto.verify);

  async function answer(request: Request): Promise<ReceiverResponse> {
    const sourceAddress = options.getSourceAddress?.(request) ?? undefined;
    const early = receiver.preflight(
      request.method,
      sourceAddress,
      request.headers.get('content-length'),
    );
    if (early !== null) return early;
    const body = await readRequestBody(request, resolved.maxBodyBytes);
    if (body.kind === 'bytes') {
      return receiver.receive(body.bytes, request.headers.get('authorization'), sourceAddress);
    }
    return receiver.refuseBody(body);
  }

  return async (request) => {
    let response: ReceiverResponse;
    try {
      response = await answer(request);
    } catch (error) {
      response = receiver.fail(error);
    }
    // null, not '': a string body, even empty, makes Response add a text/plain content type.
    return new Response(response.body === '' ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };
}

// Reading the body ----------------------------------------------------------------------------
// Bytes are kept as received because the signature covers them exactly.

/** Reads a Fetch API Request body with a size limit, on any runtime. */
async function readRequestBody(request: Request, limit: number): Promise<BodyRead> {
  // request.json() or request.text() ran first: the bytes are gone (the Fetch form of the
  // raw-body pitfall).
  if (request.bodyUsed) return { kind: 'already-parsed' };
  if (request.body === null) return { kind: 'bytes', bytes: new Uint8Array(0) };
  try {
    const bytes = await readAtMost(request.body, limit);
    return bytes === null ? { kind: 'too-large' } : { kind: 'bytes', bytes };
  } catch (error) {
    return { kind: 'unreadable', error };
  }
}
