/**
 * `servicepay/webhook`: verify, parse and receive the service's webhook notifications on
 * Node >= 20 (node:crypto). For edge runtimes use `servicepay/webhook/web`.
 */
import type { KeyObject } from 'node:crypto';
import type { FetchReceiverOptions } from './fetch-handler';

export { signWebhookPayload } from './sign';
export { verifyWebhookSignature } from './verify-node';
export { parseWebhookNotification } from './notification';
export { createWebhookHandler } from './node-handler';
export { createFetchWebhookHandler } from './node-fetch-handler';
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
export type { WebhookHandler, WebhookHandlerOptions } from './node-handler';
export type { FetchReceiverOptions, FetchWebhookHandler } from './fetch-handler';

/** Options of createFetchWebhookHandler: the receiver options, keys as text/PEM or KeyObject. */
export type FetchWebhookHandlerOptions = FetchReceiverOptions<KeyObject>;
