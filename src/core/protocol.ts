/**
 * The protocol facts the browser and the server halves share, each in one place: what a payment
 * id may be, the statuses a payment's outcome can have, the status endpoint's answer, and the
 * prefix of every developer message. Dependency-free, so that core, the webhook side and the
 * sandbox all import it (the webhook's lint rule names this module as one it may import).
 */

/** Every developer message starts with it (downshift's habit: the package name first). */
export const MESSAGE_PREFIX = 'servicepay: ';

/**
 * The library's own message to a merchant's developer: the one place where the prefix is
 * added. Never for what the spec writes (`Input validation error: …`) nor for a transport's
 * own error: those are passed on exactly as they are.
 */
export const said = (text: string): string => MESSAGE_PREFIX + text;

/** The longest id the component sends and the status endpoint looks up. */
export const MAX_ID_LENGTH = 200;

/**
 * The one rule for a paymentId or merchantPaymentId that the component sends and the result
 * page looks up: a string of 1 to 200 characters, not blank, with no control characters (they
 * do not survive the round trips through addresses, headers and logs). `createPayment`, the
 * saved payment and the status endpoint all apply it, so an id the component accepts always
 * finds its outcome. The receiver and the sandbox's payment endpoint do not: they accept any
 * non-empty string the service sends (spec 2.1).
 */
export const isPaymentId = (value: unknown): value is string =>
  typeof value == 'string' &&
  value.length <= MAX_ID_LENGTH &&
  // eslint-disable-next-line no-control-regex
  !/[\0-\x1f\x7f]/.test(value) &&
  !!value.trim();

/** The rule in words, for the spec's validation message. */
export const PAYMENT_ID_RULE = `must be a non-blank string of at most ${MAX_ID_LENGTH} characters without control characters`;

/**
 * A payment's recorded outcome, once its notification was handled:
 * - `COMPLETED`: the bank paid, and (with `expectedPayment`) the payment matches its order;
 * - `FAILED`: the payment did not complete;
 * - `NEEDS_REVIEW`: the bank reported COMPLETED but the payment does not match its order
 *   (another amount, currency or reference, or no order at all). Money may have moved, so it
 *   is neither a success nor a plain failure: the shop checks it by hand.
 */
export type FinalPaymentStatus = 'COMPLETED' | 'FAILED' | 'NEEDS_REVIEW';

/** What the status endpoint answers: a final status, or `PENDING` while none is recorded. */
export type PaymentStatus = 'PENDING' | FinalPaymentStatus;

const STATUSES: readonly string[] = ['PENDING', 'COMPLETED', 'FAILED', 'NEEDS_REVIEW'];

/** Whether `value` is one of the status endpoint's statuses. */
export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return STATUSES.includes(value as string);
}

/**
 * The most bytes of a status answer the result page reads: `{"status":"COMPLETED"}` is 22, so
 * room for the fields of `expose`; the endpoint sends no longer answer.
 */
export const MAX_STATUS_ANSWER_BYTES = 1024;

/** The status endpoint's JSON answer: `{"status":"COMPLETED"}` (extra fields before it). */
export function encodeStatusAnswer(
  status: PaymentStatus,
  extra?: Readonly<Record<string, unknown>>,
): string {
  return JSON.stringify({ ...extra, status });
}

/** The status in a status endpoint's answer, or undefined when the text is not such an answer. */
export function decodeStatusAnswer(text: string): PaymentStatus | undefined {
  try {
    const { status } = JSON.parse(text) as { status?: unknown };
    if (isPaymentStatus(status)) return status;
  } catch {
    // Not JSON, or null: no answer.
  }
}
