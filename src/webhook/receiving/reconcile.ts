/**
 * Reconciliation: whether a COMPLETED notification pays for the order it names. The amount,
 * reference and merchantPaymentId of a payment are made in the shopper's browser, so a
 * genuine, signed COMPLETED may be for £0.01 against a £12.50 order: the signature proves the
 * service sent it, and only the merchant's own records can prove it pays for the right order.
 *
 * This module turns the merchant's hooks into the one call the dispatcher makes under a
 * notification's claim, and answers the final status to record for the payment (null: none).
 */
import type { FinalPaymentStatus } from '../../core/protocol';
import { describeValue } from '../../core/describe-value';
import { messageOf } from '../verification/encoding';
import { isFinalNotification } from '../verification/notification';
import type {
  FinalNotification,
  WebhookNotification,
  WebhookNotificationContext,
} from '../verification/notification';
import type { WebhookErrorContext } from './verdicts';

/** What the merchant's order expects of its payment, as `expectedPayment` answers it. */
export interface ExpectedPayment {
  /** The order's total in pounds (12.5 or 12.50); compared in whole pence. */
  amount: number;
  /**
   * The order's currency, compared ignoring case.
   * @default 'GBP'
   */
  currency?: string;
  /** The reference the payment must carry; not compared when absent or null. */
  reference?: string | null;
}

/** Why a COMPLETED notification does not pay for its order. */
export type PaymentMismatchReason = 'amount' | 'currency' | 'reference' | 'no-order';

/** A COMPLETED notification that does not match its order: recorded NEEDS_REVIEW. */
export interface PaymentMismatch {
  /** The verified notification. */
  notification: FinalNotification;
  /** The first difference found, checked in this order: no-order, currency, amount, reference. */
  reason: PaymentMismatchReason;
  /** What expectedPayment answered (null for `no-order`). */
  expected: ExpectedPayment | null;
}

/** The receiver's reconciliation options (part of WebhookReceiverOptions). */
export interface ReconcileOptions {
  /**
   * What the order behind a verified COMPLETED notification expects: `{ amount, currency?,
   * reference? }`, or null when no order matches (look it up by the order id your server made
   * and the page put in the payment's metadata; compare the whole amount and reference, as this
   * does, so a forged id pays nothing). A notification that does not match is recorded NEEDS_REVIEW, not
   * COMPLETED, and goes to onMismatch instead of onNotification. Not consulted for other
   * statuses (a FAILED paid nothing). If it throws or rejects, the service is answered 500 and
   * resends.
   * @default undefined (notifications are not reconciled; warns once in development)
   */
  expectedPayment?: (
    notification: FinalNotification,
    context: WebhookNotificationContext,
  ) => ExpectedPayment | null | Promise<ExpectedPayment | null>;
  /**
   * Told of a COMPLETED notification that does not match its order, once per notification and
   * under the same claim as onNotification (if it throws, the service is answered 500 and its
   * resend handled again). The delivery is answered 200: the notification is genuine, and a
   * resend would not change it.
   * @default undefined (the mismatch is reported through onError)
   */
  onMismatch?: (
    mismatch: PaymentMismatch,
    context: WebhookNotificationContext,
  ) => void | Promise<void>;
}

/** The final status a handled notification leaves for its payment; null: it decides none. */
export type RecordedStatus = FinalPaymentStatus | null;

/** Runs the merchant's code for a claimed notification; answers the status to record. */
export type NotificationHandler = (
  notification: WebhookNotification,
  context: WebhookNotificationContext,
) => Promise<RecordedStatus>;

type Report = (error: unknown, context: WebhookErrorContext) => void;

let warned = false;

/** The handler the dispatcher calls, from the merchant's hooks. */
export function createNotificationHandler(
  onNotification: (n: WebhookNotification, c: WebhookNotificationContext) => void | Promise<void>,
  reconcile: ReconcileOptions,
  report: Report,
): NotificationHandler {
  const { expectedPayment, onMismatch } = reconcile;
  /** onNotification, then `status`. */
  const notify = async <S extends RecordedStatus>(
    n: WebhookNotification,
    c: WebhookNotificationContext,
    status: S,
  ): Promise<S> => {
    await onNotification(n, c);
    return status;
  };
  /** A COMPLETED checked against its order: what to record, after the hook it goes to. */
  const settle = async (
    n: FinalNotification,
    c: WebhookNotificationContext,
    expected: unknown,
  ): Promise<FinalPaymentStatus> => {
    const mismatch = mismatchOf(n, checkExpected(expected, n));
    if (mismatch === null) return notify(n, c, 'COMPLETED');
    if (onMismatch === undefined) {
      report(new Error(describeMismatch(mismatch)), {
        outcome: 'needs-review',
        status: 200,
        notification: n,
      });
    } else {
      await onMismatch(mismatch, c);
    }
    return 'NEEDS_REVIEW';
  };
  return async (n, c) => {
    if (!isFinalNotification(n)) return notify(n, c, null);
    if (n.paymentStatus === 'FAILED') return notify(n, c, 'FAILED');
    if (expectedPayment === undefined) {
      warnUnreconciled();
      return notify(n, c, 'COMPLETED');
    }
    return settle(n, c, await lookUp(() => expectedPayment(n, c), n));
  };
}

