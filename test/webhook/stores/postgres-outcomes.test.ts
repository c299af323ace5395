// @vitest-environment node
// Payment outcomes on a real PostgreSQL (src/webhook/stores/postgres-outcomes.ts): recorded once,
// read back, expired; heard live by another instance (another pool, and another Node process)
// through LISTEN/NOTIFY; a subscription that resolved never misses what follows; the listening
// connection killed mid-wait (pg_terminate_backend, with its role unable to log in again until
// after the outcome was recorded) and the server restarted, and the outcome still arrives; 200
// subscribers on one connection; the connection given back when nobody waits and on close(),
// so pool.end() resolves.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { outcomesTableName, postgresOutcomes } from '../../../src/webhook/stores/postgres-outcomes';
import { delay } from '../support/http';
import { eventually, hear, outcome, removeBundle, startRecorder } from '../support/outcomes';
import { startPostgres } from '../support/servers.mjs';
import type { RestartableServer } from '../support/servers.mjs';

let server: RestartableServer;
/** For the test's own statements: roles, counts, kills. */
let admin: pg.Pool;
const pools: pg.Pool[] = [];
let tables = 0;

/** Every store of the tests, closed after them even when a test failed before its close(). */
const stores: { close(): Promise<void> }[] = [];
function track<T extends { close(): Promise<void> }>(store: T): T {
  stores.push(store);
  return store;
}

/** A fresh idempotency table name: its outcomes table is `<name>_outcomes`. */
const freshTable = (): string => `outcomes_${process.pid}_${++tables}`;

/** A pool of one instance, named for pg_stat_activity; ended after the tests unless ended. */
function newPool(name: string, config: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: server.url,
    max: 10,
    application_name: name,
    ...config,
  });
  // Connections terminated by the tests must not crash the run.
  pool.on('error', () => {});
  pools.push(pool);
  return pool;
}

