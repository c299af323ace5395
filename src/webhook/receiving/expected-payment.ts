/**
 * expectedPayment's answer: what the merchant's order expects of its payment, and the one check
 * that turns the answer into what reconciliation compares.
 *
 * The answer is often an order row straight from the merchant's database, so it is read as a
 * database gives it: node-postgres returns a NUMERIC column as a decimal string ('12.50') and a
 * nullable column as null. A decimal string is parsed into pence digit by digit, never through a
 * float. And it is data about the merchant's customers (an e-mail, an address beside the total):
 * the errors below name the field and what is wrong with it, and the keys given, never a value
 * (the merchant reads the value in their own database; a log line or a trace keeps it for ever).
 */
import { toPence } from '../../core/protocol';
import { keysOf, kindOf } from '../value-kinds';
import { prefixed } from '../prefixed';

/** What the merchant's order expects of its payment, as `expectedPayment` answers it. */
export interface ExpectedPayment {
  /**
   * The order's total in pounds: a number (12.5 or 12.50) or a decimal string, as a database
   * returns a NUMERIC column (`'12.50'`, `'12.5'`, `'1250.00'`), parsed exactly; compared in
   * whole pence.
   */
  amount: number | string;
  /**
   * The order's currency, compared ignoring case; null (a nullable column) is GBP too.
   * @default 'GBP'
   */
  currency?: string | null;
  /**
   * The reference the payment must carry; not compared when absent or null.
   * @default undefined (not compared)
   */
  reference?: string | null;
  /**
   * Your id of the order this payment is for: the receiver then records the first matching
   * COMPLETED as the order's payment, and a COMPLETED of another payment for it is
   * NEEDS_REVIEW (`already-paid`), across every instance sharing the store.
   * @default undefined (each payment is reconciled on its own, and an order may be paid twice)
   */
  orderId?: string;
  /**
   * Whether the order still takes payment: false once it expired or was cancelled, and a
   * COMPLETED for it is NEEDS_REVIEW (`order-closed`) unless it is the payment that paid it.
   * Only true or false.
   * @default true
   */
  acceptsPayment?: boolean;
}

/** What reconciliation compares, from an answer checked by expectationOf. */
export interface Expectation {
  /** The answer as expectedPayment gave it (PaymentMismatch's `expected`). */
  readonly answer: ExpectedPayment;
  /** The amount in whole pence; NaN when it is not a whole number of pence (12.499). */
  readonly pence: number;
  /** The currency in upper case. */
  readonly currency: string;
  /** The reference to compare, or null: not compared. */
  readonly reference: string | null;
  /** The order, or null: the once-per-order rule does not apply. */
  readonly orderId: string | null;
  /** acceptsPayment: false makes it closed. */
  readonly open: boolean;
}

/** Longest orderId taken: it becomes a key in the store (a PostgreSQL index entry, a Redis key). */
export const MAX_ORDER_ID_LENGTH = 256;

/**
 * A decimal as a database writes one: optional minus, digits, optional point and digits. At most
 * 13 digits of pounds, so that the pence are an exact integer (2^53 has 16 digits).
 */
const DECIMAL = /^(-?)(\d{1,13})(?:\.(\d+))?$/;

/**
 * The checked answer, null for no order, or a TypeError that names the field at fault and the
 * keys given (never a value): the receiver answers 500, so the service resends and it is asked
 * again once the code is fixed.
 */
export function expectationOf(value: unknown, paymentId: string): Expectation | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw answerError(paymentId, `answered ${kindOf(value)}`);
  }
  const answer = value as Record<string, unknown>;
  const fault = (problem: string) =>
    answerError(paymentId, `answered an object whose ${problem} (keys given: ${keysOf(answer)})`);
  const { amount, currency, reference, orderId, acceptsPayment } = answer;

  let pence: number;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) throw fault('amount is a number that is not finite');
    pence = toPence(amount);
  } else if (typeof amount === 'string') {
    const parsed = decimalPence(amount);
    if (parsed === undefined) {
      throw fault(
        "amount is a string that is not a decimal (digits, with a point and more digits: '12.50'; at most 13 digits of pounds)",
      );
    }
    pence = parsed;
  } else {
    throw fault(`amount is ${kindOf(amount)}, not a number of pounds or a decimal string`);
  }
  if (currency !== undefined && currency !== null && typeof currency !== 'string') {
    throw fault(`currency is ${kindOf(currency)}, not a string or null`);
  }
  if (reference !== undefined && reference !== null && typeof reference !== 'string') {
    throw fault(`reference is ${kindOf(reference)}, not a string or null`);
  }
  if (orderId !== undefined) {
    if (typeof orderId !== 'string') {
      throw fault(
        `orderId is ${kindOf(orderId)}, not a string (give String(id) for a number, or leave orderId out)`,
      );
    }
    if (orderId === '' || orderId.length > MAX_ORDER_ID_LENGTH) {
      throw fault(
        `orderId is a string of ${orderId.length} characters (1 to ${MAX_ORDER_ID_LENGTH})`,
      );
    }
  }
  if (acceptsPayment !== undefined && typeof acceptsPayment !== 'boolean') {
    throw fault(`acceptsPayment is ${kindOf(acceptsPayment)}, not true or false`);
  }
  return {
    answer: value as ExpectedPayment,
    pence,
    currency: (currency ?? 'GBP').toUpperCase(),
    reference: reference ?? null,
    orderId: orderId ?? null,
    open: acceptsPayment !== false,
  };
}

/**
 * The pence of a decimal string, digit by digit (no float on the way): NaN when it is not a
 * whole number of pence ('12.505'), undefined when it is no decimal at all. A number is turned
 * into pence by the protocol's toPence, the component's rule; a string is exact, so it has no
 * binary noise to forgive ('0.30000000000000004' is not whole pence).
 */
export function decimalPence(text: string): number | undefined {
  const match = DECIMAL.exec(text);
  if (match === null) return undefined;
  const [, minus, pounds, fraction = ''] = match;
  // Digits past the pence must be zeros ('12.500' from a NUMERIC(10,3) column is 1250).
  if (/[^0]/.test(fraction.slice(2))) return Number.NaN;
  const pence = Number(`${pounds}${fraction.slice(0, 2).padEnd(2, '0')}`);
  return minus === '' ? pence : -pence;
}

function answerError(paymentId: string, what: string): TypeError {
  return new TypeError(
    prefixed(
      `expectedPayment ${what} for payment ${paymentId}, but it must answer { amount, currency?, reference?, orderId?, acceptsPayment? } (amount a number of pounds or a decimal string) or null; answered 500, so the service resends it and it is asked again.`,
    ),
  );
}
