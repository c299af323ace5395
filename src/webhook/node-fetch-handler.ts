/** The Fetch API receiver on node:crypto, for Next.js route handlers on the Node runtime. */
import type { KeyObject } from 'node:crypto';
import { createFetchHandlerWith } from './fetch-handler';
import type { FetchReceiverOptions, FetchWebhookHandler } from './fetch-handler';
import { nodePublicKey } from './node-key';
import { verifyWebhookSignature } from './verify-node';

/**
 * Creates the webhook receiver as `(request: Request) => Promise<Response>`, verifying with
 * node:crypto. Behaves as createWebhookHandler does.
 *
 * @throws WebhookConfigError or WebhookKeyError when the options are unusable.
 */
export function createFetchWebhookHandler(
  options: FetchReceiverOptions<KeyObject>,
): FetchWebhookHandler {
  return createFetchHandlerWith<KeyObject>(options, verifyWebhookSignature, nodePublicKey);
}
