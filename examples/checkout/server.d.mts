// Types for the example server (plain ESM so that `npm start` runs it with node directly).
export declare function buildCheckoutBundle(): Promise<string>;

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
  webhookUrl: string;
  returnUrl: string;
  payments: Map<string, StoredPayment>;
  useSandbox(target: { url: string; applicationId: string }): void;
  stop(): Promise<void>;
}>;
