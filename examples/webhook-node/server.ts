// A webhook receiver on node:http. Each notification is verified on the exact bytes received,
// then handled once, however often the service resends it.
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000) and HOST (default 127.0.0.1): where it listens.
import { createServer } from 'node:http';
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

const webhook = createWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  onNotification: recordOutcome,
});

createServer((req, res) => {
  if (req.method === 'PUT' && req.url === '/webhooks/servicepay') return webhook(req, res);
  res.writeHead(404).end();
}).listen(port, host, () => {
  console.log(`Receiving webhooks at http://${host}:${port}/webhooks/servicepay`);
});
