'use client';
// The client half of the root entry: the component and the hook, which run only in the browser
// (or in the client pass of server rendering). Built as dist/client.{mjs,cjs}, opening with the
// directive; the root entry re-exports it and stays a plain module itself.
export { ServicePay, DEFAULT_TITLE, DEFAULT_LABEL, DEFAULT_PAY_LABEL } from './ServicePay';
export { useServicePayment } from './useServicePayment';
