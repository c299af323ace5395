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
 * How long an order takes payment: 15 minutes, as a shop holds stock for a basket. After it the
 * order is closed: a payment that still arrives for it (a bank that took its time, a tab left
 * open) is money the shop must decide about, so the receiver records it for review
 * (`acceptsPayment: false`), and the page offers a fresh order.
 */
export const ORDER_WINDOW_MS = 15 * 60_000;

/**
 * An order as the page is told it, and as the shop keeps it: `open` until a payment that
 * matches it is confirmed (`paid`), or `needs-review` when a confirmed payment named it but did
 * not match it (another amount or reference, or it came after the order closed): money may
 * have moved, someone checks by hand. An open order closes at `closesAt` (an ISO time).
 * `attempts` are the merchantPaymentIds its checkout page reported (onPaymentInitiated), the
 * last one last; `payments` the ids of the payments the receiver heard for it, in the order
 * heard: with them the return page finds the order's payment when the bank dropped the query
 * (paymentToShow).
 * @typedef {{
 *   orderId: string, item: string, amount: number, currency: 'GBP', reference: string,
 *   closesAt: string, status: 'open' | 'paid' | 'needs-review',
 *   attempts: string[], payments: PaymentIds[]
 * }} Order
 */

/** @typedef {{ paymentId: string, merchantPaymentId: string }} PaymentIds */

/** The attempts an order keeps: the last ones, which are the ones a return page can be for. */
const MAX_ATTEMPTS = 20;

/**
 * A payment the receiver did not count for its order (`onMismatch`): the shop's log of what to
 * refund or check, e.g. a second payment of an order already paid (`already-paid`, `paidBy`).
 * @typedef {{
 *   paymentId: string, orderId: string | null, reason: string, paidBy: string | null
 * }} Review
 */

/** The fields of an order the page is given (not its status). */
const forPage = (
  /** @type {Order} */ { orderId, item, amount, currency, reference, closesAt },
) => ({ orderId, item, amount, currency, reference, closesAt });

/**
 * @param {{ windowMs?: number, now?: () => number }} [options] how long an order takes
 *   payment, and the clock (the tests' time scale)
 */
