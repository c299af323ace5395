import type { ServiceError } from './events';
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
  /** The error to show, cleared by the next successful step. */
  error: ServiceError | null;
}

export function deriveStatus(s: Omit<SessionState, 'status'>): SessionStatus {
  if (s.paymentState === 'initiating') return 'initiating';
  if (s.institutionsState === 'failed') return 'error';
  if (s.listState !== 'closed') return s.institutionsState === 'ready' ? 'selecting' : 'loading';
  return s.paymentState === 'none' ? 'idle' : s.paymentState;
}
