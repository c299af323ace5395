export { ServiceEvent, ErrorLocation } from './events';
export type { ServiceEventName, ErrorLocationName, ServiceError } from './events';
export { ServiceValidationError, ServiceTransportError, formatValidationIssue } from './errors';
export type { ValidationIssue } from './errors';
export type {
  Environment,
  AgentType,
  PaymentArgs,
  PreparedPayment,
  PaymentInitiatedDetails,
  SessionOptions,
} from './types';
export type { ServiceDisplayProps } from './display';
export type {
  ServiceTransport,
  Institution,
  PaymentInitiation,
  InitiatedPayment,
} from './transport';
export { createHttpTransport } from './http-transport';
export type { HttpTransportOptions } from './http-transport';
export { createPaymentSession, SLOW_LOAD_MS } from './session';
export { PUBLIC_KEY_PATH, SANDBOX_BASE_URL, SANDBOX_PORT } from './service-addresses';
export type { PaymentSession, SessionInit, SessionWiring } from './session';
export type {
  SessionState,
  SessionStatus,
  FetchState,
  ListState,
  PaymentState,
  Problem,
} from './state';
export { describeValue } from './describe-value';
export { DEFAULT_MESSAGES, resolveMessages } from './messages';
export { payStep, shopperText } from './pay-step';
export type { PayStep, PayStepActions } from './pay-step';
export { MAX_SHOWN_INSTITUTIONS } from './transport-answers';
export type { ServiceMessages, ServiceMessagesOption, ShopperText } from './messages';
export {
  validatePaymentArgs,
  validateOptions,
  MAX_REFERENCE_LENGTH,
  MAX_METADATA_LENGTH,
  isUuid,
} from './validation';
export { hasAppLinkFragment, stripAppLinkFragment, APP_LINK_FRAGMENT } from './app-link';
export { createPaymentResult, resultText, NOT_HEARD_AFTER_MS } from './result';
export type {
  PaymentResultController,
  PaymentResultOptions,
  PaymentResultSnapshot,
  PaymentResultState,
  PaymentResultOutcome,
} from './result';
export type { PaymentStatus, FinalPaymentStatus } from './protocol';
export { SAVED_PAYMENT_KEY } from './saved-payment';
export type { PaymentIds } from './saved-payment';
export { DEFAULT_RESULT_MESSAGES, resolveResultMessages } from './messages';
export type { PaymentResultMessages } from './messages';
export {
  DEFAULT_HANDOFF_MESSAGES,
  HANDOFF_MEDIA,
  REMEMBERED_BANK_KEY,
  isLoopbackUrl,
  resolveHandoffMessages,
} from './handoff';
export type { Handoff, HandoffMessages } from './handoff';
