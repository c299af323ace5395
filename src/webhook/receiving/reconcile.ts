/**
 * Reconciliation: whether a COMPLETED notification pays for the order it names. The amount,
 * reference and merchantPaymentId of a payment are made in the shopper's browser, so a
 * genuine, signed COMPLETED may be for £0.01 against a £12.50 order: the signature proves the
 * service sent it, and only the merchant's own records can prove it pays for the right order.
 *
 * And an order is paid once. A shopper who pays in two tabs, or goes back and pays again after
 * a slow bank, makes two genuine payments that both match the order: when expectedPayment names
 * the order (`orderId`), the first matching COMPLETED claims it in the store (stores/orders.ts),
 * atomically across instances, and a COMPLETED of another payment for it is NEEDS_REVIEW
 * (`already-paid`), so that the merchant refunds it rather than ships twice.
 *
 * This module turns the merchant's hooks into the one call the dispatcher makes under a
 * notification's claim, and answers the final status to record for the payment (null: none).
 */
import { toPence } from '../../core/protocol';
import type { FinalPaymentStatus } from '../../core/protocol';
import type { Maybe } from '../maybe';
import { messageOf } from '../verification/encoding';
import { isFinalNotification } from '../verification/notification';
import type {
  FinalNotification,
  WebhookNotification,
  WebhookNotificationContext,
} from '../verification/notification';
import type { OrderBook } from '../stores/orders';
import { expectationOf } from './expected-payment';
import type { Expectation, ExpectedPayment } from './expected-payment';
import type { WebhookErrorContext } from './verdicts';
import { prefixed } from '../prefixed';

/**
 * Why a COMPLETED notification does not pay for its order, checked in this order:
 * `already-paid` (another payment paid the order), `order-closed` (acceptsPayment: false),
 * `no-order` (expectedPayment answered null), `currency`, `amount`, `reference`.
 */
export type PaymentMismatchReason =
  'already-paid' | 'order-closed' | 'no-order' | 'currency' | 'amount' | 'reference';

/** A COMPLETED notification that does not pay for its order: recorded NEEDS_REVIEW. */
export interface PaymentMismatch {
  /** The verified notification. */
  notification: FinalNotification;
  /**
   * The first reason found, checked in this order: already-paid, order-closed, no-order,
   * currency, amount, reference.
   */
  reason: PaymentMismatchReason;
  /** What expectedPayment answered (null for `no-order`). */
  expected: ExpectedPayment | null;
  /** For `already-paid`: the paymentId that paid the order first (refund this one); else null. */
  paidBy: string | null;
}

/**
 * Looks up the order behind a verified COMPLETED or FAILED notification: what it expects of its
 * payment, or null when no order matches.
 */
export type ExpectedPaymentLookup = (
  notification: FinalNotification,
  context: WebhookNotificationContext,
) => ExpectedPayment | null | Promise<ExpectedPayment | null>;

/**
 * expectedPayment's opt-out: COMPLETED notifications are taken at their word, unreconciled. A
 * value of the option itself, so that every receiver says what it decided (a receiver with
 * neither a lookup nor this does not compile).
 */
export const UNRECONCILED = 'unreconciled';

