// @vitest-environment node
// Payment outcomes on a real Redis (src/webhook/stores/redis-outcomes.ts): recorded once, read back,
// expired; heard live by another instance (another client, and another Node process) through
// pub/sub; a subscription that resolved never misses what follows; the pub/sub connection
// killed mid-wait (CLIENT KILL TYPE pubsub, with its user unable to log in again until after
// the outcome was recorded), and the outcome still arrives; 200 subscribers on one connection;
// the connection closed when nobody waits and on close(), and a merchant's own subscriber
// client left connected.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { RedisClientOptions } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisOutcomes } from '../../../src/webhook/stores/redis-outcomes';
import { delay } from '../support/http';
import { eventually, hear, outcome, removeBundle, startRecorder } from '../support/outcomes';
import { redisServerPath, startRedis } from '../support/servers.mjs';
import type { TestServer } from '../support/servers.mjs';

const redisAvailable = Boolean(process.env.REDIS_URL) || redisServerPath() !== null;

let server: TestServer | null = null;
type Client = ReturnType<typeof createClient>;
/** For the test's own commands: ACL, CLIENT LIST, CLIENT KILL. */
let admin: Client;
const clients: Client[] = [];

/** Every store of the tests, closed after them even when a test failed before its close(). */
const stores: { close(): Promise<void> }[] = [];
function track<T extends { close(): Promise<void> }>(store: T): T {
  stores.push(store);
  return store;
}

/** A fresh prefix: keys `<prefix>outcome:<id>`, channel `<prefix>outcomes`. */
const freshPrefix = (): string => `outcomes:${randomUUID()}:`;

/** A connected client of one instance, named for CLIENT LIST; closed after the tests. */
async function newClient(name: string, options: RedisClientOptions = {}): Promise<Client> {
  const client = createClient({ url: server?.url, name, ...options });
  // Connections killed by the tests must not crash the run.
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** The pub/sub connections named `name`, from CLIENT LIST TYPE pubsub. */
async function pubsubConnections(name: string): Promise<number> {
  const list = await admin.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'pubsub']);
  return list.split('\n').filter((line) => line.includes(` name=${name} `)).length;
}

async function subscribers(channel: string): Promise<number> {
  const reply = await admin.sendCommand<[string, number]>(['PUBSUB', 'NUMSUB', channel]);
  return Number(reply[1]);
}

beforeAll(async () => {
  if (!redisAvailable) return;
  // A server of its own: the tests turn ACL users off and kill every pub/sub connection.
  server = await startRedis({ own: true });
  admin = await newClient('admin');
}, 60_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await Promise.all(clients.map((client) => (client.isOpen ? client.close() : undefined)));
  await server?.stop();
  removeBundle();
}, 60_000);

