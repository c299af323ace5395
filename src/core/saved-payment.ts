/**
 * The payment this tab last sent to a bank, kept in `sessionStorage` so that the result page
 * finds it when the shopper comes back with no query string at all (some UK bank apps return
 * that way). Ids only: nothing personal, nothing that pays. `sessionStorage` belongs to one
 * tab and one origin and ends with the tab, which is exactly the shopper's journey to the bank
 * and back.
 */
import { isPaymentId } from './protocol';

/**
 * The `sessionStorage` key: the session (session.ts) writes `{ paymentId, merchantPaymentId }`
 * there just before it opens the bank's page, guarded, as storage may be missing (Node),
 * blocked (privacy settings, sandboxed frames: reading `sessionStorage` throws) or full; the
 * result page (result.ts) reads it back.
 */
export const SAVED_PAYMENT_KEY = 'servicepay:payment';

/** The two ids the status endpoint needs to answer about a payment. */
export interface PaymentIds {
  paymentId: string;
  merchantPaymentId: string;
}

/** The saved ids, or null when there are none or they are not two ids. Never throws. */
export function readSavedPayment(): PaymentIds | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SAVED_PAYMENT_KEY) ?? 'null') as unknown;
    return checkIds(
      (saved as Partial<PaymentIds> | null)?.paymentId,
      (saved as Partial<PaymentIds> | null)?.merchantPaymentId,
    );
  } catch {
    return null;
  }
}

/**
 * Two ids of the one rule (protocol.ts), which createPayment and the status endpoint apply
 * too, or null. Untrusted: they come from an address anyone can type or from storage any
 * script of the origin can write, and are only ever sent to the status endpoint as query
 * parameters (never shown, never trusted for the outcome).
 */
export function checkIds(paymentId: unknown, merchantPaymentId: unknown): PaymentIds | null {
  return isPaymentId(paymentId) && isPaymentId(merchantPaymentId)
    ? { paymentId, merchantPaymentId }
    : null;
}
