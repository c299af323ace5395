// Types for the example server (plain ESM so that `npm start` runs it with node directly).
import type { MemoryIdempotencyStore, WebhookNotification } from 'servicepay/webhook';

export declare function buildCheckoutBundle(): Promise<string>;

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
 * `needs-review` when a confirmed payment named it but did not match it.
 */
export interface Order {
  orderId: string;
  item: string;
  amount: number;
  currency: 'GBP';
  reference: string;
  status: 'open' | 'paid' | 'needs-review';
}

export declare function startCheckout(options?: { port?: number; host?: string }): Promise<{
  url: string;
  /** The shop's display name, the payee to give the sandbox. */
  merchantName: string;
  /** The same checkout on a plain HTML page, with the component's script tag. */
  scriptTagUrl: string;
  /** The plain page's return page, with the result's script tag (window.ServiceResult). */
  scriptTagReturnUrl: string;
  webhookUrl: string;
  returnUrl: string;
  /** Where createPaymentStatusHandler answers the return page. */
  statusUrl: string;
  payments: Map<string, StoredPayment>;
  /** The shop's orders, by orderId: made by POST /api/orders, settled by the receiver. */
  orders: Map<string, Order>;
  /** The store the receiver records outcomes in and the status endpoint reads. */
  store: MemoryIdempotencyStore;
  useSandbox(target: { url: string; applicationId: string }): void;
  stop(): Promise<void>;
}>;
