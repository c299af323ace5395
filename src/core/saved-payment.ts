/**
 * The payment this tab last sent to a bank, kept in `sessionStorage` so that the result page
 * finds it when the shopper comes back with no query string at all (some UK bank apps return
 * that way). Ids only: nothing personal, nothing that pays. `sessionStorage` belongs to one
 * tab and one origin and ends with the tab, which is exactly the shopper's journey to the bank
 * and back.
 */
import { isPaymentId } from './protocol';

/**
 * The `sessionStorage` key of the payment this tab sent to a bank: the session (session.ts)
 * saves `{ paymentId, merchantPaymentId }` there just before it opens the bank's page
 * (savePayment); the result page (result.ts) reads it back (takeReturnedPayment).
 */
export const SAVED_PAYMENT_KEY = 'servicepay:payment';

/** The two ids the status endpoint needs to answer about a payment. */
export interface PaymentIds {
  paymentId: string;
  merchantPaymentId: string;
}

/**
 * Where the result page keeps a pair it took from the return address, in a tab that started no
 * payment, for a later page of the tab whose address names none. Apart from the Pay component's:
 * a later address replaces it, but never the payment the tab started.
 */
const RETURNED_PAYMENT_KEY = 'servicepay:returned-payment';

/**
 * Saves the ids of the payment this tab sends to a bank (the session, just before it opens the
 * bank's page). Never throws:
 * storage may be missing (Node), blocked (privacy settings, sandboxed frames: reading
 * `sessionStorage` throws) or full, and the return address must then carry the ids.
 */
export function savePayment(ids: PaymentIds): void {
  try {
    sessionStorage.setItem(SAVED_PAYMENT_KEY, JSON.stringify(ids));
  } catch {
    // No storage: nothing is saved.
  }
}

/** The saved ids, or null when there are none or they are not two ids. Never throws. */
export function readSavedPayment(key = SAVED_PAYMENT_KEY): PaymentIds | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Partial<PaymentIds> | null;
    return checkIds(saved?.paymentId, saved?.merchantPaymentId);
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

/** The query parameters of the return address that name the payment (the sandbox's). */
const RETURN_PARAMS = ['paymentId', 'merchantPaymentId'] as const;

/**
 * The payment the result page follows, when the page was not told: the one this tab started
 * (saved by the Pay component), which a crafted link must not replace with someone else's paid
 * pair; else the return address's pair (a fresh tab, the phone after a QR handoff, a link in an
 * email), kept in the tab; else the pair an earlier address gave this tab, read only when the
 * address has none. The page's address then names the payment it follows (other parameters
 * kept), so that a reload, a bookmark or the address sent on finds it again, hours later, in
 * any tab (docs/decisions.md, "The return address names the payment"). Browser only; never
 * throws.
 */
export function takeReturnedPayment(): PaymentIds | null {
  const own = readSavedPayment();
  /** The address's pair (null when it names an unusable one); undefined when it names none. */
  let returned: PaymentIds | null | undefined;
  try {
    const url = new URL(location.href);
    const query = url.searchParams;
    if (RETURN_PARAMS.some((name) => query.has(name))) {
      returned = checkIds(query.get('paymentId'), query.get('merchantPaymentId'));
      // Written here, beside its reader; a storage that throws is caught below.
      if (!own && returned) sessionStorage.setItem(RETURNED_PAYMENT_KEY, JSON.stringify(returned));
    }
    const payment =
      own ?? (returned === undefined ? readSavedPayment(RETURNED_PAYMENT_KEY) : returned);
    if (payment && RETURN_PARAMS.some((name) => query.get(name) !== payment[name])) {
      RETURN_PARAMS.forEach((name) => query.set(name, payment[name]));
      history.replaceState(history.state, '', url.href);
    }
    return payment;
  } catch {
    // No location or history (not a browser), or storage blocked: what was found stands.
    return own ?? returned ?? null;
  }
}
