/**
 * The export list both entries share: `servicepay/webhook` (index.ts) and
 * `servicepay/webhook/web` (web.ts) each re-export this and add what depends on their crypto
 * (the verifier and the Fetch handler bound to it). Nothing here imports a Node built-in.
 */
export { isFinalNotification, parseWebhookNotification } from './notification';
export { fetchPublicKey, publicKeyUrl, PUBLIC_KEY_PATH, SANDBOX_BASE_URL } from './key-fetch';
export {
  IdempotencyStoreFullError,
  MemoryIdempotencyStore,
  notificationIdempotencyKey,
} from './idempotency';
export { SIGNATURE_ALGORITHM } from './encoding';
export { createFetchPaymentStatusHandler } from './status-fetch';
export * from './errors';

export type { WebhookBody } from './encoding';
export type {
  FinalNotification,
  OtherStatusNotification,
  WebhookMetadata,
  WebhookNotification,
  WebhookPaymentRequest,
  WebhookNotificationContext,
  WebhookPaymentStatus,
} from './notification';
export type {
  IdempotencyClaim,
  IdempotencyStore,
  MemoryIdempotencyStoreOptions,
} from './idempotency';
export type { FetchPublicKeyOptions, PublicKeySource, WebhookEnvironment } from './key-fetch';
export type { WebhookReceiverOptions } from './options';
export type { WebhookErrorContext, WebhookVerdict } from './verdicts';
export type { ExpectedPayment, PaymentMismatch, PaymentMismatchReason } from './reconcile';
export type { OutcomeListener, OutcomeStore, PaymentOutcome } from './outcomes';
export type { PaymentStatusHandlerOptions } from './status';
export type { FetchPaymentStatusHandler, FetchPaymentStatusHandlerOptions } from './status-fetch';
export type { FetchReceiverOptions, FetchWebhookHandler } from './fetch-handler';
export type { OpenTelemetryApi } from './telemetry';
