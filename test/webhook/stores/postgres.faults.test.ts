// @vitest-environment node
// Faults performed on a real PostgreSQL against the PostgreSQL store: statements that wait on a
// lock (another session holds the table in ACCESS EXCLUSIVE mode) for longer than the lifetime
// they write, receivers on a fresh database racing to create the table under two spellings of
// its name, and a temporary schema, whose table no two connections can share.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookConfigError } from '../../../src/webhook/index';
import type { IdempotencyStore, WebhookNotification } from '../../../src/webhook/index';
import { createPostgresStore, postgresStoreDdl } from '../../../src/webhook/stores/postgres';
import { deferred } from '../../helpers/deferred';
import type { Deferred } from '../../helpers/deferred';
import { delay } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { statusOf } from '../support/receivers';
import { startPostgres } from '../support/servers.mjs';
import type { TestServer } from '../support/servers.mjs';

const keys = serviceKeys();

let server: TestServer;
/** For the test's own statements: locks, checks, DDL. */
let admin: pg.Pool;
/** The pools of two receiver instances sharing one table. */
let poolA: pg.Pool;
let poolB: pg.Pool;
let tables = 0;
const freshTable = (): string => `faults_${process.pid}_${++tables}`;

/** A pool whose idle connections, terminated or cut at shutdown, cannot crash the test run. */
function newPool(max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: server.url, max });
  pool.on('error', () => {});
  return pool;
}

beforeAll(async () => {
  server = await startPostgres();
  admin = newPool(5);
  poolA = newPool(60); // enough for 50 claims waiting on a lock at once
  poolB = newPool(10);
}, 120_000);

afterAll(async () => {
  await Promise.all([admin?.end(), poolA?.end(), poolB?.end()]);
  await server?.stop();
}, 60_000);

/**
 * Takes `table` in ACCESS EXCLUSIVE mode in a transaction of its own, as a migration or a
 * VACUUM FULL would. `release` commits and answers the database's clock just before: every
 * statement that waited on the lock writes its row after that moment.
 */
async function lockTable(table: string): Promise<{ release(): Promise<string> }> {
  const client = await admin.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      const { rows } = await client.query('SELECT clock_timestamp()::text AS at');
      await client.query('COMMIT');
      client.release();
      return (rows[0] as { at: string }).at;
    },
  };
}

/** Resolves once `count` statements are waiting on a lock of `table` (bounded). */
async function waiters(table: string, count: number): Promise<void> {
  let waiting = 0;
  for (let i = 0; i < 1200; i++) {
    const { rows } = await admin.query(
      'SELECT count(*)::int AS n FROM pg_locks WHERE relation = $1::regclass AND NOT granted',
      [table],
    );
    waiting = (rows[0] as { n: number }).n;
    if (waiting >= count) return;
    await delay(25);
  }
  throw new Error(`only ${waiting} of ${count} statements came to wait on ${table}'s lock`);
}

/** Whether the row of `key` lives at least `ms` past `since` (a database timestamp). */
async function livesPast(table: string, key: string, since: string, ms: number): Promise<boolean> {
  const { rows } = await admin.query(
    `SELECT expires_at >= $2::timestamptz + $3::double precision * interval '1 millisecond' AS lives FROM ${table} WHERE key = $1`,
    [key, since, ms],
  );
  return (rows[0] as { lives: boolean }).lives;
}

/**
 * A receiver instance: its answer's status for a delivery. What it tells onError goes to
 * `reports`, as "<outcome> <status>" and the error's message when there is one.
 */
function receiver(
  store: IdempotencyStore,
  claimTtlMs: number,
  onNotification: (n: WebhookNotification) => Promise<void>,
  reports: string[],
) {
  return statusOf({
    store,
    claimTtlMs,
    onNotification,
    onError: (error, { outcome, status }) => {
      const message = error instanceof Error ? ` ${error.message}` : '';
      reports.push(`${outcome} ${status}${message}`);
    },
  });
}

