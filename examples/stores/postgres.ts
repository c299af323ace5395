// A webhook receiver whose idempotency store is PostgreSQL, shared by every instance.
// DATABASE_URL: the database (the store creates its table on first use).
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000): where it listens.
import { createServer } from 'node:http';
import pg from 'pg';
import { createWebhookHandler } from 'servicepay/webhook';
import { createPostgresStore } from 'servicepay/webhook/postgres';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
// When an idle connection dies (ended by an administrator, a restart, a failover) the pool
// emits 'error', and an 'error' event with no listener ends the process. The pool opens a new
// connection when it next needs one: log the error, don't exit.
pool.on('error', (error) => console.error('PostgreSQL connection lost:', error.message));

const handler = createWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  store: createPostgresStore({ pool }),
  async onNotification(notification) {
    const status = notification.paymentStatus === 'COMPLETED' ? 'paid' : 'failed';
    await pool.query('UPDATE orders SET status = $1 WHERE id = $2', [
      status,
      notification.merchantPaymentId,
    ]);
  },
});

const port = Number(process.env.PORT ?? 3000);
createServer(handler).listen(port, '127.0.0.1', () => {
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/`);
});
