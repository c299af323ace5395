/**
 * What the merchant's `expose` may add to a final status's answer (status.ts asks it): `paid`,
 * what was paid, checked by the rule the result page reads it with (core/protocol.ts), and the
 * whole answer within the bytes the page reads. A value `expose` returned is data about the
 * shopper's order: the reports name the field and what is wrong with it, never the value.
 */
import {
  encodeStatusAnswer,
  MAX_STATUS_ANSWER_BYTES,
  PAYMENT_ID_RULE,
  receiptOf,
} from '../../core/protocol';
import type { PaymentReceipt, PaymentStatus } from '../../core/protocol';
import { WebhookConfigError } from '../errors';
import { decimalPence } from '../receiving/expected-payment';
import { keysOf, kindOf } from '../value-kinds';

/** `paid` as `expose` gives it: the amount may also be a decimal string, as a database gives it. */
export interface ExposedReceipt extends Omit<PaymentReceipt, 'amount'> {
  /**
   * The amount paid in pounds: a number (12.5) or a decimal string, as a database returns a
   * NUMERIC column ('12.50'); sent as a number.
   */
  amount?: number | string;
}

/** What `expose` returns: fields for a final status's answer, beside `status`. */
export interface ExposedFields {
  /**
   * What was paid, which the result page shows under "Payment received" and "We need to check
   * this payment": from the order your server holds, never from what the shopper's browser
   * sent. Sent with COMPLETED and NEEDS_REVIEW only; a field that breaks its rule is left out
   * and reported to `onError`.
   */
  paid?: ExposedReceipt;
  /** Any other field, for your own page's code (the result page reads only `status` and `paid`). */
  [field: string]: unknown;
}

/** Each field of `paid`'s rule (core/protocol.ts, PAID_RULES) in words, for its report. */
const RULE_WORDS: Record<keyof PaymentReceipt, string> = {
  amount:
    "must be a number of pounds above 0 in whole pence (12.5) or a decimal string ('12.50'), at most 13 digits of pounds",
  // The ids' rule.
  payee: PAYMENT_ID_RULE,
  reference: PAYMENT_ID_RULE,
};

/** What a field is, without its value: its kind, and a string's length. */
const described = (value: unknown) =>
  typeof value == 'string' ? `a string of ${value.length} characters` : kindOf(value);

/**
 * `paid` as the answer carries it: the fields that keep their rule (a decimal string amount as
 * a number), or undefined. Each field left out, and each key the page does not read, is
 * reported, naming the field and what it was.
 */
function paidOf(
  given: unknown,
  report: (error: unknown) => void,
  entry: string,
): PaymentReceipt | undefined {
  const refuse = (what: string) =>
    report(
      new WebhookConfigError(
        `${entry} expose returned paid ${what} (docs/after-the-bank.md, "What was paid").`,
        'expose',
      ),
    );
  if (given === null || typeof given != 'object' || Array.isArray(given)) {
    refuse(`as ${kindOf(given)}, not an object { amount?, payee?, reference? }: left out`);
    return undefined;
  }
  const fields = { ...given } as Record<string, unknown>;
  if (typeof fields.amount == 'string') {
    // NaN when not in whole pence, refused below as any other amount.
    const pence = decimalPence(fields.amount);
    if (pence !== undefined) fields.amount = pence / 100;
  }
  const receipt = receiptOf(fields);
  for (const [field, rule] of Object.entries(RULE_WORDS) as [keyof PaymentReceipt, string][]) {
    if (fields[field] !== undefined && receipt?.[field] === undefined) {
      refuse(
        `whose ${field} is ${described((given as Record<string, unknown>)[field])}, but it ${rule}: that field was left out`,
      );
    }
  }
  if (Object.keys(fields).some((key) => !(key in RULE_WORDS))) {
    refuse(
      `with a key the result page does not read (keys given: ${keysOf(fields)}; it reads amount, payee and reference)`,
    );
  }
  return receipt;
}

/**
 * The answer for a final status with `expose`'s fields: `paid` checked (and dropped for FAILED:
 * a payment that was not completed paid nothing), the whole within MAX_STATUS_ANSWER_BYTES,
 * which the return page reads at most (it drops a longer answer, and the shopper would see
 * "not heard"), else the status alone, with a report naming the bound. Fields that are no
 * JSON (a cycle, a BigInt) also leave the status alone.
 */
export function exposedAnswer(
  status: PaymentStatus,
  extra: ExposedFields | undefined,
  report: (error: unknown) => void,
  entry: string,
): string {
  // null too: plain JavaScript's "nothing to add".
  if (extra == null) return encodeStatusAnswer(status);
  let body: string;
  try {
    if (extra.paid !== undefined) {
      extra = {
        ...extra,
        paid: status === 'FAILED' ? undefined : paidOf(extra.paid, report, entry),
      };
    }
    body = encodeStatusAnswer(status, extra);
  } catch (error) {
    report(error);
    return encodeStatusAnswer(status);
  }
  const bytes = new TextEncoder().encode(body).length;
  if (bytes <= MAX_STATUS_ANSWER_BYTES) return body;
  report(
    new WebhookConfigError(
      `${entry} expose returned fields that make the answer ${bytes} bytes; the return page reads at most ${MAX_STATUS_ANSWER_BYTES}, so the status was sent without them. Expose fewer or shorter fields.`,
      'expose',
    ),
  );
  return encodeStatusAnswer(status);
}
