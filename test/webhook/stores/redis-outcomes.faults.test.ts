// @vitest-environment node
// The Redis outcome store's pub/sub connection under the faults a server does not show: frozen
// behind a TCP relay that stops forwarding (a NAT dropping an idle flow: no FIN, no RST, so
// node-redis never notices), the outcome recorded meanwhile still reaches the waiting subscriber
// and event stream; and while no pub/sub connection can be opened again, the event streams end
// after the current status instead of promising an outcome they cannot hear.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../../src/webhook/stores/redis';
import { expectHeardThroughFreeze, openStream } from '../support/listener-faults';
import { outcome } from '../support/outcomes';
import { startRelay, throughRelay } from '../support/relay';
import type { Relay } from '../support/relay';
import { redisAvailable, startRedis } from '../support/servers.mjs';
import type { TestServer } from '../support/servers.mjs';

type Client = ReturnType<typeof createClient>;

let server: TestServer | null = null;
const clients: Client[] = [];
const relays: Relay[] = [];
const closers: (() => Promise<void>)[] = [];
/** Checks of the pub/sub connection every second: a dead one is replaced within three. */
const CHECK_MS = 1000;

async function newClient(url: string): Promise<Client> {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/**
 * A store whose commands go straight to the server and whose pub/sub connections (each a
 * duplicate, as the store makes them) pass a relay, which can then freeze them alone.
 */
async function relayedStore() {
  const url = server?.url as string;
  const relay = await startRelay({ host: '127.0.0.1', port: Number(new URL(url).port) });
  relays.push(relay);
  const direct = await newClient(url);
  const prefix = `listener-faults:${randomUUID()}:`;
  const store = createRedisStore({
    client: {
      sendCommand: (args) => direct.sendCommand(args),
      duplicate: () => {
        const sub = createClient({ url: throughRelay(url, relay) });
        clients.push(sub);
        return sub;
      },
    } as Parameters<typeof createRedisStore>[0]['client'],
    prefix,
    checkServerConfig: false,
    listenerCheckMs: CHECK_MS,
  });
  closers.push(() => store.close());
  // Another instance on the same keys, whose outcomes reach B only through pub/sub.
  const other = createRedisStore({
    client: await newClient(url),
    prefix,
    checkServerConfig: false,
  });
  return { relay, store, other };
}

beforeAll(async () => {
  if (redisAvailable) server = await startRedis();
}, 60_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await Promise.all(relays.map((relay) => relay.close()));
  await Promise.all(clients.map((client) => (client.isOpen ? client.destroy() : undefined)));
  await server?.stop();
}, 60_000);

describe.skipIf(!redisAvailable)('the Redis pub/sub connection under faults', () => {
  it('frozen without a FIN: noticed, replaced, and the outcome recorded meanwhile reaches the subscriber and the stream', async () => {
    const { relay, store: b, other: a } = await relayedStore();
    await expectHeardThroughFreeze(a, b, async () => relay.freeze(), closers);
  }, 30_000);

  it('no pub/sub connection can be opened again: the streams end after the current status', async () => {
    const { relay, store, other } = await relayedStore();
    expect(() =>
      createRedisStore({ client: { sendCommand: async () => null }, listenerCheckMs: 0 }),
    ).toThrow(
      'servicepay: createRedisStore listenerCheckMs must be a positive number of milliseconds (at most 2147483647), got 0.',
    );
    const quiet = outcome();
    const recorded = outcome();
    const waiting = await openStream(store, quiet.paymentId, closers);
    const settled = await openStream(store, recorded.paymentId, closers);
    relay.freeze();
    relay.refuse();
    // Published to a connection that no longer forwards: nobody hears it.
    await other.recordOutcome(recorded, 60_000);

    await Promise.all([waiting.ended, settled.ended]);
    expect(waiting.events).toEqual(['{"status":"PENDING"}']);
    expect(settled.events).toEqual(['{"status":"PENDING"}', '{"status":"COMPLETED"}']);
  }, 30_000);
});
