// A webhook receiver in an Express app. The handler reads the raw body itself, so its route
// comes before express.json(): a parsed and re-serialised body no longer matches its signature.
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000) and HOST (default 127.0.0.1): where it listens.
import express from 'express';
import { createWebhookHandler } from 'servicepay/webhook';
import type { WebhookNotification } from 'servicepay/webhook';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

// Your orders, by the merchantPaymentId the checkout used (a database in a real shop).
const orders = new Map<string, 'paid' | 'failed'>();

function recordOutcome(notification: WebhookNotification): void {
  const id = notification.merchantPaymentId;
  // The component always sends one; a notification without it did not come from your checkout.
  if (id == null) {
    console.warn(`payment ${notification.paymentId} has no merchantPaymentId: no order to update`);
    return;
  }
  orders.set(id, notification.paymentStatus === 'COMPLETED' ? 'paid' : 'failed');
}

const app = express();

app.put(
  '/webhooks/servicepay',
  createWebhookHandler({
    publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
    onNotification: recordOutcome,
  }),
);

// The rest of your API, with its JSON body parser, after the webhook route.
app.use(express.json());
app.get('/api/orders/:id', (req, res) => {
  const status = orders.get(req.params.id);
  if (status === undefined) res.status(404).json({ error: 'unknown order' });
  else res.json({ status });
});

app.listen(port, host, () => {
  console.log(`Receiving webhooks at http://${host}:${port}/webhooks/servicepay`);
});
