// A webhook receiver whose idempotency store is Redis, shared by every instance.
// REDIS_URL: the server (set maxmemory-policy noeviction and appendonly yes: docs/stores.md).
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000): where it listens.
import { createServer } from 'node:http';
import { createClient } from 'redis';
import { createWebhookHandler } from 'servicepay/webhook';
import { createRedisStore } from 'servicepay/webhook/redis';

const client = createClient({ url: process.env.REDIS_URL });
// When its connection drops (CLIENT KILL, a restart, a failover) the client emits 'error' and
// reconnects by itself, but an 'error' event with no listener ends the process: log it, don't
// exit.
client.on('error', (error: Error) => console.error('Redis connection lost:', error.message));
await client.connect();

const handler = createWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  store: createRedisStore({ client }),
  async onNotification(notification) {
    // The order id your checkout gave the component: without one, there is no order to update.
    const orderId = notification.merchantPaymentId;
    if (orderId == null) return;
    const status = notification.paymentStatus === 'COMPLETED' ? 'paid' : 'failed';
    await client.hSet(`order:${orderId}`, 'status', status);
  },
});

const port = Number(process.env.PORT ?? 3000);
createServer(handler).listen(port, '127.0.0.1', () => {
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/`);
});