/** What expectedPayment answers; its throw or rejection names the payment it was asked about. */
async function lookUp<T>(call: () => T | Promise<T>, n: FinalNotification): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw lookUpFailed(n, error);
  }
}

function lookUpFailed(n: FinalNotification, cause: unknown): Error {
  return new Error(
    `servicepay: expectedPayment failed for payment ${n.paymentId} (${messageOf(cause)}); answered 500, so the service resends and it is asked again.`,
    { cause },
  );
}

/** The expected payment as given, or an error naming what expectedPayment must answer. */
function checkExpected(value: unknown, n: FinalNotification): ExpectedPayment | null {
  if (value === null || value === undefined) return null;
  const { amount, currency, reference } = value as Partial<ExpectedPayment>;
  if (
    typeof amount === 'number' &&
    Number.isFinite(amount) &&
    (currency === undefined || typeof currency === 'string') &&
    (reference === undefined || reference === null || typeof reference === 'string')
  ) {
    return value as ExpectedPayment;
  }
  throw new TypeError(
    `servicepay: expectedPayment must answer { amount, currency?, reference? } (amount a number of pounds) or null for payment ${n.paymentId}, got ${describeValue(value)}; answered 500, so the service resends it.`,
  );
}

/** Whole pence, or NaN for an amount that is not a whole number of pence (12.499). */
export function toPence(amount: number): number {
  const pence = Math.round(amount * 100);
  // Binary floating point: 0.1 + 0.2 is 30.000000000000004 pence, still 30.
  return Math.abs(amount * 100 - pence) < 1e-6 ? pence : Number.NaN;
}

/** The first difference between a COMPLETED notification and its order, or null. */
export function mismatchOf(
  notification: FinalNotification,
  expected: ExpectedPayment | null,
): PaymentMismatch | null {
  const request = notification.paymentRequest;
  const reason: PaymentMismatchReason | null =
    expected === null
      ? 'no-order'
      : (expected.currency ?? 'GBP').toUpperCase() !== request.currency.toUpperCase()
        ? 'currency'
        : !(toPence(expected.amount) === toPence(request.amount))
          ? 'amount'
          : expected.reference != null && expected.reference !== request.reference
            ? 'reference'
            : null;
  return reason === null ? null : { notification, reason, expected };
}

/** One line for onError when there is no onMismatch. */
function describeMismatch({ notification: n, reason, expected }: PaymentMismatch): string {
  const paid = `${n.paymentRequest.amount} ${n.paymentRequest.currency}, reference ${JSON.stringify(n.paymentRequest.reference ?? null)}`;
  const wanted =
    expected === null
      ? 'no order matches it'
      : `its order expects ${expected.amount} ${expected.currency ?? 'GBP'}${expected.reference != null ? `, reference ${JSON.stringify(expected.reference)}` : ''}`;
  return `servicepay: payment ${n.paymentId} (merchantPaymentId ${JSON.stringify(n.merchantPaymentId ?? null)}) was COMPLETED for ${paid}, but ${wanted} (mismatch: ${reason}); recorded NEEDS_REVIEW, not paid. Answered 200; pass onMismatch to handle these.`;
}

/** Once per process, in development: COMPLETED notifications are taken at their word. */
function warnUnreconciled(): void {
  if (warned) return;
  warned = true;
  // globalThis: web runtimes may have no `process` at all.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  if (env?.NODE_ENV === 'production') return;
  console.warn(
    'servicepay: webhook notifications are not reconciled with your orders: a COMPLETED payment is taken at its word, though its amount and reference were made in the shopper\'s browser. Pass expectedPayment to createWebhookHandler / createFetchWebhookHandler (docs/webhooks.md, "Reconciliation").',
  );
}
