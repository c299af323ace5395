// A webhook receiver whose idempotency store is Redis, shared by every instance, beside the
// shop's orders in the same server (a hash per order: order:<id> with total, reference and
// status). The checkout made each order on the server and paid it with metadata: { orderId };
// a payment counts only when its order says it pays for it.
// REDIS_URL: the server (set maxmemory-policy noeviction and appendonly yes: docs/stores.md).
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000): where it listens.
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createWebhookHandler } from 'servicepay/webhook';
import type { WebhookNotification } from 'servicepay/webhook';
import { createRedisStore } from 'servicepay/webhook/redis';

const client = createClient({ url: process.env.REDIS_URL });
// When its connection drops (CLIENT KILL, a restart, a failover) the client emits 'error' and
// reconnects by itself, but an 'error' event with no listener ends the process: log it, don't
// exit.
client.on('error', (error: Error) => console.error('Redis connection lost:', error.message));
await client.connect();

// The order the page paid: the id your server made, never the payment's merchantPaymentId,
// which the page renews after every attempt.
const orderIdOf = ({ paymentMetadata }: WebhookNotification) =>
  typeof paymentMetadata?.orderId === 'string' ? paymentMetadata.orderId : null;

const handler = createWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  store: createRedisStore({ client }),
  // What the order expects: a COMPLETED for another amount or reference, for an order already
  // paid by another payment, or for a closed order goes to onMismatch, never onNotification.
  async expectedPayment(notification) {
    const orderId = orderIdOf(notification);
    if (orderId === null) return null;
    const order = await client.hGetAll(`order:${orderId}`);
    if (order.total === undefined) return null;
    return {
      amount: order.total, // a decimal string ('12.50'), taken as it comes
      reference: order.reference ?? null,
      orderId, // one order, paid once, across every instance
      acceptsPayment: order.status === 'open',
    };
  },
  async onMismatch({ notification, reason, paidBy }) {
    // already-paid: refund it (paidBy paid the order); the other reasons: look at it.
    console.warn(`payment ${notification.paymentId} needs review (${reason})`, paidBy ?? '');
  },
  // A COMPLETED here pays its order; a FAILED leaves the order open, to be paid again.
  async onNotification(notification) {
    const orderId = orderIdOf(notification);
    if (orderId === null || notification.paymentStatus !== 'COMPLETED') return;
    await client.hSet(`order:${orderId}`, 'status', 'paid');
  },
});

const port = Number(process.env.PORT ?? 3000);
createServer(handler).listen(port, '127.0.0.1', () => {
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/`);
});
