/**
 * The protocol facts the browser and the server halves share, each in one place: what a payment
 * id may be, an amount in whole pence, the statuses a payment's outcome can have, the status
 * endpoint's answer, and the prefix of every developer message. Dependency-free, so that core, the webhook side and the
 * sandbox all import it (the webhook's lint rule names this module as one it may import).
 */

/** Every developer message starts with it (downshift's habit: the package name first). */
export const MESSAGE_PREFIX = 'servicepay: ';

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
 * An amount in pounds as whole pence, or NaN when it is not a whole number of pence (12.505,
 * 1e-7) or not finite. The one rule for both halves: the component refuses an amount that is
 * NaN here ("must have at most 2 decimal places") and sends `toPence(amount) / 100`, and
 * reconciliation compares a notification's amount with its order's in these pence.
 *
 * Binary floating point is tolerated, relative to the amount: a few units in the last place of
 * the value itself (2 ** -50 is 4 * Number.EPSILON), so 0.1 + 0.2 is 30 pence and
 * 134217895.61 is whole pence at any magnitude, while a third decimal is never noise (1.005
 * and 134217895.615 are NaN). An absolute tolerance would do neither: 1e-6 of a penny takes
 * 1e-9 as 0 pence and refuses large amounts whose error outgrows it.
 */
export function toPence(pounds: number): number {
  const pence = Math.round(pounds * 100);
  return Math.abs(pence / 100 - pounds) <= 2 ** -50 * Math.max(1, Math.abs(pounds)) ? pence : NaN;
}

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

/**
 * The final statuses the service itself reports, each in a webhook notification (spec 3): the
 * bank's answer, before reconciliation may make a COMPLETED one `NEEDS_REVIEW`. The webhook's
 * `FinalNotification` and the sandbox's payments carry it.
 */
export type WebhookPaymentStatus = Exclude<FinalPaymentStatus, 'NEEDS_REVIEW'>;

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
