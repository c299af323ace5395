/**
 * The protocol facts the browser and the server halves share, each in one place: what a payment
 * id may be, an amount in whole pence, the statuses a payment's outcome can have, the status
 * endpoint's answer (with what was paid), and the prefix of every developer message.
 * Dependency-free, so that core, the webhook side and the sandbox all import it (the webhook's
 * lint rule names this module as one it may import).
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
 * What was paid, as a status answer's `paid` field tells it: added by the merchant's `expose`
 * from the order their server holds, never by the endpoint itself. The result page shows it
 * under a final heading (`received`, `needs-review`) as "Amount £12.50 / Paid to … / Reference
 * …". Each field may be left out; a field that breaks its rule is dropped (by the endpoint,
 * which reports it, and again by the page), never shown.
 */
export interface PaymentReceipt {
  /**
   * The amount paid in pounds, as a payment's amount is everywhere (12.5): more than 0, in
   * whole pence. Shown as the shopper's language writes it (£12.50).
   */
  amount?: number;
  /**
   * Whom it was paid to, as the shopper's bank shows it: the shop's name. By the ids' rule: 1
   * to 200 characters, not blank, no control characters.
   */
  payee?: string;
  /** The payment's reference, as the shopper's bank statement shows it; by the same rule. */
  reference?: string;
}

/**
 * The rule of each field of `paid`: the amount more than 0 in whole pence, under 2^53 of them
 * (written exactly); the texts by the ids' rule, which keeps out blank text and the control
 * characters that could break a line of it.
 */
export const PAID_RULES: Readonly<Record<keyof PaymentReceipt, (value: unknown) => boolean>> = {
  amount: (value) => typeof value == 'number' && value > 0 && toPence(value) < 2 ** 53,
  payee: isPaymentId,
  reference: isPaymentId,
};

/**
 * The fields of `value` (any JSON value) that keep their rule, or undefined when none does:
 * what the page shows of a status answer's `paid`, and what the endpoint sends of `expose`'s.
 */
export function receiptOf(value: unknown): PaymentReceipt | undefined {
  const receipt: Record<string, unknown> = {};
  for (const field in PAID_RULES) {
    const given = (value as Record<string, unknown> | null | undefined)?.[field];
    if (PAID_RULES[field as keyof PaymentReceipt](given)) receipt[field] = given;
  }
  return Object.keys(receipt).length ? receipt : undefined;
}

/** A status endpoint's answer as the result page reads it. */
export interface StatusAnswerFields {
  status: PaymentStatus;
  /** What was paid, when the answer carries a `paid` with at least one well-formed field. */
  paid?: PaymentReceipt;
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

/**
 * The status in a status endpoint's answer, and what was paid when it says (malformed parts of
 * `paid` left out), or undefined when the text is not such an answer. Every other field is
 * the merchant's own, for their own page: not read here.
 */
export function decodeStatusAnswer(text: string): StatusAnswerFields | undefined {
  try {
    const { status, paid } = JSON.parse(text) as { status?: unknown; paid?: unknown };
    if (isPaymentStatus(status)) return { status, paid: receiptOf(paid) };
  } catch {
    // Not JSON, or null: no answer.
  }
}