/** The receiver's reconciliation options (part of WebhookReceiverOptions). */
export interface ReconcileOptions {
  /**
   * Required: what the order behind a verified COMPLETED or FAILED notification expects, or
   * `'unreconciled'`, the decision to take COMPLETED notifications at their word (a test
   * double, a shop that checks each payment in its own onNotification), logged once when the
   * receiver is created, in every environment.
   *
   * The lookup answers `{ amount, currency?, reference?, orderId?, acceptsPayment? }` (a
   * database row's shapes are fine: a decimal string amount, a null currency), or null when no
   * order matches (look it up by the order id your server made and the page put in the
   * payment's metadata; compare the whole amount and reference, as this does, so a forged id
   * pays nothing). A COMPLETED that does not pay for its order (another payment paid it, it is
   * closed, or it differs) is recorded NEEDS_REVIEW, not COMPLETED, and goes to onMismatch
   * instead of onNotification. For a FAILED only `orderId` is read, to tell onNotification
   * whether the order is paid (`orderPaidBy`). Not consulted for other statuses. If it throws
   * or rejects, or answers something else, the service is answered 500 and resends.
   *
   * Left out in plain JavaScript, the receiver behaves as with `'unreconciled'` and logs the
   * same line.
   */
  expectedPayment: ExpectedPaymentLookup | typeof UNRECONCILED;
  /**
   * Told of a COMPLETED notification that does not pay for its order, once per notification
   * and under the same claim as onNotification (if it throws, the service is answered 500 and
   * its resend handled again). The delivery is answered 200: the notification is genuine, and a
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

/** Whether this process has said that a receiver takes COMPLETED notifications at their word. */
let told = false;

/** The handler the dispatcher calls, from the merchant's hooks and the store's paid orders. */
export function createNotificationHandler(
  onNotification: (n: WebhookNotification, c: WebhookNotificationContext) => void | Promise<void>,
  reconcile: ReconcileOptions,
  orders: OrderBook,
  report: Report,
): NotificationHandler {
  const { onMismatch } = reconcile;
  // Not a function: 'unreconciled', or (plain JavaScript) left out. Said now, at creation.
  const expectedPayment =
    typeof reconcile.expectedPayment === 'function' ? reconcile.expectedPayment : undefined;
  if (expectedPayment === undefined) tellUnreconciled();
  /** onNotification, then `status`. */
  const notify = async <S extends RecordedStatus>(
    n: WebhookNotification,
    c: WebhookNotificationContext,
    status: S,
  ): Promise<S> => {
    await onNotification(n, c);
    return status;
  };
  /** A COMPLETED that does not pay for its order: onMismatch (or onError), NEEDS_REVIEW. */
  const review = async (
    mismatch: PaymentMismatch,
    c: WebhookNotificationContext,
  ): Promise<'NEEDS_REVIEW'> => {
    if (onMismatch === undefined) {
      report(new Error(describeMismatch(mismatch)), {
        outcome: 'needs-review',
        status: 200,
        notification: mismatch.notification,
      });
    } else {
      await onMismatch(mismatch, c);
    }
    return 'NEEDS_REVIEW';
  };
  /** A COMPLETED checked against its order: what to record, after the hook it goes to. */
  const settle = async (
    n: FinalNotification,
    c: WebhookNotificationContext,
    expected: Expectation | null,
  ): Promise<FinalPaymentStatus> => {
    const reason = expected?.open === false ? 'order-closed' : differenceOf(n, expected);
    const mismatch = (why: PaymentMismatchReason, paidBy: string | null = null) =>
      review(
        { notification: n, reason: why, expected: expected?.answer ?? null, paidBy },
        paidFor(c, paidBy),
      );
    const orderId = expected?.orderId ?? null;
    if (orderId === null) return reason === null ? notify(n, c, 'COMPLETED') : mismatch(reason);
    // Only a COMPLETED that pays for its order claims it; any other asks who paid it, since a
    // resend of the payment that paid stays paid, whatever the order answers now (closed,
    // because it is paid).
    if (reason === null) {
      const holder = await orders.claim(orderId, n.paymentId);
      return holder === n.paymentId
        ? notify(n, paidFor(c, holder), 'COMPLETED')
        : mismatch('already-paid', holder);
    }
    const payer = await orders.paidBy(orderId);
    if (payer === n.paymentId) return notify(n, paidFor(c, payer), 'COMPLETED');
    return payer === null ? mismatch(reason) : mismatch('already-paid', payer);
  };
  return async (n, c) => {
    if (!isFinalNotification(n)) return notify(n, c, null);
    if (expectedPayment === undefined) return notify(n, c, n.paymentStatus);
    const answer = await lookUp(() => expectedPayment(n, c), n);
    const expected = expectationOf(answer, n.paymentId);
    if (n.paymentStatus === 'COMPLETED') return settle(n, c, expected);
    // FAILED is not reconciled (nothing was paid), but its handler must know whether another
    // attempt already paid the order, or it may cancel a paid order.
    const orderId = expected?.orderId ?? null;
    const paidBy = orderId === null ? null : await orders.paidBy(orderId);
    return notify(n, paidFor(c, paidBy), 'FAILED');
  };
}

/** The context with the order's payment, when there is one to tell. */
function paidFor(c: WebhookNotificationContext, paidBy: string | null): WebhookNotificationContext {
  return paidBy === null ? c : { ...c, orderPaidBy: paidBy };
}

/** What expectedPayment answers; its throw or rejection names the payment it was asked about. */
async function lookUp<T>(call: () => Maybe<T>, n: FinalNotification): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw lookUpFailed(n, error);
  }
}

