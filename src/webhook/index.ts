/**
 * `servicepay/webhook`: verify, parse and receive the service's webhook notifications on
 * Node >= 20 (node:crypto). For edge runtimes use `servicepay/webhook/web`.
 */
import type { KeyObject } from 'node:crypto';
import { createFetchHandlerWith } from './receiving/receiver-fetch';
import type { FetchReceiverOptions, FetchWebhookHandler } from './receiving/receiver-fetch';
import { nodeCrypto } from './verification/node-crypto';

export * from './exports';
export { signWebhookPayload, verifyWebhookSignature } from './verification/node-crypto';
export { createWebhookHandler, listenWebhook } from './receiving/receiver-node';
export { createPaymentStatusHandler } from './status/status-node';
export type { NodePaymentStatusHandlerOptions, PaymentStatusHandler } from './status/status-node';
export type {
  WebhookHandler,
  WebhookHandlerOptions,
  WebhookServer,
  WebhookServerOptions,
} from './receiving/receiver-node';

/** Options of createFetchWebhookHandler: the receiver options, keys as text/PEM or KeyObject. */
export type FetchWebhookHandlerOptions = FetchReceiverOptions<KeyObject>;

/**
 * Creates the webhook receiver as `(request: Request) => Promise<Response>` (Next.js route
 * handlers on the Node runtime), verifying with node:crypto. Behaves as createWebhookHandler.
 *
 * @throws WebhookConfigError or WebhookKeyError when the options are unusable.
 */
export function createFetchWebhookHandler(
  options: FetchWebhookHandlerOptions,
): FetchWebhookHandler {
  return createFetchHandlerWith<KeyObject>(options, nodeCrypto);
}
