// Types for the example server (plain ESM so that `npm start` runs it with node directly).
import type {
  MemoryIdempotencyStore,
  PaymentMismatchReason,
  WebhookNotification,
} from 'servicepay/webhook';

/** Bundles a page (app.tsx by default, or './hosted.tsx') against the built package. */
export declare function buildCheckoutBundle(entry?: string): Promise<string>;

/** How long an order takes payment: 15 minutes (orders.mjs). */
export declare const ORDER_WINDOW_MS: number;

/** The shop's own record of a payment, written by its onNotification. */
export interface StoredPayment {
  paymentId: string;
  merchantPaymentId: string | null;
  /** COMPLETED (matching its order), FAILED, or another status the service sends (SETTLED). */
  paymentStatus: WebhookNotification['paymentStatus'];
  errorDescription: string | null;
  amount: number;
  reference: string | null;
  timesProcessed: number;
}

/**
 * An order the shop made (orders.mjs): `open` until a payment that matches it is confirmed,
 * `needs-review` when a confirmed payment named it but did not match it (or came after the
 * order closed). An open order takes payment until `closesAt` (an ISO time).
 */
export interface Order {
  orderId: string;
  item: string;
  amount: number;
  currency: 'GBP';
  reference: string;
  closesAt: string;
  status: 'open' | 'paid' | 'needs-review';
  /** The merchantPaymentIds the hosted checkout reported (onPaymentInitiated), the last last. */
  attempts: string[];
  /** The payments the receiver heard for this order, in the order heard. */
  payments: { paymentId: string; merchantPaymentId: string }[];
}

/** A payment the receiver did not count for its order (onMismatch), for a person to check. */
export interface Review {
  paymentId: string;
  orderId: string | null;
  reason: PaymentMismatchReason;
  /** For `already-paid`: the payment that paid the order (refund the other). */
  paidBy: string | null;
}

export declare function startCheckout(options?: {
  port?: number;
  host?: string;
  /** How long an order takes payment. @default 900000 (15 minutes) */
  orderWindowMs?: number;
  /** The shop's clock (tests run an order's life on a time scale). @default Date.now */
  now?: () => number;
}): Promise<{
  url: string;
  /** The shop's display name, the payee to give the sandbox. */
  merchantName: string;
  /** The same checkout on a plain HTML page, with the component's script tag. */
  scriptTagUrl: string;
  /** The plain page's return page, with the result's script tag (window.ServiceResult). */
  scriptTagReturnUrl: string;
  /** The same checkout on servicepay/hosted, on the sandbox's script. */
  hostedUrl: string;
  webhookUrl: string;
  returnUrl: string;
  /** Where createPaymentStatusHandler answers the return page. */
  statusUrl: string;
  payments: Map<string, StoredPayment>;
  /** The shop's orders, by orderId: made by POST /api/orders, settled by the receiver. */
  orders: Map<string, Order>;
  /** What the receiver recorded for review, in order (the shop's log of refunds to make). */
  reviews: Review[];
  /** The store the receiver records outcomes in and the status endpoint reads. */
  store: MemoryIdempotencyStore;
  useSandbox(target: { url: string; applicationId: string }): void;
  stop(): Promise<void>;
}>;
