// @ts-check
// The example shop's orders, made on its server: the amount and the reference are decided here,
// and the page is told them (POST /api/orders). The shopper's browser still creates the payment
// at the service (spec 2.3), so everything in that payment can be changed with developer tools;
// the receiver therefore checks each COMPLETED notification against the order it names
// (expectedPayment) before the shop counts it as paid. A database in a real shop.
import { randomUUID } from 'node:crypto';

/** What the shop sells: one item, at a price only the server decides. */
export const ITEM = 'Single-origin coffee beans, 1\u00a0kg';
export const PRICE = 12.5;
/** The first order's number: its reference is ORDER-1042, the next ORDER-1043. */
const FIRST_NUMBER = 1042;

/**
 * An order as the page is told it, and as the shop keeps it: `open` until a payment that
 * matches it is confirmed (`paid`), or `needs-review` when a confirmed payment named it but did
 * not match it (another amount or reference): money may have moved, someone checks by hand.
 * @typedef {{
 *   orderId: string, item: string, amount: number, currency: 'GBP', reference: string,
 *   status: 'open' | 'paid' | 'needs-review'
 * }} Order
 */

/** The fields of an order the page is given (not its status). */
const forPage = (/** @type {Order} */ { orderId, item, amount, currency, reference }) => ({
  orderId,
  item,
  amount,
  currency,
  reference,
});

export function createOrderBook() {
  /** @type {Map<string, Order>} */
  const orders = new Map();
  let number = FIRST_NUMBER;

  return {
    orders,
    /**
     * A new order, or the open one the tab already has (a reload, "Try again"). A `reference`
     * is the example's way to try an invalid payment (`?reference=` on the checkout's
     * address): stored as given, even too long, so that the component is what refuses it.
     * @param {{ orderId?: unknown, reference?: unknown }} request
     * @returns {{ order: ReturnType<typeof forPage>, created: boolean }}
     */
    open({ orderId, reference }) {
      const existing = typeof orderId === 'string' ? orders.get(orderId) : undefined;
      if (reference === undefined && existing?.status === 'open') {
        return { order: forPage(existing), created: false };
      }
      /** @type {Order} */
      const order = {
        // Random, not the number: the key a payment names its order by must not be guessable.
        orderId: randomUUID(),
        item: ITEM,
        amount: PRICE,
        currency: 'GBP',
        reference: typeof reference === 'string' ? reference : `ORDER-${number++}`,
        status: 'open',
      };
      orders.set(order.orderId, order);
      return { order: forPage(order), created: true };
    },

    /**
     * The receiver's `expectedPayment`: the order a notification names by its metadata's
     * orderId, as this server stored it, or null when it names none of ours. Looked up by the
     * order's own id and compared in full: a payment that names another order pays that order
     * only if it carries that order's amount and reference.
     * @param {import('servicepay/webhook').WebhookNotification} notification
     */
    expectedPayment(notification) {
      const order = orderOf(notification);
      return order
        ? { amount: order.amount, currency: order.currency, reference: order.reference }
        : null;
    },

    /**
     * The shop's side effect once a notification is verified: a COMPLETED one that reached
     * onNotification matched its order (the receiver checked it), so the order is paid.
     * @param {import('servicepay/webhook').WebhookNotification} notification
     */
    settle(notification) {
      const order = orderOf(notification);
      if (order && notification.paymentStatus === 'COMPLETED') order.status = 'paid';
    },

    /**
     * A confirmed payment that does not match its order: the order stays unpaid, marked for
     * a person to check (and refund or chase the difference).
     * @param {import('servicepay/webhook').WebhookNotification} notification
     */
    review(notification) {
      const order = orderOf(notification);
      if (order && order.status !== 'paid') order.status = 'needs-review';
    },
  };

  /** @param {import('servicepay/webhook').WebhookNotification} notification */
  function orderOf(notification) {
    const orderId = notification.paymentMetadata?.orderId;
    return typeof orderId === 'string' ? orders.get(orderId) : undefined;
  }
}
