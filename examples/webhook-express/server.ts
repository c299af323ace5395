// A webhook receiver in an Express app. The handler reads the raw body itself, so its route
// comes before express.json(): a parsed and re-serialised body no longer matches its signature.
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000) and HOST (default 127.0.0.1): where it listens.
import { randomUUID } from 'node:crypto';
import express from 'express';
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

const app = express();

app.put(
  '/webhooks/servicepay',
  createWebhookHandler({
    publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
    // The signature proves the service sent it; the order proves it pays the right amount.
    // The payment was made in the shopper's browser, so a COMPLETED one that does not match
    // its order goes to onMismatch (recorded NEEDS_REVIEW), never to onNotification.
    // And an order is paid once (orderId): a second payment of it is set aside for a refund.
    expectedPayment(notification) {
      const order = orderOf(notification);
      if (order === undefined) return null;
      const { orderId, amount, reference } = order;
      return {
        amount,
        currency: 'GBP',
        reference,
        orderId,
        acceptsPayment: order.status !== 'paid',
      };
    },
    onMismatch({ notification, reason }) {
      const order = orderOf(notification);
      // already-paid: the order stays paid, and this payment is to refund.
      if (order && order.status !== 'paid') order.status = 'needs-review';
      console.warn(`payment ${notification.paymentId} needs review (${reason})`);
    },
    // A FAILED payment leaves its order open, to be paid again.
    onNotification(notification) {
      const order = orderOf(notification);
      if (order && notification.paymentStatus === 'COMPLETED') order.status = 'paid';
    },
  }),
);

// The rest of your API, with its JSON body parser, after the webhook route.
app.use(express.json());
app.post('/api/orders', (_req, res) => {
  const orderId = randomUUID();
  const reference = `ORDER-${1042 + orders.size}`;
  const order: Order = { orderId, amount: 12.5, reference, status: 'open' };
  orders.set(orderId, order);
  res.status(201).json({ orderId, amount: order.amount, reference: order.reference });
});
app.get('/api/orders/:id', (req, res) => {
  const order = orders.get(req.params.id);
  if (order === undefined) res.status(404).json({ error: 'unknown order' });
  else res.json({ status: order.status });
});

app.listen(port, host, () => {
  console.log(`Receiving webhooks at http://${host}:${port}/webhooks/servicepay`);
});
