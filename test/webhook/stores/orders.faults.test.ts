// One order, paid once (issue 45), when the store misbehaves: on a real PostgreSQL, the orders
// table locked past claimTtlMs while two payments of one order wait on it, and the claiming
// connection terminated mid-wait; on a real Redis of its own, a server frozen (CLIENT PAUSE)
// past claimTtlMs and a restart between the two payments. Whatever happens, the order is paid by
// exactly one payment: the other is `already-paid`, and no handler runs twice.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  IdempotencyStore,
  PaymentMismatch,
  WebhookNotification,
} from '../../../src/webhook/index';
import { createPostgresStore, postgresOrdersDdl } from '../../../src/webhook/stores/postgres';
import { createRedisStore } from '../../../src/webhook/stores/redis';
import { delay } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { statusOf } from '../support/receivers';
import { redisServerPath, startPostgres, startRedis } from '../support/servers.mjs';
import type { TestServer } from '../support/servers.mjs';

const keys = serviceKeys();
const ORDER = { amount: 12.5, currency: 'GBP', reference: 'ORDER-1' };

/** What a shop heard: the payments it was told paid (onNotification), and the mismatches. */
function shop() {
  const paid: string[] = [];
  const reviewed: Pick<PaymentMismatch, 'reason' | 'paidBy'>[] = [];
  return {
    paid,
    reviewed,
    /** A receiver instance on `store`, naming the one order every payment is for. */
    receiver(store: IdempotencyStore, orderId: string, claimTtlMs = 1000) {
      return statusOf({
        store,
        claimTtlMs,
        expectedPayment: () => ({ ...ORDER, orderId }),
        onNotification: (n: WebhookNotification) => void paid.push(n.paymentId),
        onMismatch: ({ reason, paidBy }) => void reviewed.push({ reason, paidBy }),
        onError: () => {},
      });
    },
  };
}

/**
 * One order: its id, a shop that hears of it, and two genuine COMPLETED for it (two attempts,
 * two paymentIds).
 */
const anOrder = () => ({
  orderId: randomUUID(),
  heard: shop(),
  first: signed(notification(), keys.privateKey),
  second: signed(notification(), keys.privateKey),
});
const paymentOf = (delivery: { body: string }) =>
  (JSON.parse(delivery.body) as WebhookNotification).paymentId;

describe('on a real PostgreSQL', { timeout: 60_000 }, () => {
  let server: TestServer;
  let admin: pg.Pool;
  let tables = 0;
  const newPool = () => {
    const pool = new pg.Pool({ connectionString: server.url, max: 5 });
    pool.on('error', () => {});
    return pool;
  };
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    admin = newPool();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([admin?.end(), ...pools.map((pool) => pool.end())]);
    await server?.stop();
  });

  /** Two receiver instances' stores on one fresh table, its orders table made. */
  async function twoStores() {
    const table = `order_faults_${process.pid}_${++tables}`;
    await admin.query(postgresOrdersDdl(table));
    const [a, b] = [newPool(), newPool()];
    pools.push(a, b);
    return {
      orders: `${table}_orders`,
      a: createPostgresStore({ pool: a, table }),
      b: createPostgresStore({ pool: b, table }),
    };
  }

  /** Holds `table` in ACCESS EXCLUSIVE mode until `release`, as a migration would. */
  async function lock(table: string) {
    const client = await admin.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    return async () => {
      await client.query('COMMIT');
      client.release();
    };
  }

  /** The pids of the statements waiting on `table`'s lock, once there are `count` (bounded). */
  async function waiting(table: string, count: number): Promise<number[]> {
    for (let i = 0; i < 1200; i++) {
      const { rows } = await admin.query(
        'SELECT pid FROM pg_locks WHERE relation = $1::regclass AND NOT granted',
        [table],
      );
      if (rows.length >= count) return rows.map((row: { pid: number }) => row.pid);
      await delay(25);
    }
    throw new Error(`fewer than ${count} statements came to wait on ${table}'s lock`);
  }

  it('two payments of one order waiting on a lock held past claimTtlMs: one pays, the other is already-paid', async () => {
    const { orders, a, b } = await twoStores();
    const { orderId, heard, first, second } = anOrder();
    const release = await lock(orders);
    const answers = Promise.all([
      heard.receiver(a, orderId)(first),
      heard.receiver(b, orderId)(second),
    ]);
    await waiting(orders, 2);
    await delay(2500); // past claimTtlMs: the claims are renewed while their handlers wait
    await release();
    expect(await answers).toEqual([200, 200]);
    expect(heard.paid).toHaveLength(1);
    const [payer] = heard.paid;
    expect(heard.reviewed).toEqual([{ reason: 'already-paid', paidBy: payer }]);
  });

  it('the claiming connection terminated while it waited: 500, and its resend finds the order paid by the other', async () => {
    const { orders, a, b } = await twoStores();
    const { orderId, heard, first, second } = anOrder();
    const release = await lock(orders);
    const answered = heard.receiver(a, orderId)(first);
    const [pid] = await waiting(orders, 1);
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(await answered).toBe(500);
    await release();
    // Meanwhile the other attempt pays the order; then the service resends the first.
    expect(await heard.receiver(b, orderId)(second)).toBe(200);
    expect(await heard.receiver(a, orderId)(first)).toBe(200);
    expect(heard.paid).toEqual([paymentOf(second)]);
    expect(heard.reviewed).toEqual([{ reason: 'already-paid', paidBy: paymentOf(second) }]);
  });
});

