/**
 * The receiver as a Fetch API handler, `(request: Request) => Promise<Response>`: Next.js route
 * handlers, edge runtimes, Deno, Bun, Cloudflare Workers. Runtime-neutral; each entry passes
 * its own verifier (node:crypto in `servicepay/webhook`, WebCrypto in `servicepay/webhook/web`).
 */
import { WebhookConfigError, WebhookRequestError } from './errors';
import { resolveReceiverOptions } from './resolve-options';
import type { WebhookReceiverOptions } from './options';
import { BODY_ALREADY_PARSED } from './outcome';
import type { ReceiverResponse } from './outcome';
import { createReceiver, tooLarge } from './receiver';
import type { Verify } from './receiver';
import { readRequestBody } from './request-body';

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

export function createFetchHandlerWith<K>(
  options: FetchReceiverOptions<K>,
  verify: Verify<K>,
  checkKeyObject: (key: unknown) => void,
): FetchWebhookHandler {
  const resolved = resolveReceiverOptions<K>(options, checkKeyObject);
  if (resolved.isAllowedSource !== null && typeof options.getSourceAddress !== 'function') {
    throw new WebhookConfigError(
      'servicepay: allowedSourceAddresses needs getSourceAddress(request) with the Fetch handler, because a Request carries no client address.',
      'getSourceAddress',
    );
  }
  const receiver = createReceiver<K>(resolved, verify);

  async function answer(request: Request): Promise<ReceiverResponse> {
    const sourceAddress = options.getSourceAddress?.(request) ?? undefined;
    const early = receiver.preflight(
      request.method,
      sourceAddress,
      request.headers.get('content-length'),
    );
    if (early !== null) return early;
    const body = await readRequestBody(request, resolved.maxBodyBytes);
    switch (body.kind) {
      case 'bytes':
        return receiver.receive(body.bytes, request.headers.get('authorization'), sourceAddress);
      case 'too-large':
        return receiver.refuse('body-too-large', tooLarge(resolved.maxBodyBytes));
      case 'already-parsed':
        return receiver.refuse(
          'body-already-parsed',
          new WebhookRequestError(BODY_ALREADY_PARSED, 500),
        );
      case 'unreadable':
        return receiver.refuse('body-unreadable', body.error);
    }
  }

  return async (request) => {
    let response: ReceiverResponse;
    try {
      response = await answer(request);
    } catch (error) {
      response = receiver.refuse('internal-error', error);
    }
    // null, not '': a string body, even empty, makes Response add a text/plain content type.
    return new Response(response.body === '' ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };
}
