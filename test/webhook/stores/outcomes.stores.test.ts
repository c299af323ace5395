// @vitest-environment node
// Payment outcomes on a real PostgreSQL (src/webhook/stores/postgres-outcomes.ts, LISTEN/NOTIFY)
// and a real Redis (src/webhook/stores/redis-outcomes.ts, pub/sub), one suite run on each:
// recorded once, read back, expired; heard live by another instance (another pool or client,
// and another Node process); a subscription that resolved never misses what follows; the
// listening connection killed mid-wait (with its login refused until after the outcome was
// recorded), and the outcome still arrives; 200 subscribers on one connection; the connection
// let go when nobody waits and on close(); a connection that cannot listen. Then the cases only
// one store has: PostgreSQL's payload limit, table names and restart; Redis's merchant-owned
// subscriber client.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createClient } from 'redis';
import type { RedisClientOptions } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeStore, PaymentOutcome } from '../../../src/webhook/stores/outcomes';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { outcomesTableName, postgresOutcomes } from '../../../src/webhook/stores/postgres-outcomes';
import { redisOutcomes } from '../../../src/webhook/stores/redis-outcomes';
import { delay } from '../support/http';
import { eventually, hear, outcome, removeBundle, startRecorder } from '../support/outcomes';
import { namedPools } from '../support/pg-pools';
import { redisAvailable, startPostgres, startRedis } from '../support/servers.mjs';
import type { RestartableServer, TestServer } from '../support/servers.mjs';

type Store = OutcomeStore & { close(): Promise<void> };

/** Every store of the tests, closed after them even when a test failed before its close(). */
const stores: { close(): Promise<void> }[] = [];
function track<T extends { close(): Promise<void> }>(store: T): T {
  stores.push(store);
  return store;
}

/** Closes the stores made so far, before their server stops. */
async function closeStores(): Promise<void> {
  await Promise.all(stores.splice(0).map((store) => store.close()));
}

/** A login the test can refuse and allow again (a role, an ACL user). */
interface Login {
  user: string;
  password: string;
}

/**
 * One store on its own server, as the shared cases use it. A connection is what one instance
 * gives its store: a pg Pool (`poolSize` connections at most), a node-redis client. `space` is
 * what keeps a test's outcomes apart: a table (its outcomes table is `<space>_outcomes`), a
 * key prefix (keys `<space>outcome:<id>`, channel `<space>outcomes`).
 */
interface Backend<C> {
  name: string;
  available: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  fresh(): string;
  /** A connection of one instance, named for the server's list of connections. */
  connect(name: string, options?: { poolSize?: number; login?: Login }): Promise<C>;
  store(connection: C, space: string): Store;
  /** How many connections named `name` listen for outcomes right now. */
  listening(name: string): Promise<number>;
  /** What the server holds for the one outcome recorded in `space`. */
  expectStored(space: string, stored: PaymentOutcome): Promise<void>;
  recorderEnv(space: string): Record<string, string>;
  /** A login of its own, allowed to read `space`. */
  newLogin(space: string): Promise<Login>;
  /** Refuses `login` and drops its listening connection; resolves once it is gone. */
  cutOff(login: Login, space: string): Promise<{ restore(): Promise<void> }>;
  /** The listening connections named `name` once the store has listened again. */
  relistened(name: string): Promise<number>;
  /** With 200 waiting on `connection`: one listener, and what else shows it is one. */
  expectOneListener(connection: C, name: string, space: string): Promise<void>;
  /** Ends a connection the store has let go of (a pool's end() resolves only then). */
  end(connection: C): Promise<void>;
  /** A store over a connection that cannot listen, and how subscribing refuses. */
  deafStore(): Promise<{ store: Store; refusal: RegExp; done(): Promise<void> }>;
  /** The cases only this store has, run after the shared ones. */
  ownCases(): void;
}

// ---- PostgreSQL --------------------------------------------------------------------------

let pgServer: RestartableServer;
/** For the test's own statements: roles, counts, kills. */
let pgAdmin: pg.Pool;
let tables = 0;

/** The pools of the instances (10 connections each unless asked), ended after the tests. */
const pools = namedPools(() => pgServer.url, { max: 10 });
const newPool = pools.pool;

