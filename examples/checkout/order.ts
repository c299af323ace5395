// The shopper's order, as the shop's server made it (POST /api/orders, orders.mjs): the page
// shows its amount and reference and pays them, never decides them. The order last sent to the
// bank is kept for the tab (sessionStorage), so the result page can show it while the bank has
// not answered yet, and "Try again" or a reload pays the same order while it is still open.

import type { Order as ShopOrder } from './server.mjs';

/** The order as the server answers it: what to pay, not its status. */
export type Order = Omit<ShopOrder, 'status'>;

const KEY = 'example-coffee:order';

export function rememberOrder(order: Order): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(order));
  } catch {
    // Storage can be off (private modes, policies); the page then shows less, nothing breaks.
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
 * Asks the shop's server for the order to pay: the tab's open one, or a new one. A
 * `?reference=` on the page's address asks for a new order with that reference, as given: the
 * example's way to see the component refuse an invalid payment.
 */
export async function loadOrder(): Promise<Order> {
  const reference = new URLSearchParams(window.location.search).get('reference');
  const response = await fetch('/api/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(reference === null ? { orderId: lastOrder()?.orderId } : { reference }),
  });
  if (!response.ok) throw new Error(`servicepay example: POST /api/orders: ${response.status}`);
  return (await response.json()) as Order;
}

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12.5 → "£12.50". */
export const formatAmount = (amount: number): string => POUNDS.format(amount);
