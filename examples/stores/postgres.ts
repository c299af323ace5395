// A webhook receiver whose idempotency store is PostgreSQL, shared by every instance, beside the
// shop's orders in the same database. The checkout made each order on the server and paid it
// with metadata: { orderId }; a payment counts only when its order says it pays for it.
// DATABASE_URL: the database (the store creates its own table on first use; the orders are
//   yours: CREATE TABLE orders (id text PRIMARY KEY, total numeric(10,2) NOT NULL,
//   reference text NOT NULL, status text NOT NULL DEFAULT 'open')).
// SERVICEPAY_PUBLIC_KEY: the text served at <service>/.well-known/signature/pem.
// PORT (default 3000): where it listens.
import { createServer } from 'node:http';
import pg from 'pg';
import { createWebhookHandler } from 'servicepay/webhook';
import type { WebhookNotification } from 'servicepay/webhook';
import { createPostgresStore } from 'servicepay/webhook/postgres';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
// When an idle connection dies (ended by an administrator, a restart, a failover) the pool
// emits 'error', and an 'error' event with no listener ends the process. The pool opens a new
// connection when it next needs one: log the error, don't exit.
pool.on('error', (error) => console.error('PostgreSQL connection lost:', error.message));

interface OrderRow {
  id: string;
  total: string; // NUMERIC: node-postgres gives '12.50', taken as it comes
  reference: string;
  status: string;
}

// The order the page paid: the id your server made, never the payment's merchantPaymentId,
// which the page renews after every attempt.
const orderIdOf = ({ paymentMetadata }: WebhookNotification) =>
  typeof paymentMetadata?.orderId === 'string' ? paymentMetadata.orderId : null;

const handler = createWebhookHandler({
  publicKey: process.env.SERVICEPAY_PUBLIC_KEY,
  store: createPostgresStore({ pool }),
  // What the order expects: a COMPLETED for another amount or reference, for an order already
  // paid by another payment, or for a closed order goes to onMismatch, never onNotification.
  async expectedPayment(notification) {
    const orderId = orderIdOf(notification);
    if (orderId === null) return null;
    const { rows } = await pool.query<OrderRow>(
      'SELECT id, total, reference, status FROM orders WHERE id = $1',
      [orderId],
    );
    const order = rows[0];
    if (order === undefined) return null;
    return {
      amount: order.total,
      reference: order.reference,
      orderId: order.id, // one order, paid once, across every instance
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
    // By the order's id; safe to run again (the service resends until it gets 200).
    await pool.query(`UPDATE orders SET status = 'paid' WHERE id = $1`, [orderId]);
  },
});

const port = Number(process.env.PORT ?? 3000);
createServer(handler).listen(port, '127.0.0.1', () => {
  console.log(`Receiving webhooks at http://127.0.0.1:${port}/`);
});
