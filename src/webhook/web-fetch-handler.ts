/** The Fetch API receiver on WebCrypto, for edge runtimes. No Node built-ins. */
import { createFetchHandlerWith } from './fetch-handler';
import type { FetchReceiverOptions, FetchWebhookHandler } from './fetch-handler';
import { verifyWebhookSignature } from './verify-web';
import { checkCryptoKey, isCryptoKey } from './web-key';
import { keyTypeError } from './public-key-text';

/**
 * Creates the webhook receiver as `(request: Request) => Promise<Response>`, verifying with
 * WebCrypto: PUT only, size limit, signature verified on the exact bytes, notification parsed
 * and handed to onNotification once per distinct notification; 200 only after it succeeded.
 *
 * @throws WebhookConfigError or WebhookKeyError when the options are unusable.
 */
export function createFetchWebhookHandler(
  options: FetchReceiverOptions<CryptoKey>,
): FetchWebhookHandler {
  return createFetchHandlerWith<CryptoKey>(options, verifyWebhookSignature, (key) => {
    if (!isCryptoKey(key)) throw keyTypeError(key, 'a public CryptoKey');
    checkCryptoKey(key);
  });
}
