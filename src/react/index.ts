// The root entry is NOT a client module: a Server Component imports ServiceEvent, ErrorLocation,
// validation and types from here as plain values. The component and the hook come from
// ./client, which opens with 'use client' and is built as a file of its own that keeps it.
export { ServicePay, useServicePayment, PaymentResult, usePaymentResult } from './client';
export type { ServicePayProps } from './ServicePay';
export type {
  ServicePayHandle,
  ServicePaymentApi,
  UseServicePaymentOptions,
} from './useServicePayment';
export type { PaymentResultProps } from './PaymentResult';
export type { PaymentResultApi, UsePaymentResultOptions } from './usePaymentResult';
export {
  ServiceEvent,
  ErrorLocation,
  createHttpTransport,
  hasAppLinkFragment,
  stripAppLinkFragment,
  validatePaymentArgs,
  validateOptions,
  ServiceValidationError,
  MAX_REFERENCE_LENGTH,
  MAX_METADATA_LENGTH,
  DEFAULT_MESSAGES,
  DEFAULT_RESULT_MESSAGES,
  DEFAULT_TITLE,
  DEFAULT_LABEL,
  DEFAULT_PAY_LABEL,
  NOT_HEARD_AFTER_MS,
  STOP_LISTENING_AFTER_MS,
  SAVED_PAYMENT_KEY,
} from '../core/index';
// The types every entry shares, listed once (core/public-types.ts).
export type * from '../core/public-types';
