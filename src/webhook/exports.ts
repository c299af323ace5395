/**
 * The export list both entries share: `servicepay/webhook` (index.ts) and
 * `servicepay/webhook/web` (web.ts) each re-export this and add what depends on their crypto
 * (the verifier and the Fetch handler bound to it). Nothing here imports a Node built-in.
 */
export { isFinalNotification, parseWebhookNotification } from './verification/notification';
export {
  fetchPublicKey,
  publicKeyUrl,
  PUBLIC_KEY_PATH,
  SANDBOX_BASE_URL,
} from './verification/key-fetch';
export {
  IdempotencyStoreFullError,
  MemoryIdempotencyStore,
  notificationIdempotencyKey,
} from './stores/idempotency';
export { SIGNATURE_ALGORITHM } from './verification/encoding';
export { createFetchPaymentStatusHandler } from './status/status-fetch';
export * from './errors';

export type { WebhookBody } from './verification/encoding';
export type {
  FinalNotification,
  OtherStatusNotification,
  WebhookMetadata,
  WebhookNotification,
  WebhookPaymentRequest,
  WebhookNotificationContext,
  WebhookPaymentStatus,
} from './verification/notification';
export type {
  IdempotencyClaim,
  IdempotencyStore,
  MemoryIdempotencyStoreOptions,
} from './stores/idempotency';
export type {
  FetchPublicKeyOptions,
  PublicKeySource,
  WebhookEnvironment,
} from './verification/key-fetch';
export type { WebhookReceiverOptions } from './receiving/options';
export type { WebhookErrorContext, WebhookVerdict } from './receiving/verdicts';
export type {
  ExpectedPayment,
  PaymentMismatch,
  PaymentMismatchReason,
} from './receiving/reconcile';
export type { OutcomeListener, OutcomeStore, PaymentOutcome } from './stores/outcomes';
export type { PaymentStatusHandlerOptions } from './status/status';
export type {
  FetchPaymentStatusHandler,
  FetchPaymentStatusHandlerOptions,
} from './status/status-fetch';
export type { FetchReceiverOptions, FetchWebhookHandler } from './receiving/receiver-fetch';
export type { OpenTelemetryApi } from './telemetry';
