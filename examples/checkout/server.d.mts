// Types for the example server (plain ESM so that `npm start` runs it with node directly).
import type { MemoryIdempotencyStore } from 'servicepay/webhook';

export declare function buildCheckoutBundle(): Promise<string>;

/** The shop's own record of a payment, written by its onNotification. */
export interface StoredPayment {
  paymentId: string;
  merchantPaymentId: string | null;
  paymentStatus: 'COMPLETED' | 'FAILED';
  errorDescription: string | null;
  amount: number;
  reference: string | null;
  timesProcessed: number;
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
  /** The store the receiver records outcomes in and the status endpoint reads. */
  store: MemoryIdempotencyStore;
  useSandbox(target: { url: string; applicationId: string }): void;
  stop(): Promise<void>;
}>;