describe('a statement that waited on a lock longer than the lifetime it writes', () => {
  it('a claim still gets its full life from when it is written: the next claim finds it in progress', async () => {
    const table = freshTable();
    await admin.query(postgresStoreDdl(table));
    const store = createPostgresStore({ pool: poolA, table });
    const lock = await lockTable(table);
    const claim = store.claim('k', 1500);
    await waiters(table, 1);
    await delay(2500); // the claim waits longer than its 1.5 s life
    const released = await lock.release();
    expect((await claim).state).toBe('claimed');
    expect((await store.claim('k', 1500)).state).toBe('in-progress');
    expect(await livesPast(table, 'k', released, 1500)).toBe(true);
  }, 30_000);

  it.each(['renew', 'complete'] as const)(
    'a %s gives the full ttl from when it is written',
    async (method) => {
      const table = freshTable();
      await admin.query(postgresStoreDdl(table));
      const store = createPostgresStore({ pool: poolA, table });
      const claim = await store.claim('k', 60_000);
      if (claim.state !== 'claimed') throw new Error('expected a claim');
      const lock = await lockTable(table);
      const acted = store[method]('k', claim.token, 1500);
      await waiters(table, 1);
      await delay(2500);
      const released = await lock.release();
      expect(await acted).toBe(true);
      expect((await store.claim('k', 60_000)).state).toBe(
        method === 'renew' ? 'in-progress' : 'completed',
      );
      expect(await livesPast(table, 'k', released, 1500)).toBe(true);
    },
    30_000,
  );

  it('through two receivers: the delivery that waited runs the handler once, the resend elsewhere is 409', async () => {
    const table = freshTable();
    await admin.query(postgresStoreDdl(table));
    const runs: string[] = [];
    const reports: string[] = [];
    const started = deferred<void>();
    const gate = deferred<void>();
    const a = receiver(
      createPostgresStore({ pool: poolA, table }),
      1500,
      async (n) => {
        runs.push(n.paymentId);
        started.resolve();
        await gate.promise; // still running when the resend arrives
      },
      reports,
    );
    const b = receiver(
      createPostgresStore({ pool: poolB, table }),
      1500,
      async (n) => {
        runs.push(n.paymentId);
      },
      reports,
    );
    const delivery = signed(notification(), keys.privateKey);
    const lock = await lockTable(table);
    const first = a(delivery);
    await waiters(table, 1);
    await delay(2500); // longer than claimTtlMs
    await lock.release();
    // Its handler runs (or, with a claim born expired, the delivery was refused).
    await Promise.race([started.promise, first]);
    const second = await b(delivery);
    gate.resolve();
    expect({ first: await first, second }).toEqual({ first: 200, second: 409 });
    expect(runs).toHaveLength(1);
    expect(reports).toEqual(['in-progress 409']); // the resend, and nothing else
  }, 30_000);

  it('under load: 50 deliveries claimed through a 3 s lock with a 2 s claimTtlMs, each resent elsewhere meanwhile, each handled once', async () => {
    const table = freshTable();
    await admin.query(postgresStoreDdl(table));
    const deliveries = Array.from({ length: 50 }, () => notification());
    const started = new Map<string, Deferred<void>>(
      deliveries.map((n) => [n.paymentId, deferred<void>()]),
    );
    const runs = new Map<string, number>();
    const reports: string[] = [];
    const gate = deferred<void>();
    const ran = (n: WebhookNotification): void => {
      runs.set(n.paymentId, (runs.get(n.paymentId) ?? 0) + 1);
      started.get(n.paymentId)?.resolve();
    };
    const a = receiver(
      createPostgresStore({ pool: poolA, table }),
      2000,
      async (n) => {
        ran(n);
        await gate.promise;
      },
      reports,
    );
    const b = receiver(
      createPostgresStore({ pool: poolB, table }),
      2000,
      async (n) => ran(n),
      reports,
    );
    const signedDeliveries = deliveries.map((n) => signed(n, keys.privateKey));
    const lock = await lockTable(table);
    const firsts = signedDeliveries.map((d) => a(d));
    await waiters(table, deliveries.length);
    await delay(3000);
    await lock.release();
    await Promise.all(
      deliveries.map((n, i) =>
        Promise.race([started.get(n.paymentId)?.promise, firsts[i] as Promise<number>]),
      ),
    );
    const resends = await Promise.all(signedDeliveries.map((d) => b(d)));
    gate.resolve();
    const answers = await Promise.all(firsts);
    expect(answers.filter((status) => status !== 200)).toEqual([]);
    expect(resends.filter((status) => status !== 409)).toEqual([]);
    expect(deliveries.map((n) => runs.get(n.paymentId))).toEqual(deliveries.map(() => 1));
    expect(reports).toEqual(deliveries.map(() => 'in-progress 409')); // the resends alone
  }, 120_000);
});

describe('the table', () => {
  it('is created once when receivers race on first use, some naming it name and others public.name', async () => {
    // Six sessions, as six processes starting on a fresh database, connected before they race.
    const pools = Array.from({ length: 6 }, () => newPool(1));
    try {
      await Promise.all(pools.map((pool) => pool.query('SELECT 1')));
      for (let round = 0; round < 5; round++) {
        const table = freshTable();
        const stores = pools.map((pool, i) =>
          createPostgresStore({ pool, table: i % 2 === 0 ? table : `public.${table}` }),
        );
        const claims = await Promise.allSettled(stores.map((store) => store.claim('k', 60_000)));
        expect(claims.filter((claim) => claim.status === 'rejected')).toEqual([]);
        const states = claims.map((claim) =>
          claim.status === 'fulfilled' ? claim.value.state : '',
        );
        expect(states.filter((state) => state === 'claimed')).toHaveLength(1);
        expect(states.filter((state) => state === 'in-progress')).toHaveLength(5);
      }
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  }, 60_000);

  it('is refused in a temporary schema, which each connection has its own of', () => {
    const message =
      /^servicepay: createPostgresStore table must not be in a temporary schema, got ".*": a temporary table is private to the one connection/;
    for (const table of ['pg_temp.x', 'PG_TEMP.x', 'pg_temp_3.x', 'Pg_Temp_12.servicepay']) {
      expect(() => createPostgresStore({ pool: admin, table })).toThrow(WebhookConfigError);
      expect(() => createPostgresStore({ pool: admin, table })).toThrow(message);
      expect(() => postgresStoreDdl(table)).toThrow(message);
    }
    // A schema merely named like it is fine.
    expect(() => createPostgresStore({ pool: admin, table: 'pg_temporal.x' })).not.toThrow();
  });

  it('is not created when an unqualified name would land in the temporary schema (search_path = pg_temp)', async () => {
    const client = new pg.Client({ connectionString: server.url });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('SET search_path = pg_temp');
      const table = freshTable();
      await expect(createPostgresStore({ pool: client, table }).claim('k', 60_000)).rejects.toThrow(
        /^servicepay: .*temporary schema.*private to the one connection/,
      );
      const { rows } = await admin.query(
        'SELECT count(*)::int AS n FROM pg_class WHERE relname = $1',
        [table],
      );
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await client.end();
    }
  });
});
