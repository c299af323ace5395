// The shopper's order, as the shop's server made it (POST /api/orders, orders.mjs): the page
// shows its amount and reference and pays them, never decides them. The order last sent to the
// bank is kept for the tab (sessionStorage), so the result page can show it while the bank has
// not answered yet, and "Try again" or a reload pays the same order while it is still open.

import type { Order as ShopOrder } from './server.mjs';

/** The order as the server answers it: what to pay, not its status nor its payments. */
export type Order = Omit<ShopOrder, 'status' | 'attempts' | 'payments'>;

const KEY = 'example-coffee:order';

export function rememberOrder(order: Order): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(order));
  } catch {
    // Storage can be off (private modes, policies); the page then shows less, nothing breaks.
  }
}

/**
 * The checkout page the tab paid from (`/`, or `/hosted`, the same shop on servicepay/hosted),
 * where the result page's Try again goes back to.
 */
const CHECKOUT_KEY = 'example-coffee:checkout';

export function rememberCheckout(path: string): void {
  try {
    sessionStorage.setItem(CHECKOUT_KEY, path);
  } catch {
    // As above: without storage, Try again goes to the shop's first checkout.
  }
}

export function lastCheckout(): string {
  try {
    return sessionStorage.getItem(CHECKOUT_KEY) ?? '/';
  } catch {
    return '/';
  }
}

export function lastOrder(): Order | null {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Order | null;
  } catch {
    return null;
  }
}

/**
 * Asks the shop's server for the order to pay: the one the page's address names
 * (`?order=…`, the order's own address, as a link in an e-mail would give it), else the tab's,
 * while it still takes payment; otherwise a new one (and `fresh` always asks for a new one).
 * A `?reference=` on the page's address asks for a new order with that reference, as given:
 * the example's way to see the component refuse an invalid payment.
 */
export async function loadOrder({ fresh = false } = {}): Promise<Order> {
  const query = new URLSearchParams(window.location.search);
  const reference = query.get('reference');
  const orderId = fresh ? undefined : (query.get('order') ?? lastOrder()?.orderId);
  const response = await fetch('/api/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(reference === null || fresh ? { orderId } : { reference }),
  });
  if (!response.ok) throw new Error(`servicepay example: POST /api/orders: ${response.status}`);
  return (await response.json()) as Order;
}

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12.5 → "£12.50". */
export const formatAmount = (amount: number): string => POUNDS.format(amount);

const CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** An ISO time → "14:32", in the shopper's time zone. */
export const formatTime = (iso: string): string => CLOCK.format(new Date(iso));
