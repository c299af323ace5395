/**
 * Paid orders: which payment paid each order, kept in the same store as the claims, so that an
 * order is paid once however many instances receive its payments (the once-per-order rule of
 * receiving/reconcile.ts, for expectedPayment answers that name an `orderId`).
 *
 * A store offers it with the two optional methods of OrderStore beside the IdempotencyStore
 * ones. The memory, PostgreSQL and Redis stores do. A custom store without them keeps
 * receiving webhooks as before, as long as expectedPayment names no order: one that does is
 * answered 500 with a message saying what the store lacks, every time, so that no order is
 * ever paid twice unnoticed (docs/stores.md, "A store of your own").
 */
import { kindOf } from '../value-kinds';
import { prefixed } from '../prefixed';

/**
 * The optional half of a store that records paid orders. Its rule is the kit's `order-claim`
 * (src/webhook/kit/rules.ts), checked when both methods are present.
 */
export interface OrderStore {
  /**
   * Atomically: unless an unexpired record says another payment paid `orderId`, records
   * `paymentId` as its payment for `ttlMs` milliseconds. Answers the paymentId that paid the
   * order (`paymentId` itself when the record is, or now is, its own).
   */
  claimOrder(orderId: string, paymentId: string, ttlMs: number): string | Promise<string>;
  /** The paymentId that paid `orderId` (an unexpired record), or null. */
  orderPaidBy(orderId: string): string | null | Promise<string | null>;
}

/** The OrderStore half of a store shared between instances (PostgreSQL, Redis): promises. */
export interface SharedOrderStore extends OrderStore {
  claimOrder(orderId: string, paymentId: string, ttlMs: number): Promise<string>;
  orderPaidBy(orderId: string): Promise<string | null>;
}

/** The methods a store needs for paid orders, by name. */
export const ORDER_METHODS = ['claimOrder', 'orderPaidBy'] as const;

/** How many of OrderStore's methods `store` has: 0, 1 (refused at creation) or 2. */
export function orderMethodsOf(store: unknown): number {
  return ORDER_METHODS.filter(
    (method) => typeof (store as Record<string, unknown> | null)?.[method] === 'function',
  ).length;
}

/** The receiver's view of a store's paid orders: answers checked, failures explained. */
export interface OrderBook {
  /** The paymentId that paid the order once this payment claimed it (this one, or the first). */
  claim(orderId: string, paymentId: string): Promise<string>;
  /** The paymentId that paid the order, or null. */
  paidBy(orderId: string): Promise<string | null>;
}

/**
 * The order book over `store`, or, for a store without OrderStore's methods, one whose every
 * call fails with an error saying so (the delivery is answered 500 and resent).
 */
export function orderBook(store: unknown, ttlMs: number): OrderBook {
  if (orderMethodsOf(store) < ORDER_METHODS.length) {
    const missing = (): Promise<never> => Promise.reject(new Error(NO_ORDER_METHODS));
    return { claim: missing, paidBy: missing };
  }
  const orders = store as OrderStore;
  return {
    async claim(orderId, paymentId) {
      const holder: unknown = await orders.claimOrder(orderId, paymentId, ttlMs);
      if (typeof holder === 'string' && holder !== '') return holder;
      throw new TypeError(
        prefixed(
          `the store's claimOrder answered ${kindOf(holder)}; it must answer the paymentId that paid the order (a non-empty string). Answered 500, so the service resends it.`,
        ),
      );
    },
    async paidBy(orderId) {
      const payer: unknown = await orders.orderPaidBy(orderId);
      if (payer === null || (typeof payer === 'string' && payer !== '')) return payer;
      throw new TypeError(
        prefixed(
          `the store's orderPaidBy answered ${kindOf(payer)}; it must answer the paymentId that paid the order (a non-empty string) or null. Answered 500, so the service resends it.`,
        ),
      );
    },
  };
}

const NO_ORDER_METHODS = prefixed(
  'expectedPayment named the payment\'s order (orderId), but the idempotency store has no claimOrder and orderPaidBy, so the receiver cannot make sure the order is paid once. Answered 500 and nothing recorded, so the service resends it. Use the memory, PostgreSQL or Redis store, give yours the two methods (docs/stores.md, "A store of your own"), or leave orderId out of the answer.',
);