describe.skipIf(!redisAvailable)('Redis outcomes', () => {
  it('keeps the first outcome of a payment, reads it back, and forgets it after its lifetime', async () => {
    const prefix = freshPrefix();
    const a = track(redisOutcomes({ client: await newClient('a1'), prefix }));
    const b = track(redisOutcomes({ client: await newClient('b1'), prefix }));
    const completed = outcome('COMPLETED');
    const failed = { ...outcome('FAILED', completed.paymentId), merchantPaymentId: 'other' };

    expect(await a.recordOutcome(completed, 60_000)).toEqual(completed);
    // Another instance, a later status: the first one stands, and is the answer.
    expect(await b.recordOutcome(failed, 60_000)).toEqual(completed);
    expect(await b.readOutcome(completed.paymentId)).toEqual(completed);
    expect(await a.readOutcome(randomUUID())).toBeNull();
    const stored = await admin.get(`${prefix}outcome:${completed.paymentId}`);
    expect(JSON.parse(stored as string)).toEqual(completed);
    const ttl = await admin.pTTL(`${prefix}outcome:${completed.paymentId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);

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
    const prefix = freshPrefix();
    const a = track(redisOutcomes({ client: await newClient('a2'), prefix }));
    const b = track(redisOutcomes({ client: await newClient('b2'), prefix }));
    const sent = outcome();
    const other = await hear(b, randomUUID());
    const heard = await hear(b, sent.paymentId);

    await a.recordOutcome(sent, 60_000);
    expect(await heard.first).toEqual(sent);
    // Recorded again (a resend, or another status): nothing new to hear.
    await a.recordOutcome({ ...sent, status: 'FAILED' }, 60_000);
    // Messages arrive in the order published: once the sentinel is heard, so was all before it.
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
    const prefix = freshPrefix();
    const b = track(redisOutcomes({ client: await newClient('b3'), prefix }));
    const recorder = await startRecorder({
      STORE: 'redis',
      REDIS_URL: server?.url as string,
      PREFIX: prefix,
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

  it('a subscription that has resolved misses nothing published after it, even on a fresh store', async () => {
    const prefix = freshPrefix();
    const a = track(redisOutcomes({ client: await newClient('a4'), prefix }));
    const client = await newClient('b4');
    for (let round = 0; round < 10; round++) {
      // A fresh store each round: the subscription has to open its connection and SUBSCRIBE.
      const b = track(redisOutcomes({ client, prefix }));
      const sent = outcome();
      const heard = await hear(b, sent.paymentId);
      await a.recordOutcome(sent, 60_000);
      // The sentinel is published after `sent`: heard in that order, or `sent` was missed.
      const sentinel = outcome();
      const last = await hear(b, sentinel.paymentId);
      await a.recordOutcome(sentinel, 60_000);
      await last.first;
      expect(heard.calls, `round ${round}`).toEqual([sent]);
      await b.close();
    }
  }, 60_000);

  it('the pub/sub connection killed mid-wait: an outcome published in the gap still arrives', async () => {
    const prefix = freshPrefix();
    const a = track(redisOutcomes({ client: await newClient('a5'), prefix }));
    // B logs in as a user of its own, so the test can keep it from reconnecting for a while.
    const user = `outcomes-b-${process.pid}`;
    await admin.sendCommand(['ACL', 'SETUSER', user, 'on', '>b', '~*', '&*', '+@all']);
    const b = track(
      redisOutcomes({
        client: await newClient('b5', { username: user, password: 'b' }),
        prefix,
      }),
    );
    const sent = outcome();
    const heard = await hear(b, sent.paymentId);
    expect(await pubsubConnections('b5')).toBe(1);

    // B's user off, and the default user too: a new connection would otherwise be the default
    // user, and SUBSCRIBE on it before node-redis sees its AUTH refused. Connections already
    // open (A's, the test's) stay as they are.
    await admin.sendCommand(['ACL', 'SETUSER', user, 'off']);
    await admin.sendCommand(['ACL', 'SETUSER', 'default', 'off']);
    try {
      const killed = await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
      expect(Number(killed)).toBeGreaterThanOrEqual(1);
      const channel = `${prefix}outcomes`;
      expect(
        await eventually(
          () => subscribers(channel),
          (n) => n === 0,
        ),
      ).toBe(0);

      // In the gap: B's connection is gone and cannot log in again. The message reaches nobody.
      await a.recordOutcome(sent, 60_000);
      await delay(300); // room for a message that had somewhere to go
      expect(heard.calls).toEqual([]);
    } finally {
      await admin.sendCommand(['ACL', 'SETUSER', 'default', 'on']);
      await admin.sendCommand(['ACL', 'SETUSER', user, 'on']);
    }
    // node-redis reconnects and subscribes again; B re-reads what it waits for.
    expect(await heard.first).toEqual(sent);
    expect(await pubsubConnections('b5')).toBe(1);
    // Live again afterwards.
    const next = outcome();
    const again = await hear(b, next.paymentId);
    await a.recordOutcome(next, 60_000);
    expect(await again.first).toEqual(next);
    expect(heard.calls).toEqual([sent]);
    await b.close();
  }, 60_000);

  it('200 subscribers of one instance share one pub/sub connection', async () => {
    const prefix = freshPrefix();
    const a = track(redisOutcomes({ client: await newClient('a6'), prefix }));
    const b = track(redisOutcomes({ client: await newClient('b6'), prefix }));
    const sent = Array.from({ length: 200 }, () => outcome());
    const heard = await Promise.all(sent.map(({ paymentId }) => hear(b, paymentId)));

    expect(await pubsubConnections('b6')).toBe(1);
    expect(await subscribers(`${prefix}outcomes`)).toBe(1);
    await Promise.all(sent.map((each) => a.recordOutcome(each, 60_000)));
    expect(await Promise.all(heard.map((h) => h.first))).toEqual(sent);
    expect(heard.every((h) => h.calls.length === 1)).toBe(true);
    await b.close();
  }, 60_000);

  it('the duplicated connection is closed when nobody waits and on close()', async () => {
    const prefix = freshPrefix();
    const idle = track(redisOutcomes({ client: await newClient('b7'), prefix }));
    const waiting = await Promise.all(
      [randomUUID(), randomUUID(), randomUUID()].map((id) => hear(idle, id)),
    );
    expect(await pubsubConnections('b7')).toBe(1);
    for (const subscriber of waiting) subscriber.unsubscribe();
    expect(
      await eventually(
        () => pubsubConnections('b7'),
        (n) => n === 0,
      ),
    ).toBe(0);

    const closing = track(redisOutcomes({ client: await newClient('b8'), prefix }));
    const left = await hear(closing, randomUUID());
    expect(await pubsubConnections('b8')).toBe(1);
    await closing.close(); // a subscriber still waits
    expect(
      await eventually(
        () => pubsubConnections('b8'),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(left.calls).toEqual([]);
    await expect(closing.subscribeOutcome(randomUUID(), () => {})).rejects.toThrow(
      /^servicepay: subscribeOutcome was called after the store was closed/,
    );
  }, 30_000);

  it('a client that cannot be duplicated records and reads, and subscribing says what to pass', async () => {
    const client = await newClient('a10');
    // As an ioredis adapter would be: sendCommand alone.
    const store = track(
      redisOutcomes({
        client: { sendCommand: (args) => client.sendCommand(args) },
        prefix: freshPrefix(),
      }),
    );
    const sent = outcome();
    expect(await store.recordOutcome(sent, 60_000)).toEqual(sent);
    expect(await store.readOutcome(sent.paymentId)).toEqual(sent);
    await expect(store.subscribeOutcome(sent.paymentId, () => {})).rejects.toThrow(
      /^servicepay: subscribing to outcomes needs \{ client \} to be a node-redis client/,
    );
  });

  it("a merchant's subscriber client: connected if it was not, unsubscribed, never closed", async () => {
    const prefix = freshPrefix();
    const channel = `${prefix}outcomes`;
    const a = track(redisOutcomes({ client: await newClient('a9'), prefix }));
    const subscriber = createClient({ url: server?.url, name: 'merchant9' });
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
    await admin.publish(`${prefix}merchant`, 'still here');
    expect(
      await eventually(
        async () => own,
        (value) => value !== '',
      ),
    ).toBe('still here');
    expect(subscriber.isOpen).toBe(true);
  }, 30_000);
});
