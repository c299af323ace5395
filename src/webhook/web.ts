/**
 * `servicepay/webhook/web`: the webhook verifier and receiver on WebCrypto alone, for edge
 * runtimes (Cloudflare Workers, Deno, Bun, Vercel Edge). Nothing here, directly or
 * transitively, imports a Node built-in or uses Buffer (test/webhook/web.runtime.test.ts keeps
 * it so).
 */
import { createFetchHandlerWith } from './receiving/receiver-fetch';
import type { FetchReceiverOptions, FetchWebhookHandler } from './receiving/receiver-fetch';
import { webCrypto } from './verification/web-crypto';

export * from './exports';
export { verifyWebhookSignature } from './verification/web-crypto';

/** Options of createFetchWebhookHandler: the receiver options, keys as text/PEM or CryptoKey. */
export type FetchWebhookHandlerOptions = FetchReceiverOptions<CryptoKey>;

/**
 * Creates the webhook receiver as `(request: Request) => Promise<Response>`, verifying with
 * WebCrypto: PUT only, size limit, signature verified on the exact bytes, notification parsed
 * and handed to onNotification once per distinct notification; 200 only after it succeeded.
 *
 * @throws WebhookConfigError or WebhookKeyError when the options are unusable.
 */
export function createFetchWebhookHandler(
  options: FetchWebhookHandlerOptions,
): FetchWebhookHandler {
  return createFetchHandlerWith<CryptoKey>(options, webCrypto);
}
