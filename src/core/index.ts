// `servicepay/core`. A module whose every export is public is re-exported whole; the others
// name what they make public.
export * from './events';
export { ServiceValidationError, ServiceTransportError, formatValidationIssue } from './errors';
export type { ValidationIssue } from './errors';
export type * from './types';
export type * from './display';
export type * from './transport';
export { createHttpTransport } from './http-transport';
export type { HttpTransportOptions } from './http-transport';
export * from './session';
export * from './service-addresses';
export type {
  SessionState,
  SessionStatus,
  FetchState,
  ListState,
  PaymentState,
  Problem,
} from './state';
export { describeValue } from './describe-value';
// Named, not whole: a helper added beside the words' tables must not become public unasked.
export {
  DEFAULT_MESSAGES,
  DEFAULT_RESULT_MESSAGES,
  DEFAULT_HANDOFF_MESSAGES,
  DEFAULT_HOSTED_MESSAGES,
  resolveMessages,
  resolveResultMessages,
  resolveHandoffMessages,
  resolveHostedMessages,
  languageOf,
  countWords,
} from './messages';
export type { ServiceMessagesOption, ShopperText } from './messages';
export type * from './catalogue';
export { formatNumber } from './intl';
// The spec's defaults (2.2) of the title, label and Pay label options: English's words.
export {
  TITLE as DEFAULT_TITLE,
  LABEL as DEFAULT_LABEL,
  PAY_LABEL as DEFAULT_PAY_LABEL,
} from './locales/en/pay';
export * from './pay-step';
export { MAX_SHOWN_INSTITUTIONS } from './transport-answers';
export {
  validatePaymentArgs,
  validateOptions,
  MAX_REFERENCE_LENGTH,
  MAX_METADATA_LENGTH,
  isUuid,
} from './validation';
export { hasAppLinkFragment, stripAppLinkFragment, APP_LINK_FRAGMENT } from './app-link';
export * from './result';
export type { PaymentStatus, FinalPaymentStatus, PaymentReceipt } from './protocol';
export { SAVED_PAYMENT_KEY } from './saved-payment';
export type { PaymentIds } from './saved-payment';
export { HANDOFF_MEDIA, REMEMBERED_BANK_KEY, isLoopbackUrl } from './handoff';
export type { Handoff } from './handoff';
