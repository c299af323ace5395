'use client';
export { ServicePay, DEFAULT_TITLE, DEFAULT_LABEL, DEFAULT_PAY_LABEL } from './ServicePay';
export type { ServicePayProps } from './ServicePay';
export { useServicePayment } from './useServicePayment';
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
  DEFAULT_MESSAGES,
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
  ServiceMessages,
  ServiceMessagesOption,
  ShopperText,
} from '../core/index';