describe.skipIf(redisServerPath() === null)(
  'on a real Redis of its own',
  { timeout: 60_000 },
  () => {
    /** A redis-server with the append-only file, two clients (two instances), both stores. */
    async function serve() {
      const server = (await startRedis({ own: true, persistence: 'aof' }))!;
      const clients = [createClient({ url: server.url }), createClient({ url: server.url })];
      for (const client of clients) {
        client.on('error', () => {}); // a restart drops the connection; it reconnects
        await client.connect();
      }
      const prefix = `orders:${randomUUID()}:`;
      const [a, b] = clients.map((client) =>
        createRedisStore({ client, prefix, checkServerConfig: false }),
      );
      return {
        server,
        a: a!,
        b: b!,
        admin: clients[0]!,
        async stop() {
          for (const client of clients) client.destroy();
          await server.stop();
        },
      };
    }

    type Redis = Awaited<ReturnType<typeof serve>>;
    /** Runs `test` on a server of its own (serve) for one order, and stops the server after. */
    async function onItsOwnRedis(
      test: (redis: Redis, order: ReturnType<typeof anOrder>) => Promise<void>,
    ) {
      const redis = await serve();
      try {
        await test(redis, anOrder());
      } finally {
        await redis.stop();
      }
    }

    it('a server frozen past claimTtlMs while two payments of one order are in flight: one pays', () =>
      onItsOwnRedis(async (redis, { orderId, heard, first, second }) => {
        await redis.admin.sendCommand(['CLIENT', 'PAUSE', '2500', 'WRITE']);
        const answers = await Promise.all([
          heard.receiver(redis.a, orderId)(first),
          heard.receiver(redis.b, orderId)(second),
        ]);
        // Each answer is final or a refusal the service resends; the resends settle it.
        const resent = await Promise.all(
          answers.map((status, i) =>
            status === 200
              ? 200
              : heard.receiver(i === 0 ? redis.a : redis.b, orderId)([first, second][i]!),
          ),
        );
        expect(resent).toEqual([200, 200]);
        expect(heard.paid).toHaveLength(1);
        expect(heard.reviewed).toEqual([{ reason: 'already-paid', paidBy: heard.paid[0] }]);
      }));

    it('a restart between two payments of one order: the second is already-paid', () =>
      onItsOwnRedis(async (redis, { orderId, heard, first, second }) => {
        expect(await heard.receiver(redis.a, orderId)(first)).toBe(200);
        await redis.server.restart!();
        // A safety net for a hang, far beyond what a passing run needs: not a timing check.
        for (let i = 0; i < 1000 && !redis.admin.isReady; i++) await delay(10);
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) {
          status = await heard.receiver(redis.b, orderId)(second);
          if (status !== 200) await delay(100);
        }
        expect(status).toBe(200);
        expect(heard.paid).toEqual([paymentOf(first)]);
        expect(heard.reviewed).toEqual([{ reason: 'already-paid', paidBy: paymentOf(first) }]);
      }));
  },
);
