/**
 * The export list both entries share: `servicepay/webhook` (index.ts) and
 * `servicepay/webhook/web` (web.ts) each re-export this and add what depends on their crypto
 * (the verifier and the Fetch handler bound to it). Nothing here imports a Node built-in.
 * Folder by folder, one statement per module: a module whose every export is public is
 * re-exported whole, the others name what they make public.
 */
export * from './errors';
export type { OpenTelemetryApi } from './telemetry';

export * from './verification/notification';
export {
  fetchPublicKey,
  publicKeyUrl,
  PUBLIC_KEY_PATH,
  SANDBOX_BASE_URL,
  type FetchPublicKeyOptions,
  type PublicKeySource,
  type WebhookEnvironment,
} from './verification/key-fetch';
export { SIGNATURE_ALGORITHM, type WebhookBody } from './verification/encoding';

export {
  IdempotencyStoreFullError,
  MemoryIdempotencyStore,
  notificationIdempotencyKey,
  type IdempotencyClaim,
  type IdempotencyStore,
  type MemoryIdempotencyStoreOptions,
} from './stores/idempotency';
export type { OutcomeListener, OutcomeStore, PaymentOutcome } from './stores/outcomes';
export type { OrderStore } from './stores/orders';

export type { WebhookReceiverOptions } from './receiving/options';
export type { WebhookErrorContext, WebhookVerdict } from './receiving/verdicts';
export type { ExpectedPayment } from './receiving/expected-payment';
export type { PaymentMismatch, PaymentMismatchReason } from './receiving/reconcile';
export type { FetchReceiverOptions, FetchWebhookHandler } from './receiving/receiver-fetch';

export * from './status/status-fetch';
export type { PaymentStatusHandlerOptions } from './status/status';
export type { ExposedFields, ExposedReceipt } from './status/status-expose';
