// One merchant server process of test/webhook/stores/outcomes.across-processes.test.ts: the webhook
// receiver (PUT /webhooks/servicepay) and the payment status endpoint (GET /api/payments/status)
// on one shared store (PostgreSQL or Redis), as a merchant's instance mounts them. The test
// bundles it with esbuild and forks it; it talks over IPC:
//   child -> parent: { type: 'ready', port }, { type: 'closed' }
//   parent -> child: { type: 'close' } (end the streams, the store's listener, the pool; exit)
import { createServer } from 'node:http';
import pg from 'pg';
import { createClient } from 'redis';
import { createPaymentStatusHandler, createWebhookHandler } from '../../../src/webhook/index';
import type { IdempotencyStore, OutcomeStore } from '../../../src/webhook/index';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { createRedisStore } from '../../../src/webhook/stores/redis';

const env = process.env as Record<string, string>;
const send = (message: object): void => void process.send?.(message);

// application_name lets the test find (and terminate) this process's connections.
const pool = new pg.Pool({
  connectionString: env.DATABASE_URL,
  max: 4,
  application_name: env.RECEIVER_NAME,
});
pool.on('error', () => {});
let quit = async (): Promise<void> => {};
let store: IdempotencyStore & OutcomeStore;
if (env.STORE === 'redis') {
  const client = createClient({ url: env.REDIS_URL, name: env.RECEIVER_NAME });
  client.on('error', () => {});
  await client.connect();
  quit = async () => void (await client.quit());
  store = createRedisStore({
    client,
    prefix: env.STORE_PREFIX,
    checkServerConfig: false,
  }) as IdempotencyStore & OutcomeStore;
} else {
  store = createPostgresStore({ pool, table: env.STORE_TABLE }) as IdempotencyStore & OutcomeStore;
}

const receive = createWebhookHandler({
  publicKey: env.PUBLIC_KEY as string,
  // The status endpoint's processes: what they show is outcomes shared across processes.
  expectedPayment: 'unreconciled',
  store,
  onError: () => {},
  onNotification: () => {},
});
const status = createPaymentStatusHandler({ store, onError: () => {} });

const server = createServer((req, res) => {
  if ((req.url ?? '').startsWith('/api/payments/status')) status(req, res);
  else receive(req, res);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  send({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'close') return;
  void (async () => {
    await status.close();
    server.close();
    server.closeAllConnections();
    await store.close?.();
    await quit();
    await pool.end();
    send({ type: 'closed' });
    process.disconnect();
  })();
});
