// @vitest-environment node
// The PostgreSQL outcome store's listening connection under the faults a server does not show:
// frozen behind a TCP relay that stops forwarding (a NAT dropping an idle flow), the outcome
// recorded meanwhile still reaches the waiting subscriber and event stream, and letting go of
// the frozen connection holds no pool connection; a pool of one connection is refused for
// listening, so status answers and deliveries never stall behind it; the pooled connections
// killed (pg_terminate_backend), the next subscription retries on a fresh one.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookConfigError } from '../../../src/webhook/errors';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { postgresOutcomes } from '../../../src/webhook/stores/postgres-outcomes';
import { createFetchPaymentStatusHandler } from '../../../src/webhook/status/status-fetch';
import { readEventStream } from '../support/event-stream';
import { expectHeardThroughFreeze } from '../support/listener-faults';
import { eventually, hear, outcome } from '../support/outcomes';
import { namedPools } from '../support/pg-pools';
import { startRelay, throughRelay } from '../support/relay';
import type { Relay } from '../support/relay';
import { startPostgres } from '../support/servers.mjs';
import type { RestartableServer } from '../support/servers.mjs';

let server: RestartableServer;
let admin: pg.Pool;
const relays: Relay[] = [];
const closers: (() => Promise<void>)[] = [];
let tables = 0;

/** A fresh idempotency table name, so each test is alone even on a shared server. */
const freshTable = (): string => `listener_faults_${process.pid}_${++tables}`;
/** Checks of the listening connection every second: a dead one is replaced within three. */
const CHECK_MS = 1000;

const pools = namedPools(() => server.url, { max: 4 });
const newPool = pools.pool;

/** A pool whose connections all pass a relay; idle ones close quickly, so that a freeze finds the listening connection alone. */
async function relayedPool(name: string, config: pg.PoolConfig = {}) {
  const relay = await startRelay({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
  relays.push(relay);
  const pool = newPool(name, {
    connectionString: throughRelay(server.url, relay),
    idleTimeoutMillis: 50,
    ...config,
  });
  return { relay, pool };
}

function track<T extends { close(): Promise<void> }>(store: T): T {
  closers.push(() => store.close());
  return store;
}

beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
  admin.on('error', () => {});
}, 120_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await Promise.all(relays.map((relay) => relay.close()));
  await pools.endAll();
  await admin?.end();
  await server?.stop();
}, 60_000);

describe('the PostgreSQL listening connection under faults', () => {
  it('frozen without a FIN: noticed, replaced, and the outcome recorded meanwhile reaches the subscriber and the stream', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('pf-a1'), table }));
    const { relay, pool } = await relayedPool('pf-b1');
    const b = track(createPostgresStore({ pool, table, listenerCheckMs: CHECK_MS }));
    await b.readOutcome(randomUUID()); // the table exists
    await expectHeardThroughFreeze(
      a,
      b,
      async () => {
        // Only the listening connection is left open: the freeze catches it, and it alone.
        await eventually(
          async () => pool.idleCount,
          (idle) => idle === 0,
        );
        relay.freeze();
      },
      closers,
    );
  }, 30_000);

  it('the last subscriber leaves a frozen connection: UNLISTEN holds no pool connection', async () => {
    const table = freshTable();
    const { relay, pool } = await relayedPool('pf-b2', { max: 2 });
    const b = track(postgresOutcomes({ pool, table, listenerCheckMs: CHECK_MS }));
    const waiting = await hear(b, randomUUID());
    await eventually(
      async () => pool.idleCount,
      (idle) => idle === 0,
    );
    relay.freeze();
    // The connection goes back with an UNLISTEN that the frozen peer never answers.
    waiting.unsubscribe();
    // Both connections of the pool are free again: two borrowed at once both answer.
    const borrowed = [await pool.connect(), await pool.connect()];
    const answers = await Promise.all(
      borrowed.map((client, n) => client.query('SELECT $1::int AS n', [n])),
    );
    borrowed.forEach((client) => client.release());
    expect(answers.map(({ rows }) => (rows[0] as { n: number }).n)).toEqual([0, 1]);
  }, 30_000);

  it('a pool of one connection is refused for listening; status answers and deliveries go on', async () => {
    const table = freshTable();
    const pool = newPool('pf-b3', { max: 1 });
    for (const listenerCheckMs of [0, -1, Number.NaN, 2 ** 31]) {
      expect(() => createPostgresStore({ pool, table, listenerCheckMs })).toThrow(
        `servicepay: createPostgresStore listenerCheckMs must be a positive number of milliseconds (at most 2147483647), got ${listenerCheckMs}.`,
      );
    }
    const store = track(createPostgresStore({ pool, table }));
    const sent = outcome();
    // A WebhookConfigError naming the option, as docs/stores.md says (issue 48: it was an Error).
    const refused = store.subscribeOutcome(sent.paymentId, () => {});
    await expect(refused).rejects.toThrow(
      /^servicepay: createPostgresStore's pool has one connection \(max: 1\)/,
    );
    await expect(refused).rejects.toBeInstanceOf(WebhookConfigError);
    await expect(refused).rejects.toMatchObject({ name: 'WebhookConfigError', option: 'pool' });
    // A stream asked for meanwhile: the current status, then the end (the page polls).
    const status = createFetchPaymentStatusHandler({ store, onError: () => {} });
    closers.push(() => status.close());
    const query = `paymentId=${sent.paymentId}&merchantPaymentId=${sent.merchantPaymentId}`;
    const streamed = await status(
      new Request(`http://localhost/s?${query}`, { headers: { accept: 'text/event-stream' } }),
    );
    const events = readEventStream(streamed.body as ReadableStream<Uint8Array>);
    await events.ended;
    expect(events.events).toEqual(['{"status":"PENDING"}']);
    // Nothing holds the one connection: a delivery is claimed and recorded, and the JSON says so.
    expect((await store.claim(`${sent.paymentId}:COMPLETED`, 60_000)).state).toBe('claimed');
    await store.recordOutcome(sent, 60_000);
    const answer = await status(new Request(`http://localhost/s?${query}`));
    expect(await answer.text()).toBe('{"status":"COMPLETED"}');
  }, 30_000);

  it('the pooled connections killed: the next subscription takes a fresh one and hears its outcome live', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('pf-a4'), table }));
    await a.readOutcome(randomUUID()); // the table exists
    const pool = newPool('pf-b4', { max: 4 });
    const b = track(postgresOutcomes({ pool, table, listenerCheckMs: CHECK_MS }));
    for (let round = 0; round < 8; round++) {
      // Four idle connections in the pool, the listening one among them once it went back.
      const warm = await hear(b, randomUUID());
      warm.unsubscribe();
      await Promise.all([1, 2, 3, 4].map(() => pool.query('SELECT pg_sleep(0.02)')));
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'pf-b4'`,
      );
      const sent = outcome();
      const heard = await hear(b, sent.paymentId);
      await a.recordOutcome(sent, 60_000);
      expect(await heard.first, `round ${round}`).toEqual(sent);
      heard.unsubscribe();
    }
  }, 60_000);
});
