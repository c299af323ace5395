/**
 * `servicepay/sandbox`: a local simulator of the ServicePay service, for development, demos
 * and end-to-end tests. Node only. Nothing else in the library imports it.
 */
export { startSandbox } from './server/start';
export { SANDBOX_APPLICATION_ID } from './server/service';
export {
  SANDBOX_DEFAULT_PORT,
  DEFAULT_RETRY,
  DEFAULT_MERCHANT_NAME,
  DEFAULT_DELIVERY_HISTORY,
  DEFAULT_MAX_PAYMENTS,
} from './api/options';
export { DEFAULT_INSTITUTIONS } from './contract/institutions';
export { PUBLIC_KEY_PATH, SANDBOX_BASE_URL } from '../core/index';
export { SCRIPT_HOST_PATH } from './contract/script-host';
export {
  buildTestWebhookPayload,
  BANK_ERROR_DESCRIPTION,
  EXPIRED_DESCRIPTION,
  REJECTED_DESCRIPTION,
  sendTestWebhook,
} from './deliveries/notification';
export type {
  SandboxWebhookPayload,
  TestWebhookPayloadOverrides,
  SendTestWebhookOptions,
  SendTestWebhookResult,
} from './deliveries/notification';
export { runCli } from './cli/run-cli';
export type { CliIo } from './cli/run-cli';
export { SandboxError, SandboxConfigError } from './api/errors';
export type { SandboxErrorCode } from './api/errors';
export type {
  Sandbox,
  SandboxPayment,
  SandboxPaymentStatus,
  BankDecision,
  ScheduledStep,
  WebhookPaymentStatus,
  SettleOutcome,
  WebhookDeliveryAttempt,
  WebhookRequestRecord,
  DeliveryOutcome,
  DeliveryReason,
  DeliveryHint,
  DeliveryFaults,
  DeliveryFaultTarget,
  ArmedFaults,
  ReceiverCheckReport,
  ReceiverCheckCase,
  ReceiverCheckCaseName,
} from './api/types';
export type { SandboxOptions, SandboxApplication } from './api/options';
export type { SandboxRetryOptions } from './deliveries/sender';
export type { SandboxInstitution } from './contract/institutions';
