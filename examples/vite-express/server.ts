// The API server beside a Vite single-page app (docs/your-own-shop.md): the webhook receiver
// and the status endpoint on one store, and, in production, the built app.
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000) and HOST (default 127.0.0.1): where it listens.
import express from 'express';
import {
  MemoryIdempotencyStore,
  createPaymentStatusHandler,
  createWebhookHandler,
} from 'servicepay/webhook';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

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
    onNotification(notification) {
      // Your order: mark it paid, or failed (a database in a real shop).
      console.info(`order ${notification.merchantPaymentId}: ${notification.paymentStatus}`);
    },
  }),
);

// The result page asks here (through Vite's proxy in development).
app.get('/api/payments/status', status);

// The rest of your API, with its JSON body parser, after the webhook route.
app.use(express.json());

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
