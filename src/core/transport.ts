/** The service's environment a request is for. */
export type Environment = 'SANDBOX' | 'LIVE';
/** Which merchant callback the shopper returns to after authorisation (spec 2.2). */
export type AgentType = 'WEB_BROWSER' | 'MOBILE_APPLICATION';

/** A bank the shopper can pay from. */
export interface Institution {
  id: string;
  name: string;
  /** Absolute http(s) URL of the institution's logo. */
  iconUrl?: string;
  /**
   * `false`: the bank is down or refusing payments. It is shown, greyed out with a reason, and
   * cannot be paid (docs/http-contract.md). Anything else, or nothing: available.
   */
  available?: boolean;
}

/** What is sent to the backend to start a payment. */
export interface PaymentInitiation {
  environment: Environment;
  applicationId: string;
  institutionId: string;
  paymentRequest: { amount: number; currency: 'GBP'; reference: string };
  merchantPaymentId: string;
  paymentMetadata?: Record<string, unknown>;
  agentType: AgentType;
}

export interface InitiatedPayment {
  paymentId: string;
  /** Where the shopper authorises the payment; must be an absolute http(s) URL. */
  authorisationUrl: string;
}

/**
 * How the component talks to the service's backend. `createHttpTransport` implements it
 * over the JSON contract in docs/http-contract.md; tests and stories pass their own.
 * Reject with an Error whose message is what the shopper-facing error should say.
 */
export interface ServiceTransport {
  fetchInstitutions(
    req: { environment: Environment; applicationId: string },
    signal?: AbortSignal,
  ): Promise<Institution[]>;
  initiatePayment(req: PaymentInitiation, signal?: AbortSignal): Promise<InitiatedPayment>;
}