/** How many connections of `application` are listening right now. */
async function listening(application: string): Promise<number> {
  const { rows } = await admin.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`,
    [application],
  );
  return (rows[0] as { n: number }).n;
}

beforeAll(async () => {
  // A server of its own: the last test restarts it.
  server = await startPostgres({ own: true });
  admin = new pg.Pool({ connectionString: server.url, max: 3 });
  admin.on('error', () => {});
}, 120_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await Promise.all(pools.map((pool) => (pool.ending ? undefined : pool.end())));
  await admin?.end();
  await server?.stop();
  removeBundle();
}, 60_000);

describe('PostgreSQL outcomes', () => {
  it('keeps the first outcome of a payment, reads it back, and forgets it after its lifetime', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a1'), table }));
    const b = track(postgresOutcomes({ pool: newPool('b1'), table }));
    const completed = outcome('COMPLETED');
    const failed = { ...outcome('FAILED', completed.paymentId), merchantPaymentId: 'other' };

    expect(await a.recordOutcome(completed, 60_000)).toEqual(completed);
    // Another instance, a later status: the first one stands, and is the answer.
    expect(await b.recordOutcome(failed, 60_000)).toEqual(completed);
    expect(await b.readOutcome(completed.paymentId)).toEqual(completed);
    expect(await a.readOutcome(randomUUID())).toBeNull();

    const { rows } = await admin.query(`SELECT status FROM "${table}_outcomes"`);
    expect(rows).toEqual([{ status: 'COMPLETED' }]);

    const brief = outcome('FAILED');
    await a.recordOutcome(brief, 200);
    await delay(400);
    expect(await b.readOutcome(brief.paymentId)).toBeNull();
    // Expired, it no longer stands: a new outcome replaces it.
    const later = outcome('COMPLETED', brief.paymentId);
    expect(await b.recordOutcome(later, 60_000)).toEqual(later);
    expect(await a.readOutcome(brief.paymentId)).toEqual(later);
  });

  it('an outcome recorded on instance A reaches the subscriber on instance B, once', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a2'), table }));
    const b = track(postgresOutcomes({ pool: newPool('b2'), table }));
    const sent = outcome();
    const other = await hear(b, randomUUID());
    const heard = await hear(b, sent.paymentId);

    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);
    // Recorded again (a resend, or another status): nothing new to hear.
    await a.recordOutcome({ ...sent, status: 'FAILED' }, 60_000);
    // Notifications arrive in commit order: once the sentinel is heard, so was all before it.
    const sentinel = outcome();
    const last = await hear(b, sentinel.paymentId);
    await a.recordOutcome(sentinel, 60_000);
    await last.first;
    expect(heard.calls).toEqual([sent]);
    expect(other.calls).toEqual([]);
    other.unsubscribe();
    await b.close();
  });

  it('an outcome recorded by another Node process reaches the subscriber here', async () => {
    const table = freshTable();
    const b = track(postgresOutcomes({ pool: newPool('b3'), table }));
    // B first, so the table exists before A's first statement (either may create it).
    expect(await b.readOutcome(randomUUID())).toBeNull();
    const recorder = await startRecorder({
      STORE: 'postgres',
      DATABASE_URL: server.url,
      TABLE: table,
    });
    try {
      const sent = outcome('FAILED');
      const heard = await hear(b, sent.paymentId);
      expect(await recorder.record(sent, 60_000)).toEqual(sent);
      expect(await heard.first).toEqual(sent);
    } finally {
      await recorder.stop();
      await b.close();
    }
  }, 60_000);

  it('a subscription that has resolved misses nothing recorded after it, even on a fresh store', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a4'), table }));
    await a.readOutcome(randomUUID()); // the table exists
    const pool = newPool('b4', { max: 4 });
    for (let round = 0; round < 10; round++) {
      // A fresh store each round: the subscription has to take its connection and LISTEN.
      const b = track(postgresOutcomes({ pool, table }));
      const sent = outcome();
      const heard = await hear(b, sent.paymentId);
      await a.recordOutcome(sent, 60_000);
      // The sentinel is recorded after `sent` committed: heard in that order, or `sent` missed.
      const sentinel = outcome();
      const last = await hear(b, sentinel.paymentId);
      await a.recordOutcome(sentinel, 60_000);
      await last.first;
      expect(heard.calls, `round ${round}`).toEqual([sent]);
      await b.close();
    }
  }, 60_000);

  it('the listening connection killed mid-wait: an outcome recorded in the gap still arrives', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a5'), table }));
    await a.readOutcome(randomUUID()); // the table exists
    // B logs in as a role of its own, so the test can keep it from reconnecting for a while.
    const role = `outcomes_b_${process.pid}`;
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'b'`);
    await admin.query(`GRANT SELECT ON "${table}_outcomes" TO ${role}`);
    const url = new URL(server.url);
    url.username = role;
    url.password = 'b';
    const b = track(
      postgresOutcomes({
        pool: newPool('b5', { connectionString: url.href }),
        table,
      }),
    );
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);
    expect(await listening('b5')).toBe(1);

    await admin.query(`ALTER ROLE ${role} NOLOGIN`);
    const { rows } = await admin.query(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE usename = $1`,
      [role],
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const gone = await eventually(
      () =>
        admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1`, [role]),
      ({ rows: left }) => (left[0] as { n: number }).n === 0,
    );
    expect(gone.rows).toEqual([{ n: 0 }]);

    // In the gap: B has no connection, and cannot take one. The notification reaches nobody.
    await a.recordOutcome(sent, 60_000);
    await delay(300); // room for a notification that had somewhere to go
    expect(heard.calls).toEqual([]);

    await admin.query(`ALTER ROLE ${role} LOGIN`);
    // B takes a connection again, LISTENs, and re-reads what it waits for.
    expect(await heard.first).toEqual(sent);
    expect(
      await eventually(
        () => listening('b5'),
        (n) => n === 1,
      ),
    ).toBe(1);
    // Live again afterwards.
    const next = outcome();
    const again = await hear(b, next.paymentId);
    await a.recordOutcome(next, 60_000);
    expect(await again.first).toEqual(next);
    expect(heard.calls).toEqual([sent]);
    await b.close();
  }, 60_000);

  it('200 subscribers of one instance share one listening connection', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a6'), table }));
    const pool = newPool('b6', { max: 10 });
    const b = track(postgresOutcomes({ pool, table }));
    const sent = Array.from({ length: 200 }, () => outcome());
    const heard = await Promise.all(sent.map(({ paymentId }) => hear(b, paymentId)));

    expect(await listening('b6')).toBe(1);
    expect(pool.totalCount - pool.idleCount).toBe(1); // the one lent to the store
    await Promise.all(sent.map((each) => a.recordOutcome(each, 60_000)));
    expect(await Promise.all(heard.map((h) => h.first))).toEqual(sent);
    expect(heard.every((h) => h.calls.length === 1)).toBe(true);
    await b.close();
  }, 60_000);

  it('the listening connection goes back when nobody waits and on close(): pool.end() resolves', async () => {
    const table = freshTable();
    const idlePool = newPool('b7');
    const idle = track(postgresOutcomes({ pool: idlePool, table }));
    const subscribers = await Promise.all(
      [randomUUID(), randomUUID(), randomUUID()].map((id) => hear(idle, id)),
    );
    expect(await listening('b7')).toBe(1);
    for (const subscriber of subscribers) subscriber.unsubscribe();
    // Given back, not listening any more (UNLISTEN), and not held: the pool ends.
    expect(
      await eventually(
        () => listening('b7'),
        (n) => n === 0,
      ),
    ).toBe(0);
    await idlePool.end();

    const closingPool = newPool('b8');
    const closing = track(postgresOutcomes({ pool: closingPool, table }));
    const waiting = await hear(closing, randomUUID());
    expect(await listening('b8')).toBe(1);
    await closing.close(); // a subscriber still waits
    await closingPool.end();
    expect(
      await eventually(
        () => listening('b8'),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(waiting.calls).toEqual([]);
    await expect(closing.subscribeOutcome(randomUUID(), () => {})).rejects.toThrow(
      /^servicepay: subscribeOutcome was called after the store was closed/,
    );
  }, 30_000);

  it('an outcome too large for a NOTIFY payload (8000 bytes) still reaches the subscriber', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a10'), table }));
    const b = track(postgresOutcomes({ pool: newPool('b10'), table }));
    const sent = outcome('COMPLETED', `long-${'x'.repeat(9000)}`);
    const heard = await hear(b, sent.paymentId);
    expect(await a.recordOutcome(sent, 60_000)).toEqual(sent);
    expect(await heard.first).toEqual(sent);
    await b.close();
  });

  it('instances that spell the table `name` and `public.name` hear each other', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a11'), table: `public.${table}` }));
    const b = track(postgresOutcomes({ pool: newPool('b11'), table: `"${table}"` }));
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);
    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);
    await b.close();
  });

  it('an idempotency table name of 63 characters: the outcomes table is another table', async () => {
    const table = `t${process.pid}_`.padEnd(63, 'x');
    const pool = newPool('a12');
    const idempotency = createPostgresStore({ pool, table });
    const claim = await idempotency.claim('key-1', 60_000);
    expect(claim.state).toBe('claimed');
    const store = track(postgresOutcomes({ pool, table }));
    const sent = outcome();
    expect(await store.recordOutcome(sent, 60_000)).toEqual(sent);
    expect(await store.readOutcome(sent.paymentId)).toEqual(sent);
    const { name } = outcomesTableName(table);
    expect(name).toHaveLength(63);
    expect(name).not.toBe(table);
    const { rows } = await admin.query(`SELECT payment_id FROM "${name}"`);
    expect(rows).toEqual([{ payment_id: sent.paymentId }]);
    // The idempotency table is untouched: the claim still stands.
    expect(await idempotency.claim('key-1', 60_000)).toEqual({ state: 'in-progress' });
  });

  it('a single Client records and reads, and subscribing says a Pool is needed', async () => {
    const client = new pg.Client({ connectionString: server.url });
    client.on('error', () => {});
    await client.connect();
    try {
      const store = track(postgresOutcomes({ pool: client, table: freshTable() }));
      const sent = outcome();
      expect(await store.recordOutcome(sent, 60_000)).toEqual(sent);
      expect(await store.readOutcome(sent.paymentId)).toEqual(sent);
      await expect(store.subscribeOutcome(sent.paymentId, () => {})).rejects.toThrow(
        /^servicepay: subscribing to outcomes needs \{ pool \} to be a node-postgres Pool/,
      );
    } finally {
      await client.end();
    }
  });

  // Last: it restarts the server under every pool.
  it('the server restarted mid-wait: the subscriber still hears the outcome', async () => {
    const table = freshTable();
    const a = track(postgresOutcomes({ pool: newPool('a9'), table }));
    const b = track(postgresOutcomes({ pool: newPool('b9'), table }));
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);

    await server.restart();
    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);
    expect(heard.calls).toEqual([sent]);
    await b.close();
  }, 60_000);
});