/** How many connections of `application` are LISTENing right now. */
async function pgListening(application: string): Promise<number> {
  const { rows } = await pgAdmin.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`,
    [application],
  );
  return (rows[0] as { n: number }).n;
}

const postgres: Backend<pg.Pool> = {
  name: 'PostgreSQL',
  available: true,
  async start() {
    // A server of its own: the last test restarts it.
    pgServer = await startPostgres({ own: true });
    pgAdmin = new pg.Pool({ connectionString: pgServer.url, max: 3 });
    pgAdmin.on('error', () => {});
  },
  async stop() {
    await pools.endAll();
    await pgAdmin?.end();
    await pgServer?.stop();
  },
  fresh: () => `outcomes_${process.pid}_${++tables}`,
  async connect(name, { poolSize, login } = {}) {
    if (login === undefined) return newPool(name, poolSize ? { max: poolSize } : {});
    const url = new URL(pgServer.url);
    url.username = login.user;
    url.password = login.password;
    return newPool(name, { connectionString: url.href });
  },
  store: (pool, table) => postgresOutcomes({ pool, table }),
  listening: pgListening,
  async expectStored(table) {
    const { rows } = await pgAdmin.query(`SELECT status FROM "${table}_outcomes"`);
    expect(rows).toEqual([{ status: 'COMPLETED' }]);
  },
  recorderEnv: (table) => ({ STORE: 'postgres', DATABASE_URL: pgServer.url, TABLE: table }),
  async newLogin(table) {
    const login = { user: `outcomes_b_${process.pid}`, password: 'b' };
    await pgAdmin.query(`CREATE ROLE ${login.user} LOGIN PASSWORD '${login.password}'`);
    await pgAdmin.query(`GRANT SELECT ON "${table}_outcomes" TO ${login.user}`);
    return login;
  },
  async cutOff({ user }) {
    await pgAdmin.query(`ALTER ROLE ${user} NOLOGIN`);
    const { rows } = await pgAdmin.query(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE usename = $1`,
      [user],
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const gone = await eventually(
      () =>
        pgAdmin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1`, [user]),
      ({ rows: left }) => (left[0] as { n: number }).n === 0,
    );
    expect(gone.rows).toEqual([{ n: 0 }]);
    return { restore: () => pgAdmin.query(`ALTER ROLE ${user} LOGIN`).then(() => {}) };
  },
  // pg_stat_activity shows the LISTEN once the statement has run: it may lag the re-read.
  relistened: (name) =>
    eventually(
      () => pgListening(name),
      (n) => n === 1,
    ),
  async expectOneListener(pool, name) {
    expect(await pgListening(name)).toBe(1);
    expect(pool.totalCount - pool.idleCount).toBe(1); // the one lent to the store
  },
  end: (pool) => pool.end(),
  async deafStore() {
    const client = new pg.Client({ connectionString: pgServer.url });
    client.on('error', () => {});
    await client.connect();
    return {
      store: postgresOutcomes({ pool: client, table: postgres.fresh() }),
      refusal: /^servicepay: subscribing to outcomes needs \{ pool \} to be a node-postgres Pool/,
      done: () => client.end(),
    };
  },
  ownCases: postgresCases,
};

function postgresCases(): void {
  it('an outcome too large for a NOTIFY payload (8000 bytes) still reaches the subscriber', async () => {
    const table = postgres.fresh();
    const a = track(postgresOutcomes({ pool: newPool('a10'), table }));
    const b = track(postgresOutcomes({ pool: newPool('b10'), table }));
    const sent = outcome('COMPLETED', `long-${'x'.repeat(9000)}`);
    const heard = await hear(b, sent.paymentId);
    expect(await a.recordOutcome(sent, 60_000)).toEqual(sent);
    expect(await heard.first).toEqual(sent);
    await b.close();
  });

  it('instances that spell the table `name` and `public.name` hear each other', async () => {
    const table = postgres.fresh();
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
    const { rows } = await pgAdmin.query(`SELECT payment_id FROM "${name}"`);
    expect(rows).toEqual([{ payment_id: sent.paymentId }]);
    // The idempotency table is untouched: the claim still stands.
    expect(await idempotency.claim('key-1', 60_000)).toEqual({ state: 'in-progress' });
  });

  // Last: it restarts the server under every pool.
  it('the server restarted mid-wait: the subscriber still hears the outcome', async () => {
    const table = postgres.fresh();
    const a = track(postgresOutcomes({ pool: newPool('a9'), table }));
    const b = track(postgresOutcomes({ pool: newPool('b9'), table }));
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);

    await pgServer.restart();
    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);
    expect(heard.calls).toEqual([sent]);
    await b.close();
  }, 60_000);
}

// ---- Redis -------------------------------------------------------------------------------

type Client = ReturnType<typeof createClient>;
let redisServer: TestServer | null = null;
/** For the test's own commands: ACL, CLIENT LIST, CLIENT KILL. */
let redisAdmin: Client;
const clients: Client[] = [];

/** A connected client of one instance, named for CLIENT LIST; closed after the tests. */
async function newClient(name: string, options: RedisClientOptions = {}): Promise<Client> {
  const client = createClient({ url: redisServer?.url, name, ...options });
  // Connections killed by the tests must not crash the run.
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** The pub/sub connections named `name`, from CLIENT LIST TYPE pubsub. */
async function pubsubConnections(name: string): Promise<number> {
  const list = await redisAdmin.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']);
  return list.split('\n').filter((line) => line.includes(` name=${name} `)).length;
}

async function subscribers(channel: string): Promise<number> {
  const reply = await redisAdmin.sendCommand<[string, number]>(['PUBSUB', 'NUMSUB', channel]);
  return Number(reply[1]);
}

const redis: Backend<Client> = {
  name: 'Redis',
  available: redisAvailable,
  async start() {
    // A server of its own: the tests turn ACL users off and kill every pub/sub connection.
    redisServer = await startRedis({ own: true });
    redisAdmin = await newClient('admin');
  },
  async stop() {
    await Promise.all(clients.map((client) => (client.isOpen ? client.close() : undefined)));
    await redisServer?.stop();
  },
  fresh: () => `outcomes:${randomUUID()}:`,
  connect: (name, { login } = {}) =>
    newClient(name, login && { username: login.user, password: login.password }),
  store: (client, prefix) => redisOutcomes({ client, prefix }),
  listening: pubsubConnections,
  async expectStored(prefix, stored) {
    const key = `${prefix}outcome:${stored.paymentId}`;
    expect(JSON.parse((await redisAdmin.get(key)) as string)).toEqual(stored);
    const ttl = await redisAdmin.pTTL(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  },
  recorderEnv: (prefix) => ({
    STORE: 'redis',
    REDIS_URL: redisServer?.url as string,
    PREFIX: prefix,
  }),
  async newLogin() {
    const login = { user: `outcomes-b-${process.pid}`, password: 'b' };
    await redisAdmin.sendCommand([
      ...['ACL', 'SETUSER', login.user, 'on', `>${login.password}`],
      ...['~*', '&*', '+@all'],
    ]);
    return login;
  },
  async cutOff({ user }, prefix) {
    // The user off, and the default user too: a new connection would otherwise be the default
    // user, and SUBSCRIBE on it before node-redis sees its AUTH refused. Connections already
    // open (A's, the test's) stay as they are.
    await redisAdmin.sendCommand(['ACL', 'SETUSER', user, 'off']);
    await redisAdmin.sendCommand(['ACL', 'SETUSER', 'default', 'off']);
    const restore = async () => {
      await redisAdmin.sendCommand(['ACL', 'SETUSER', 'default', 'on']);
      await redisAdmin.sendCommand(['ACL', 'SETUSER', user, 'on']);
    };
    try {
      const killed = await redisAdmin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
      expect(Number(killed)).toBeGreaterThanOrEqual(1);
      expect(
        await eventually(
          () => subscribers(`${prefix}outcomes`),
          (n) => n === 0,
        ),
      ).toBe(0);
    } catch (error) {
      await restore();
      throw error;
    }
    return { restore };
  },
  // node-redis has subscribed again before the store re-reads: no waiting here.
  relistened: pubsubConnections,
  async expectOneListener(_client, name, prefix) {
    expect(await pubsubConnections(name)).toBe(1);
    expect(await subscribers(`${prefix}outcomes`)).toBe(1);
  },
  // The store closes the connection it duplicated; the merchant's client stays theirs.
  end: async () => {},
  async deafStore() {
    const client = await newClient('a10');
    return {
      // As an ioredis adapter would be: sendCommand alone.
      store: redisOutcomes({
        client: { sendCommand: (args) => client.sendCommand(args) },
        prefix: redis.fresh(),
      }),
      refusal: /^servicepay: subscribing to outcomes needs \{ client \} to be a node-redis client/,
      done: async () => {},
    };
  },
  ownCases: redisCases,
};

function redisCases(): void {
  it("a merchant's subscriber client: connected if it was not, unsubscribed, never closed", async () => {
    const prefix = redis.fresh();
    const channel = `${prefix}outcomes`;
    const a = track(redisOutcomes({ client: await newClient('a9'), prefix }));
    const subscriber = createClient({ url: redisServer?.url, name: 'merchant9' });
    subscriber.on('error', () => {});
    clients.push(subscriber);
    const b = track(redisOutcomes({ client: await newClient('b9'), subscriber, prefix }));
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);
    expect(subscriber.isReady).toBe(true);
    expect(await pubsubConnections('merchant9')).toBe(1);
    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);

    // Heard and gone: the store unsubscribes, and leaves the merchant's client open.
    heard.unsubscribe();
    expect(
      await eventually(
        () => subscribers(channel),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(subscriber.isOpen).toBe(true);
    // The merchant's own subscriptions on it are untouched by the store's.
    let own = '';
    await subscriber.subscribe(`${prefix}merchant`, (message) => (own = message));
    const again = await hear(b, randomUUID());
    again.unsubscribe();
    await b.close();
    await redisAdmin.publish(`${prefix}merchant`, 'still here');
    expect(
      await eventually(
        async () => own,
        (value) => value !== '',
      ),
    ).toBe('still here');
    expect(subscriber.isOpen).toBe(true);
  }, 30_000);
}

// ---- The suite, on each --------------------------------------------------------------------

afterAll(() => removeBundle());

function sharedCases<C>(backend: Backend<C>): void {
  const instance = async (name: string, space: string, options?: { poolSize?: number }) =>
    track(backend.store(await backend.connect(name, options), space));
  /** Instance A, with the table made (a read creates it) before B's first statement. */
  const readyInstance = async (name: string, space: string) => {
    const a = await instance(name, space);
    await a.readOutcome(randomUUID());
    return a;
  };

  it('keeps the first outcome of a payment, reads it back, and forgets it after its lifetime', async () => {
    const space = backend.fresh();
    const a = await instance('a1', space);
    const b = await instance('b1', space);
    const completed = outcome('COMPLETED');
    const failed = { ...outcome('FAILED', completed.paymentId), merchantPaymentId: 'other' };

    expect(await a.recordOutcome(completed, 60_000)).toEqual(completed);
    // Another instance, a later status: the first one stands, and is the answer.
    expect(await b.recordOutcome(failed, 60_000)).toEqual(completed);
    expect(await b.readOutcome(completed.paymentId)).toEqual(completed);
    expect(await a.readOutcome(randomUUID())).toBeNull();
    await backend.expectStored(space, completed);

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
    const space = backend.fresh();
    const a = await instance('a2', space);
    const b = await instance('b2', space);
    const sent = outcome();
    const other = await hear(b, randomUUID());
    const heard = await hear(b, sent.paymentId);

    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);
    // Recorded again (a resend, or another status): nothing new to hear.
    await a.recordOutcome({ ...sent, status: 'FAILED' }, 60_000);
    // Notifications (messages) arrive in the order committed (published): once the sentinel
    // is heard, so was all before it.
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
    const space = backend.fresh();
    const b = await instance('b3', space);
    // B first, so that a table exists before A's first statement (either may create it).
    expect(await b.readOutcome(randomUUID())).toBeNull();
    const recorder = await startRecorder(backend.recorderEnv(space));
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
    const space = backend.fresh();
    const a = await readyInstance('a4', space);
    // Four connections at most: a store that kept its own would leave the later rounds none.
    const connection = await backend.connect('b4', { poolSize: 4 });
    for (let round = 0; round < 10; round++) {
      // A fresh store each round: the subscription has to take its connection and listen.
      const b = track(backend.store(connection, space));
      const sent = outcome();
      const heard = await hear(b, sent.paymentId);
      await a.recordOutcome(sent, 60_000);
      // The sentinel is recorded after `sent`: heard in that order, or `sent` was missed.
      const sentinel = outcome();
      const last = await hear(b, sentinel.paymentId);
      await a.recordOutcome(sentinel, 60_000);
      await last.first;
      expect(heard.calls, `round ${round}`).toEqual([sent]);
      await b.close();
    }
  }, 60_000);

  it('the listening connection killed mid-wait: an outcome recorded in the gap still arrives', async () => {
    const space = backend.fresh();
    const a = await readyInstance('a5', space);
    // B logs in on its own, so the test can keep it from reconnecting for a while.
    const login = await backend.newLogin(space);
    const b = track(backend.store(await backend.connect('b5', { login }), space));
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);
    expect(await backend.listening('b5')).toBe(1);

    const cut = await backend.cutOff(login, space);
    try {
      // In the gap: B has no connection, and cannot take one. The outcome reaches nobody.
      await a.recordOutcome(sent, 60_000);
      await delay(300); // room for a notification that had somewhere to go
      expect(heard.calls).toEqual([]);
    } finally {
      await cut.restore();
    }
    // B connects and listens again, and re-reads what it waits for.
    expect(await heard.first).toEqual(sent);
    expect(await backend.relistened('b5')).toBe(1);
    // Live again afterwards.
    const next = outcome();
    const again = await hear(b, next.paymentId);
    await a.recordOutcome(next, 60_000);
    expect(await again.first).toEqual(next);
    expect(heard.calls).toEqual([sent]);
    await b.close();
  }, 60_000);

  it('200 subscribers of one instance share one listening connection', async () => {
    const space = backend.fresh();
    const a = await instance('a6', space);
    const connection = await backend.connect('b6');
    const b = track(backend.store(connection, space));
    const sent = Array.from({ length: 200 }, () => outcome());
    const heard = await Promise.all(sent.map(({ paymentId }) => hear(b, paymentId)));

    await backend.expectOneListener(connection, 'b6', space);
    await Promise.all(sent.map((each) => a.recordOutcome(each, 60_000)));
    expect(await Promise.all(heard.map((h) => h.first))).toEqual(sent);
    expect(heard.every((h) => h.calls.length === 1)).toBe(true);
    await b.close();
  }, 60_000);

  it('the listening connection is let go when nobody waits and on close(); a pool then ends', async () => {
    const space = backend.fresh();
    const idleConnection = await backend.connect('b7');
    const idle = track(backend.store(idleConnection, space));
    const waiting = await Promise.all(
      [randomUUID(), randomUUID(), randomUUID()].map((id) => hear(idle, id)),
    );
    expect(await backend.listening('b7')).toBe(1);
    for (const subscriber of waiting) subscriber.unsubscribe();
    // Let go: not listening any more, and not held (a pool's end() resolves).
    expect(
      await eventually(
        () => backend.listening('b7'),
        (n) => n === 0,
      ),
    ).toBe(0);
    await backend.end(idleConnection);

    const closingConnection = await backend.connect('b8');
    const closing = track(backend.store(closingConnection, space));
    const left = await hear(closing, randomUUID());
    expect(await backend.listening('b8')).toBe(1);
    await closing.close(); // a subscriber still waits
    await backend.end(closingConnection);
    expect(
      await eventually(
        () => backend.listening('b8'),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(left.calls).toEqual([]);
    await expect(closing.subscribeOutcome(randomUUID(), () => {})).rejects.toThrow(
      /^servicepay: subscribeOutcome was called after the store was closed/,
    );
  }, 30_000);

  it('a connection that cannot listen records and reads, and subscribing says what to pass', async () => {
    const { store, refusal, done } = await backend.deafStore();
    try {
      track(store);
      const sent = outcome();
      expect(await store.recordOutcome(sent, 60_000)).toEqual(sent);
      expect(await store.readOutcome(sent.paymentId)).toEqual(sent);
      await expect(store.subscribeOutcome(sent.paymentId, () => {})).rejects.toThrow(refusal);
    } finally {
      await done();
    }
  });
}

for (const backend of [postgres, redis] as Backend<unknown>[]) {
  describe.skipIf(!backend.available)(`${backend.name} outcomes`, () => {
    beforeAll(() => backend.start(), 120_000);
    afterAll(async () => {
      await closeStores();
      await backend.stop();
    }, 60_000);
    sharedCases(backend);
    backend.ownCases();
  });
}
