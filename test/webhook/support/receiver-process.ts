// One receiver process of the tests across processes (receiving/receiver.across-processes and
// receiving/reconcile.orders.processes): a node:http server with createWebhookHandler on the
// shared store, and a merchant handler that records each run in the merchant's own PostgreSQL
// tables. The tests start it through support/receiver-processes.ts, which bundles this file
// with esbuild (a child process has no vitest aliases) and forks it; it talks over IPC:
//   child -> parent: { type: 'ready', port }, { type: 'hanging', paymentId }, { type: 'drained' }
//   parent -> child: { type: 'drain' } (stop taking deliveries, finish running handlers, exit)
//
// What the handler does depends on the notification's paymentRequest.reference:
//   fast        a short run
//   throw-once  its first run anywhere throws (the merchant's code failed; nothing written)
//   slow        runs SLOW_MS (longer than a claim): outlives its claim unless it is renewed
//   hang-once   its first run anywhere hangs and tells the parent, which kills this process
//
// With MISMATCHES_TABLE set, the merchant reconciles: expectedPayment names the order the
// payment's metadata gives (orderId) for the amount paid, and onMismatch records each payment
// recorded NEEDS_REVIEW in that table (payment_id, reason, paid_by, process).
import { createServer } from 'node:http';
import pg from 'pg';
import { createClient } from 'redis';
import { createWebhookHandler } from '../../../src/webhook/index';
import type { IdempotencyStore, WebhookHandlerOptions } from '../../../src/webhook/index';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { createRedisStore } from '../../../src/webhook/stores/redis';

const env = process.env as Record<string, string>;
const name = env.RECEIVER_NAME as string;
const claimTtlMs = Number(env.CLAIM_TTL_MS);
const send = (message: object): void => void process.send?.(message);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 8 });
pool.on('error', () => {});
let quit = async (): Promise<void> => {};
let store: IdempotencyStore;
if (env.STORE === 'redis') {
  const client = createClient({ url: env.REDIS_URL });
  client.on('error', () => {});
  await client.connect();
  quit = async () => void (await client.quit());
  // The test's server keeps nothing on disk, on purpose: no warning about it.
  store = createRedisStore({ client, prefix: env.STORE_PREFIX, checkServerConfig: false });
} else {
  store = createPostgresStore({ pool, table: env.STORE_TABLE });
}

const { HANDLED, ATTEMPTS } = { HANDLED: env.HANDLED_TABLE, ATTEMPTS: env.ATTEMPTS_TABLE };
const MISMATCHES = env.MISMATCHES_TABLE;
const reconciliation: Pick<WebhookHandlerOptions, 'expectedPayment' | 'onMismatch'> =
  MISMATCHES === undefined || MISMATCHES === ''
    ? { expectedPayment: 'unreconciled' }
    : {
        expectedPayment: (n) => ({
          amount: n.paymentRequest.amount,
          orderId: String(n.paymentMetadata?.orderId),
        }),
        async onMismatch({ notification, reason, paidBy }) {
          await pool.query(
            `INSERT INTO ${MISMATCHES} (payment_id, reason, paid_by, process) VALUES ($1, $2, $3, $4)`,
            [notification.paymentId, reason, paidBy, name],
          );
        },
      };
let running = 0;
/** Deliveries this process has taken and not yet answered (their completion included). */
let answering = 0;
let hanging = false;

const handler = createWebhookHandler({
  publicKey: env.PUBLIC_KEY as string,
  store,
  claimTtlMs,
  maxHandlingMs: Number(env.MAX_HANDLING_MS),
  onError: () => {},
  ...reconciliation,
  async onNotification(notification) {
    running++;
    try {
      const id = notification.paymentId;
      // The subquery reads the table as it was before this insert: the runs before this one.
      const { rows } = await pool.query(
        `INSERT INTO ${ATTEMPTS} (payment_id, process) VALUES ($1, $2) RETURNING (SELECT count(*)::int FROM ${ATTEMPTS} WHERE payment_id = $1) AS before`,
        [id, name],
      );
      const first = (rows[0] as { before: number }).before === 0;
      switch (notification.paymentRequest.reference) {
        case 'throw-once':
          if (first) throw new Error('the merchant’s code failed');
          break;
        case 'slow':
          await sleep(Number(env.SLOW_MS));
          break;
        case 'hang-once':
          if (first) {
            hanging = true;
            await hangUntilKilled(id);
          }
          break;
        default:
          await sleep(Math.random() * 30);
      }
      // The merchant's effect of handling the notification, once per successful run.
      await pool.query(`INSERT INTO ${HANDLED} (payment_id, process) VALUES ($1, $2)`, [id, name]);
    } finally {
      running--;
    }
  },
});

/**
 * Waits until this delivery is the process's only one, so that the parent's SIGKILL interrupts
 * this handler alone, then tells the parent and never returns. A kill between another handler's
 * effect and its completion would run that notification twice, which no store can prevent
 * (docs/stores.md, "What the promise survives"), so the wait is for every other delivery to be
 * answered, not only for its handler to return: the receiver records the outcome and completes
 * the claim after onNotification, and only then answers. (Waiting on handler runs alone let a
 * slow notification's completion be cut by the kill now and then, and run it twice.) New
 * deliveries are refused meanwhile (`hanging`), so the count only falls.
 */
async function hangUntilKilled(paymentId: string): Promise<never> {
  for (let i = 0; i < 3000 && answering > 1; i++) await sleep(10);
  send({ type: 'hanging', paymentId });
  return new Promise<never>(() => {});
}

const server = createServer((req, res) => {
  // A process about to be killed takes no new work (its load balancer has drained it).
  if (hanging) {
    res.writeHead(503).end();
    return;
  }
  answering++;
  res.once('close', () => answering--);
  handler(req, res);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'drain') return;
  server.close();
  server.closeIdleConnections();
  void (async () => {
    for (let i = 0; i < 3000 && (running > 0 || answering > 0); i++) await sleep(10);
    await quit();
    await pool.end();
    send({ type: 'drained' });
    process.disconnect();
  })();
});
