// A webhook receiver on node:http. Each notification is verified on the exact bytes received,
// checked against the order it names, then handled once, however often the service resends it.
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000) and HOST (default 127.0.0.1): where it listens.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createWebhookHandler } from 'servicepay/webhook';
import type { WebhookNotification } from 'servicepay/webhook';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

// Your orders, made on this server (a database in a real shop): the amount and the reference
// are decided here, and the checkout pays them with metadata: { orderId }.
interface Order {
  orderId: string;
  amount: number;
  reference: string;
  status: 'open' | 'paid' | 'needs-review';
}
const orders = new Map<string, Order>();

function orderOf(notification: WebhookNotification): Order | undefined {
  const orderId = notification.paymentMetadata?.orderId;
  return typeof orderId === 'string' ? orders.get(orderId) : undefined;
}

const webhook = createWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  // The payment was made in the shopper's browser: a COMPLETED one that does not match its
  // order, or pays an order already paid, goes to onMismatch (recorded NEEDS_REVIEW), never to
  // onNotification.
  expectedPayment(notification) {
    const order = orderOf(notification);
    if (order === undefined) return null;
    const { orderId, amount, reference } = order;
    // orderId: one order, paid once; a paid order takes no other payment.
    return { amount, currency: 'GBP', reference, orderId, acceptsPayment: order.status !== 'paid' };
  },
  onMismatch({ notification, reason, paidBy }) {
    const order = orderOf(notification);
    // already-paid: the order stays paid, and this payment is to refund.
    if (order && order.status !== 'paid') order.status = 'needs-review';
    const refund = paidBy === null ? '' : `: refund it, ${paidBy} paid the order`;
    console.warn(`payment ${notification.paymentId} does not match its order (${reason})${refund}`);
  },
  // A FAILED payment leaves its order open, to be paid again.
  onNotification(notification) {
    const order = orderOf(notification);
    if (order && notification.paymentStatus === 'COMPLETED') order.status = 'paid';
  },
});

createServer((req, res) => {
  if (req.method === 'PUT' && req.url === '/webhooks/servicepay') return webhook(req, res);
  // Your checkout's API: the order to pay, decided here.
  if (req.method === 'POST' && req.url === '/api/orders') {
    const orderId = randomUUID();
    const reference = `ORDER-${1042 + orders.size}`;
    const order: Order = { orderId, amount: 12.5, reference, status: 'open' };
    orders.set(orderId, order);
    res.writeHead(201, { 'Content-Type': 'application/json' });
    return void res.end(
      JSON.stringify({ orderId, amount: order.amount, reference: order.reference }),
    );
  }
  res.writeHead(404).end();
}).listen(port, host, () => {
  console.log(`Receiving webhooks at http://${host}:${port}/webhooks/servicepay`);
});
