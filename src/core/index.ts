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
export type {
  ServiceTransport,
  Institution,
  PaymentInitiation,
  InitiatedPayment,
} from './transport';
export { createHttpTransport } from './http-transport';
export type { HttpTransportOptions } from './http-transport';
export { createPaymentSession, SANDBOX_BASE_URL, SLOW_LOAD_MS } from './session';
export type { PaymentSession, SessionInit } from './session';
export type {
  SessionState,
  SessionStatus,
  FetchState,
  ListState,
  PaymentState,
  Problem,
} from './state';
export { DEFAULT_MESSAGES, resolveMessages, shopperText } from './messages';
export type { ServiceMessages, ServiceMessagesOption, ShopperText } from './messages';
export {
  validatePaymentArgs,
  validateOptions,
  MAX_REFERENCE_LENGTH,
  MAX_METADATA_LENGTH,
} from './validation';
export { hasAppLinkFragment, stripAppLinkFragment, APP_LINK_FRAGMENT } from './app-link';
