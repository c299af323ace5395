// The shop's orders, made on its server: the amount and the reference are decided here, never
// by the page. A real shop keeps them in its database; this example keeps them in memory, on
// globalThis because Next.js loads route handlers and pages as separate module instances in one
// server process. The shopper's browser creates the payment (spec 2.3), so its amount,
// reference and metadata can be changed there: the webhook route compares every confirmed
// payment with the order its metadata names (expectedPayment) before the order counts as paid.
// Only a verified webhook marks an order paid: the shopper's return from the bank proves
// nothing (anyone can open the return address). The result page does not read them: it asks
// the status route, which the receiver's store answers (lib/store.ts).
import 'server-only';
import { randomUUID } from 'node:crypto';
import { isFinalNotification } from 'servicepay/webhook';
import type {
  ExpectedPayment,
  ExposedFields,
  PaymentMismatch,
  PaymentOutcome,
  WebhookNotification,
} from 'servicepay/webhook';

/** What the shop sells, at the price only the server decides. */
export const ITEM = { name: 'Single-origin coffee beans, 1 kg', amount: 12.5 } as const;

/** The shop's name, as the shopper's bank shows the payee. */
export const SHOP_NAME = 'Example Coffee Co.';

/**
 * How long an order takes payment: 15 minutes, as a shop holds stock for a basket. A payment
 * that still arrives after it (a bank that took its time) is recorded for review
 * (`acceptsPayment: false`), never counted as paid: the shop decides to fulfil or refund it.
 */
export const ORDER_WINDOW_MS = 15 * 60_000;

export interface Order {
  /** Random: the key a payment names its order by must not be guessable. */
  orderId: string;
  amount: number;
  currency: 'GBP';
  reference: string;
  /** When the order stops taking payment (an ISO time). */
  closesAt: string;
  /**
   * `needs-review`: a confirmed payment named it but did not match it, or came after it closed
   * (checked by hand).
   */
  status: 'open' | 'paid' | 'needs-review';
}

export interface PaymentRecord {
  paymentId: string;
  merchantPaymentId: string | null;
  /** The order it paid (COMPLETED) or was checked against (recorded for review), if ours. */
  orderId: string | null;
  status: 'paid' | 'not-completed' | 'needs-review';
  amount: number;
  reference: string | null;
  /** How many times the webhook route ran the handler for this payment (exactly once). */
  handled: number;
}

const shared = globalThis as typeof globalThis & {
  servicepayExampleOrders?: { orders: Map<string, Order>; payments: Map<string, PaymentRecord> };
};
const book = (shared.servicepayExampleOrders ??= { orders: new Map(), payments: new Map() });

/** A new order for the checkout page to pay: COFFEE-1042, COFFEE-1043, … */
export function createOrder(): Order {
  const order: Order = {
    orderId: randomUUID(),
    amount: ITEM.amount,
    currency: 'GBP',
    reference: `COFFEE-${1042 + book.orders.size}`,
    closesAt: new Date(Date.now() + ORDER_WINDOW_MS).toISOString(),
    status: 'open',
  };
  book.orders.set(order.orderId, order);
  return order;
}

/** The order a notification names by its metadata's orderId, if it is one of ours. */
function orderOf(notification: WebhookNotification): Order | undefined {
  const orderId = notification.paymentMetadata?.orderId;
  return typeof orderId === 'string' ? book.orders.get(orderId) : undefined;
}

/**
 * The webhook route's `expectedPayment`: the named order's amount, currency and reference as
 * this server stored them, or null for none of ours. Looked up by the order's own id and
 * compared in full, so a payment that names another order pays it only with its full amount.
 * Naming the order (`orderId`) has the receiver count one payment per order: a second payment
 * of a paid order is recorded for review (`already-paid`). An open order past its window no
 * longer takes payment (`acceptsPayment: false`, `order-closed`).
 */
export function expectedPayment(notification: WebhookNotification): ExpectedPayment | null {
  const order = orderOf(notification);
  if (!order) return null;
  const closed = order.status !== 'paid' && Date.now() >= Date.parse(order.closesAt);
  return {
    orderId: order.orderId,
    amount: order.amount,
    currency: order.currency,
    reference: order.reference,
    acceptsPayment: !closed,
  };
}

/**
 * The webhook route's `onMismatch`: a paid order stays paid (a second payment of it is the one
 * to refund); another is marked for a person to check.
 */
export function reviewOrder({ notification, reason, paidBy }: PaymentMismatch): void {
  const order = orderOf(notification);
  if (order && order.status !== 'paid') order.status = 'needs-review';
  book.payments.set(notification.paymentId, {
    ...paymentOf(notification),
    orderId: order?.orderId ?? null,
    status: 'needs-review',
    handled: 1,
  });
  const refund = paidBy ? `; the order was paid by ${paidBy}: refund this one` : '';
  console.log(`payment ${notification.paymentId} recorded for review: ${reason}${refund}`);
}

/**
 * Called by the webhook route with a verified notification: COMPLETED (it matched its order),
 * FAILED, or another status the service sends (SETTLED follows COMPLETED), which changes
 * nothing here.
 */
export function recordPayment(notification: WebhookNotification): void {
  if (!isFinalNotification(notification)) return;
  const order = orderOf(notification);
  if (order && notification.paymentStatus === 'COMPLETED') order.status = 'paid';
  const previous = book.payments.get(notification.paymentId);
  book.payments.set(notification.paymentId, {
    ...paymentOf(notification),
    orderId: order?.orderId ?? null,
    status: notification.paymentStatus === 'COMPLETED' ? 'paid' : 'not-completed',
    handled: (previous?.handled ?? 0) + 1,
  });
}

/** What the service's verified notification says of the payment. */
const paymentOf = (notification: WebhookNotification) => ({
  paymentId: notification.paymentId,
  merchantPaymentId: notification.merchantPaymentId ?? null,
  amount: notification.paymentRequest.amount,
  reference: notification.paymentRequest.reference ?? null,
});

/**
 * The status route's `expose`: what was paid, which the result page shows, from the order this
 * server holds (never from what the shopper's browser sent). A payment that paid its order paid
 * its amount and reference, to this shop. One recorded for review did not match its order, so
 * its amount may not be the order's: only the order's reference, for the shopper to quote.
 */
export function paidFor({ paymentId, status }: PaymentOutcome): ExposedFields | undefined {
  const orderId = book.payments.get(paymentId)?.orderId;
  const order = orderId ? book.orders.get(orderId) : undefined;
  if (!order) return undefined;
  if (status === 'COMPLETED') {
    return { paid: { amount: order.amount, payee: SHOP_NAME, reference: order.reference } };
  }
  if (status === 'NEEDS_REVIEW') return { paid: { reference: order.reference } };
  return undefined;
}