function lookUpFailed(n: FinalNotification, cause: unknown): Error {
  return new Error(
    prefixed(
      `expectedPayment failed for payment ${n.paymentId} (${messageOf(cause)}); answered 500, so the service resends it and it is asked again.`,
    ),
    { cause },
  );
}

/**
 * The first difference between a COMPLETED notification and its order's amount, currency and
 * reference (no-order when there is no order), or null when it pays for it.
 */
export function differenceOf(
  notification: FinalNotification,
  expected: Expectation | null,
): PaymentMismatchReason | null {
  const request = notification.paymentRequest;
  if (expected === null) return 'no-order';
  if (expected.currency !== request.currency.toUpperCase()) return 'currency';
  if (!(expected.pence === toPence(request.amount))) return 'amount';
  if (expected.reference !== null && expected.reference !== request.reference) return 'reference';
  return null;
}

/** What the one line for onError says of each reason: never a value of the merchant's answer. */
const WHY: Record<PaymentMismatchReason, string> = {
  'already-paid': 'its order was already paid by another payment',
  'order-closed': 'its order no longer takes payment (acceptsPayment: false)',
  'no-order': 'no order matches it',
  currency: "its order's currency differs",
  amount: "its order's amount differs",
  reference: "its order's reference differs",
};

/**
 * One line for onError when there is no onMismatch. What the notification says is the service's
 * (and the shopper's browser's); what the order expects is the merchant's data, and never quoted.
 */
function describeMismatch({ notification: n, reason, paidBy }: PaymentMismatch): string {
  const paid = `${n.paymentRequest.amount} ${n.paymentRequest.currency}, reference ${JSON.stringify(n.paymentRequest.reference ?? null)}`;
  const by = paidBy === null ? '' : ` (${paidBy}): refund this one`;
  return prefixed(
    `payment ${n.paymentId} (merchantPaymentId ${JSON.stringify(n.merchantPaymentId ?? null)}) was COMPLETED for ${paid}, but ${WHY[reason]}${by} (mismatch: ${reason}); recorded NEEDS_REVIEW, not paid. Answered 200; pass onMismatch to handle these.`,
  );
}

/** What it says: what the receiver does, why it matters, and where the fix is told. */
const UNRECONCILED_LINE = prefixed(
  "this webhook receiver does not reconcile payments with your orders (expectedPayment is 'unreconciled' or not given): a COMPLETED notification is taken at its word, though its amount and reference were made in the shopper's browser. To check each payment against its order, pass expectedPayment a lookup of the order (docs/webhooks.md, \"Reconciliation: the money matches the order\").",
);

/**
 * Once per process, in every environment (production above all, where the money is real), when
 * a receiver that does not reconcile is created: a plain line, not an error, since it may be the
 * merchant's decision ('unreconciled'); once, since route modules and test suites create many.
 */
function tellUnreconciled(): void {
  if (told) return;
  told = true;
  console.warn(UNRECONCILED_LINE);
}
