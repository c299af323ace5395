'use client';
// The client half of the root entry: the components and the hooks, which run only in the browser
// (or in the client pass of server rendering). Built as dist/client.{mjs,cjs}, opening with the
// directive; the root entry re-exports it and stays a plain module itself.
export { ServicePay } from './ServicePay';
export { useServicePayment } from './useServicePayment';
export { PaymentResult } from './PaymentResult';
export { usePaymentResult } from './usePaymentResult';
