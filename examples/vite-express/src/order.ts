// The order to pay, as the shop's server made it (POST /api/orders in server.ts): the page shows
// its amount and reference and pays them with the order's id in the payment's metadata; it
// never decides them. The tab keeps the order's id, so that a reload or Try again pays the same
// order while it is still open.

/** What the server answers: the order to pay, not its status. */
export interface Order {
  orderId: string;
  amount: number;
  reference: string;
}

const KEY = 'shop:orderId';

/** The tab's order: its open one again, or a new one. Asked once per page (StrictMode too). */
export function loadOrder(): Promise<Order> {
  return (pending ??= fetchOrder());
}

let pending: Promise<Order> | undefined;

async function fetchOrder(): Promise<Order> {
  const response = await fetch('/api/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ orderId: sessionStorage.getItem(KEY) }),
  });
  if (!response.ok) throw new Error(`POST /api/orders answered ${response.status}`);
  const order = (await response.json()) as Order;
  sessionStorage.setItem(KEY, order.orderId);
  return order;
}
