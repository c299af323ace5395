import type { ServiceError, ServiceEventName } from './events';
import type { PaymentIds } from './saved-payment';
import type { AgentType, Environment, ServiceTransport } from './transport';

// Environment and AgentType are the wire's words (./transport), re-exported for their importers.
export type { AgentType, Environment };

/** The argument of `createPayment` (spec 2.3). The currency is always GBP. */
export interface PaymentArgs {
  /** Amount in GBP: a number greater than 0 with at most two decimal places. */
  amount: number;
  /** Reference shown to the shopper in their banking app: 1 to 18 characters. */
  paymentReference: string;
  /**
   * Your id for this payment, returned in the webhook. Optional: a new unique one is
   * generated for every payment when omitted (spec 4.4 rule 4).
   */
  merchantPaymentId?: string;
  /** A JSON object (nesting allowed), at most 5000 characters serialised. Returned in the webhook. */
  metadata?: Record<string, unknown>;
  /** Overrides the `agentType` option for this payment. */
  agentType?: AgentType;
}

/** A validated payment, ready to be sent. */
export interface PreparedPayment {
  amount: number;
  reference: string;
  /** The merchant's own id for the next payment, when it gave one. */
  merchantPaymentId: string | undefined;
  metadata: Record<string, unknown> | undefined;
  agentType: AgentType | undefined;
}

/** What `onPaymentInitiated` receives, so the payment can be matched with its webhook. */
export interface PaymentInitiatedDetails {
  merchantPaymentId: string;
  institutionId: string;
}

/** The behaviour options of a payment session (spec 2.2, plus transport hooks). */
export interface SessionOptions {
  /** Environment the component connects to. */
  environment: Environment;
  /** Application id (UUID form) for the selected environment. */
  applicationId: string;
  /**
   * When true the Pay button is disabled at initialisation until `toggleButton(true)`.
   * @default false
   */
  disablePayButton?: boolean;
  /**
   * Appends `#OPEN_AS_APPLINK` to the authorisation URL, for Android WebView hosts (spec 4.4
   * rule 3). Never on iOS.
   * @default false
   */
  isWebView?: boolean;
  /**
   * Which merchant callback the shopper returns to after authorisation.
   * @default 'WEB_BROWSER'
   */
  agentType?: AgentType;
  /** Called for every component event (spec 6.2). */
  eventConsumer?: (event: ServiceEventName) => void;
  /** Called for every error (spec 2.4). */
  errorConsumer?: (error: ServiceError) => void;
  /** Backend calls go through this transport. Overrides `baseUrl`. */
  transport?: ServiceTransport;
  /**
   * Address of a backend serving the ServicePay HTTP contract (docs/http-contract.md).
   * @default 'http://127.0.0.1:4010' for SANDBOX (the local sandbox); none for LIVE
   */
  baseUrl?: string;
  /**
   * Opens the bank's authorisation URL (only http(s) URLs are ever passed), with the ids of
   * the payment it authorises.
   * @default (url) => window.location.assign(url)
   */
  openUrl?: (url: string, payment: PaymentIds) => void;
  /**
   * Makes the merchantPaymentId of each next payment.
   * @default crypto.randomUUID
   */
  generateMerchantPaymentId?: () => string;
  /** Called with the merchantPaymentId each payment used, right after `payment_initiated`. */
  onPaymentInitiated?: (details: PaymentInitiatedDetails) => void;
  /**
   * The createPayment arguments, given declaratively. Re-applied only when their value
   * changes (a new object with the same content does nothing).
   */
  payment?: PaymentArgs;
}
