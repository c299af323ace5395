import type { ServiceError } from './events';
import type { Handoff } from './handoff';
import type { Institution } from './transport';
import type { PreparedPayment } from './types';

/**
 * What the shopper sees, derived from the three regions of the session below. Exposed to CSS
 * as `data-state` on the component's root.
 */
export type SessionStatus =
  'idle' | 'loading' | 'selecting' | 'initiating' | 'awaiting-authorisation' | 'error';

/** The institution list fetch. */
export type FetchState = 'idle' | 'loading' | 'ready' | 'failed';
/** The bank list: `pending` was asked to open before the institutions arrived (spec 4.4). */
export type ListState = 'closed' | 'pending' | 'open';
/** The payment being started. */
export type PaymentState = 'none' | 'initiating' | 'awaiting-authorisation';
/**
 * What went wrong, in the shopper's terms (it picks the sentence shown; the developer's detail
 * is in `error` and went to `errorConsumer`): `unavailable` the shop's set-up stops payments
 * (nothing to retry), `load-failed` the banks could not be fetched (retry), `pay-failed` the
 * payment could not be started at the chosen bank (try again or choose another).
 */
export type Problem = 'unavailable' | 'load-failed' | 'pay-failed';

export interface SessionState {
  status: SessionStatus;
  institutionsState: FetchState;
  listState: ListState;
  paymentState: PaymentState;
  institutions: readonly Institution[];
  /** Whether the Pay button (and with it the shopper's bank choice) is enabled. */
  payButtonEnabled: boolean;
  /** The validated createPayment arguments, or null before a valid createPayment. */
  prepared: PreparedPayment | null;
  /** The merchantPaymentId the next payment will use (renewed on every payment_initiated). */
  merchantPaymentId: string;
  /** The institution of the payment being (or last) started. */
  selectedInstitution: Institution | null;
  /** The last error reported to `errorConsumer` (developer text), cleared by the next successful step. */
  error: ServiceError | null;
  /** What the shopper is told went wrong, or null. */
  problem: Problem | null;
  /** Whether the last `createPayment` was refused (Pay is disabled until a valid one). */
  paymentInvalid: boolean;
  /** The banks have been loading for more than a few seconds (the shopper is offered a retry). */
  slow: boolean;
  /**
   * The payment whose bank's address went to the shopper's phone instead of opening here (the
   * desktop handoff of `servicepay/extras`), until the bank step opens again or the shopper
   * continues here; null otherwise.
   */
  handoff: Handoff | null;
}

/** `s` with its status derived from its three regions: the rendered status is never set by hand. */
export const withStatus = (s: Omit<SessionState, 'status'>): SessionState => {
  (s as SessionState).status =
    s.paymentState === 'initiating'
      ? 'initiating'
      : s.institutionsState === 'failed'
        ? 'error'
        : s.listState !== 'closed'
          ? s.institutionsState === 'ready'
            ? 'selecting'
            : 'loading'
          : s.paymentState === 'none'
            ? 'idle'
            : s.paymentState;
  return s as SessionState;
};
