/**
 * `servicepay/webhook/web`: the webhook verifier and receiver on WebCrypto alone, for Next.js
 * edge routes, Cloudflare Workers, Deno and Bun. Nothing here, directly or transitively,
 * imports a Node built-in or uses Buffer (test/webhook/web-runtime.test.ts keeps it so).
 */
import type { FetchReceiverOptions } from './fetch-handler';

export { verifyWebhookSignature } from './verify-web';
export { parseWebhookNotification } from './notification';
export { createFetchWebhookHandler } from './web-fetch-handler';
export {
  fetchPublicKey,
  publicKeyUrl,
  PUBLIC_KEY_PATH,
  SANDBOX_BASE_URL,
} from './fetch-public-key';
export { MemoryIdempotencyStore } from './memory-store';
export { notificationIdempotencyKey } from './store';
export { SIGNATURE_ALGORITHM } from './authorization';
export {
  WebhookError,
  WebhookConfigError,
  WebhookKeyError,
  WebhookKeyFetchError,
  WebhookPayloadError,
  WebhookRequestError,
  WebhookSignatureError,
} from './errors';

export type { WebhookBody } from './bytes';
export type {
  WebhookMetadata,
  WebhookNotification,
  WebhookPaymentRequest,
  WebhookPaymentStatus,
} from './notification';
export type { IdempotencyClaim, IdempotencyStore } from './store';
export type { MemoryIdempotencyStoreOptions } from './memory-store';
export type {
  FetchPublicKeyOptions,
  PublicKeySource,
  WebhookEnvironment,
} from './fetch-public-key';
export type {
  WebhookErrorContext,
  WebhookNotificationContext,
  WebhookReceiverOptions,
} from './options';
export type { WebhookOutcome } from './outcome';
export type { FetchReceiverOptions, FetchWebhookHandler } from './fetch-handler';

/** Options of createFetchWebhookHandler: the receiver options, keys as text/PEM or CryptoKey. */
export type FetchWebhookHandlerOptions = FetchReceiverOptions<CryptoKey>;
