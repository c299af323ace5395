// The API server beside a Vite single-page app (docs/your-own-shop.md): the orders, made here;
// the webhook receiver, which pays an order only with a payment that matches it; the status
// endpoint on the receiver's store; and, in production, the built app.
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000) and HOST (default 127.0.0.1): where it listens.
import { randomUUID } from 'node:crypto';
import express from 'express';
import {
  MemoryIdempotencyStore,
  createPaymentStatusHandler,
  createWebhookHandler,
} from 'servicepay/webhook';
import type { WebhookNotification } from 'servicepay/webhook';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

// Your orders (a database in a real shop). The amount and the reference are decided here: the
// page is told them, and pays them with metadata: { orderId }.
interface Order {
  orderId: string;
  amount: number;
  reference: string;
  status: 'open' | 'paid';
}
const orders = new Map<string, Order>();
let nextNumber = 1042;

/** The order a payment names (the id this server made), or undefined: none of ours. */
function orderOf(notification: WebhookNotification): Order | undefined {
  const orderId = notification.paymentMetadata?.orderId;
  return typeof orderId === 'string' ? orders.get(orderId) : undefined;
}

// One store for both: the receiver records each payment's outcome in it, the status endpoint
// answers the result page from it. In memory for one process; several instances share
// createPostgresStore or createRedisStore (docs/stores.md).
const store = new MemoryIdempotencyStore();
const status = createPaymentStatusHandler({ store });

const app = express();

// Before express.json(): the receiver verifies the exact bytes the service signed.
app.put(
  '/webhooks/servicepay',
  createWebhookHandler({
    publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
    store,
    // The payment was made in the shopper's browser: it pays its order only with the order's
    // whole amount and reference, and only once (orderId); a paid order takes no other payment.
    expectedPayment(notification) {
      const order = orderOf(notification);
      if (order === undefined) return null;
      const { amount, reference, orderId } = order;
      return { amount, reference, orderId, acceptsPayment: order.status === 'open' };
    },
    // Recorded NEEDS_REVIEW, and the result page says the shop will check it: refund it
    // (already-paid: `paidBy` paid the order) or look at it.
    onMismatch({ notification, reason, paidBy }) {
      console.warn(`payment ${notification.paymentId} needs review: ${reason}`, paidBy ?? '');
    },
    // A COMPLETED here pays its order; a FAILED leaves it open, to be paid again.
    onNotification(notification) {
      const order = orderOf(notification);
      if (order === undefined || notification.paymentStatus !== 'COMPLETED') return;
      order.status = 'paid';
      console.info(`order ${order.reference}: paid by payment ${notification.paymentId}`);
    },
  }),
);

// The result page asks here (through Vite's proxy in development).
app.get('/api/payments/status', status);

// The rest of your API, with its JSON body parser, after the webhook route.
app.use(express.json());

// The order to pay: the tab's open one again (a reload, Try again), or a new one.
app.post('/api/orders', (req, res) => {
  const asked = orders.get(String(req.body?.orderId));
  const order: Order =
    asked?.status === 'open'
      ? asked
      : { orderId: randomUUID(), amount: 12.5, reference: `ORDER-${nextNumber++}`, status: 'open' };
  orders.set(order.orderId, order);
  res.json({ orderId: order.orderId, amount: order.amount, reference: order.reference });
});

// In production this server also serves the built app (npm run build): every other address is
// the single page, which picks its route from the path.
app.use(express.static('dist'));
app.get('/{*path}', (_req, res) => res.sendFile('index.html', { root: 'dist' }));

const server = app.listen(port, host, () => {
  console.info(`Shop API at http://${host}:${port}`);
});

// Shutting down: end the result pages' open event streams (they go on by polling), then close.
process.once('SIGTERM', () => {
  void status.close().then(() => server.close());
});