export function createOrderBook({ windowMs = ORDER_WINDOW_MS, now = Date.now } = {}) {
  /** @type {Map<string, Order>} */
  const orders = new Map();
  /** @type {Review[]} */
  const reviews = [];
  /**
   * The index of `order.payments`: the order each payment the receiver heard was for, by the
   * payment's id (written only by `heard`): what the status endpoint's `expose` reads.
   * @type {Map<string, string>}
   */
  const orderOfPayment = new Map();
  let number = FIRST_NUMBER;

  /** Whether an order still takes payment: open, and its window not over. */
  const takesPayment = (/** @type {Order} */ order) =>
    order.status === 'open' && now() < Date.parse(order.closesAt);

  return {
    orders,
    reviews,
    /**
     * A new order, or the open one asked for (the tab's own after a reload or "Try again",
     * or the order's address, `/?order=…`) while it still takes payment. A `reference`
     * is the example's way to try an invalid payment (`?reference=` on the checkout's
     * address): stored as given, even too long, so that the component is what refuses it.
     * @param {{ orderId?: unknown, reference?: unknown }} request
     * @returns {{ order: ReturnType<typeof forPage>, created: boolean }}
     */
    open({ orderId, reference }) {
      const existing = typeof orderId === 'string' ? orders.get(orderId) : undefined;
      if (reference === undefined && existing && takesPayment(existing)) {
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
        closesAt: new Date(now() + windowMs).toISOString(),
        status: 'open',
        attempts: [],
        payments: [],
      };
      orders.set(order.orderId, order);
      return { order: forPage(order), created: true };
    },

    /**
     * The receiver's `expectedPayment`: the order a notification names by its metadata's
     * orderId, as this server stored it, or null when it names none of ours. Looked up by the
     * order's own id and compared in full: a payment that names another order pays that order
     * only if it carries that order's amount and reference. Naming the order (`orderId`) lets
     * the receiver count one payment per order: a second tab's payment of a paid order is
     * recorded for review (`already-paid`), never paid twice. A closed order no longer takes
     * payment (`acceptsPayment`); a paid one is left to the receiver, which knows its payment.
     * @param {import('servicepay/webhook').WebhookNotification} notification
     * @returns {import('servicepay/webhook').ExpectedPayment | null}
     */
    expectedPayment(notification) {
      const order = orderOf(notification);
      if (!order) return null;
      const { orderId, amount, currency, reference, status } = order;
      return {
        orderId,
        amount,
        currency,
        reference,
        acceptsPayment: status === 'paid' || takesPayment(order),
      };
    },

    /**
     * The shop's side effect once a notification is verified: a COMPLETED one that reached
     * onNotification matched its order (the receiver checked it), so the order is paid.
     * @param {import('servicepay/webhook').WebhookNotification} notification
     */
    settle(notification) {
      const order = orderOf(notification);
      if (order) heard(order, notification);
      if (order && notification.paymentStatus === 'COMPLETED') order.status = 'paid';
    },

    /**
     * The status endpoint's `expose`: what was paid, for the result page, from the order this
     * server holds (never from what the shopper's browser sent). A payment that paid its order
     * paid its amount and reference, to this shop. One recorded for review did not match its
     * order, so its amount may not be the order's: only the order's reference, for the
     * shopper to quote to the shop (REVIEW_CONTACT, result.tsx).
     * @param {import('servicepay/webhook').PaymentOutcome} outcome
     * @param {string} payee the shop's name, as the shopper's bank showed it
     * @returns {import('servicepay/webhook').ExposedFields | undefined}
     */
    paid({ paymentId, status }, payee) {
      const order = orders.get(orderOfPayment.get(paymentId) ?? '');
      if (!order) return undefined;
      if (status === 'COMPLETED') {
        return { paid: { amount: order.amount, payee, reference: order.reference } };
      }
      if (status === 'NEEDS_REVIEW') return { paid: { reference: order.reference } };
      return undefined;
    },

    /**
     * A payment the order's checkout page began (its merchantPaymentId, from
     * onPaymentInitiated), reported by the shopper's browser: the server chose the order (the
     * session's), the browser only names the attempt.
     * @param {string} orderId
     * @param {string} merchantPaymentId
     */
    attempt(orderId, merchantPaymentId) {
      const order = orders.get(orderId);
      if (!order) return;
      order.attempts = [
        ...order.attempts.filter((id) => id !== merchantPaymentId),
        merchantPaymentId,
      ];
      order.attempts.splice(0, order.attempts.length - MAX_ATTEMPTS);
    },

    /**
     * The payment whose outcome the return page shows for an order when the bank dropped the
     * query: the last attempt the order's page reported, once the receiver has heard of it,
     * and until then `'waiting'`; `'none'` when the page reported no attempt (the first
     * checkout, whose tab saves its payment; or a report that was lost). An attempt's id comes
     * from the shopper's browser, so it only picks among the payments the receiver verified
     * for this order: a forged one makes the page wait, never shows another order's payment.
     * Not "the order's last payment": after a failed attempt and a second one still at the
     * bank, the page must wait for the second, not say "not completed".
     * @param {string} orderId
     * @returns {{ payment: PaymentIds } | 'waiting' | 'none'}
     */
    paymentToShow(orderId) {
      const order = orders.get(orderId);
      const last = order?.attempts.at(-1);
      if (!order || last === undefined) return 'none';
      const payment = order.payments.find((p) => p.merchantPaymentId === last);
      return payment ? { payment } : 'waiting';
    },

    /**
     * A confirmed payment the receiver did not count for its order (`onMismatch`): logged for a
     * person to refund or check. A paid order stays paid (a second payment of it is the one to
     * refund); any other is marked for review.
     * @param {import('servicepay/webhook').PaymentMismatch} mismatch
     */
    review({ notification, reason, paidBy }) {
      const order = orderOf(notification);
      if (order) heard(order, notification);
      if (order && order.status !== 'paid') order.status = 'needs-review';
      reviews.push({
        paymentId: notification.paymentId,
        orderId: order?.orderId ?? null,
        reason,
        paidBy,
      });
      const paid = paidBy ? ` (the order was paid by ${paidBy}: refund this one)` : '';
      console.log(
        `example shop: payment ${notification.paymentId} recorded for review: ${reason}${paid}`,
      );
    },
  };

  /**
   * Keeps the ids of a payment the receiver heard for `order` (verified, and naming it), once,
   * and indexes the payment's order by its id.
   * @param {Order} order
   * @param {import('servicepay/webhook').WebhookNotification} notification
   */
  function heard(order, { paymentId, merchantPaymentId }) {
    orderOfPayment.set(paymentId, order.orderId);
    if (typeof merchantPaymentId !== 'string') return;
    if (order.payments.some((p) => p.paymentId === paymentId)) return;
    order.payments.push({ paymentId, merchantPaymentId });
  }

  /** @param {import('servicepay/webhook').WebhookNotification} notification */
  function orderOf(notification) {
    const orderId = notification.paymentMetadata?.orderId;
    return typeof orderId === 'string' ? orders.get(orderId) : undefined;
  }
}
