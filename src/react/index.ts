// The root entry is NOT a client module: a Server Component imports ServiceEvent, ErrorLocation,
// validation and types from here as plain values. The component and the hook come from
// ./client, which opens with 'use client' and is built as a file of its own that keeps it.
export {
  ServicePay,
  DEFAULT_TITLE,
  DEFAULT_LABEL,
  DEFAULT_PAY_LABEL,
  useServicePayment,
} from './client';
export type { ServicePayProps } from './ServicePay';
export type {
  ServicePayHandle,
  ServicePaymentApi,
  UseServicePaymentOptions,
} from './useServicePayment';
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
} from '../core/index';
export type {
  ServiceEventName,
  ErrorLocationName,
  ServiceError,
  Environment,
  AgentType,
  PaymentArgs,
  PaymentInitiatedDetails,
  ServiceTransport,
  Institution,
  PaymentInitiation,
  InitiatedPayment,
  SessionStatus,
} from '../core/index';
