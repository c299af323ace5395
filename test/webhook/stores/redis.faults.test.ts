// @vitest-environment node
// Redis that forgets. The Redis store keeps its promise only while the server keeps its keys:
// without persistence a restart forgets every completion marker, with snapshots alone a crash
// forgets those since the last one, and an evicting maxmemory-policy drops them when memory runs
// short. Each forgotten marker is a notification whose resend is claimed (and so handled) again.
// These tests perform each fault on a real redis-server started with the setting, and check that
// createRedisStore warns, once, for exactly the settings that lose markers, and for no other.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRedisStore } from 'servicepay/webhook/redis';
import type { RedisStoreOptions } from 'servicepay/webhook/redis';
import { delay } from '../support/http';
import { redisServerPath, startRedis } from '../support/servers.mjs';
import type { RedisServer } from '../support/servers.mjs';

type Client = ReturnType<typeof createClient>;
const TTL = 86_400_000;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  const steps = cleanup.reverse();
  cleanup = [];
  for (const step of steps) await step();
});

/** A redis-server of its own with these settings, and a connected client. */
async function serve(
  options: Parameters<typeof startRedis>[0],
): Promise<{ server: RedisServer; client: Client }> {
  const server = (await startRedis(options))!;
  cleanup.push(() => server.stop());
  const client = createClient({ url: server.url });
  // A restart drops the connection; the client reconnects by itself.
  client.on('error', () => {});
  await client.connect();
  cleanup.push(async () => client.destroy());
  return { server, client };
}

/** A store on `client` whose warnings are collected in `warnings`. */
function storeWith(client: Client, more: Partial<RedisStoreOptions> = {}) {
  const warnings: string[] = [];
  const store = createRedisStore({
    client,
    prefix: `faults:${randomUUID()}:`,
    onWarning: (message) => warnings.push(message),
    ...more,
  });
  return { store, warnings };
}

/** How many CONFIG GET commands the server has answered (INFO commandstats). */
async function configGets(client: Client): Promise<number> {
  const info = await client.info('commandstats');
  // Redis 7 counts subcommands (config|get), Redis 6 the command.
  return Number(/^cmdstat_config(?:\|get)?:calls=(\d+)/m.exec(info)?.[1] ?? 0);
}

/**
 * Waits until `done()` holds, if given (the check runs beside the claims, so the test waits for
 * what it can see: the server's count of CONFIG GETs, or a warning), then lets everything sent
 * before settle: one more round trip on the same connection, and a turn of the event loop.
 */
async function settle(
  client: Client,
  done: () => Promise<boolean> | boolean = () => true,
): Promise<void> {
  // A safety net for a hang, far beyond what a passing run needs: not a timing check.
  for (let i = 0; i < 1000 && !(await done()); i++) await delay(10);
  await client.ping();
  await new Promise((resolve) => setImmediate(resolve));
}

/** Claims `count` fresh keys at once, all answered 'claimed'. */
async function claimMany(store: ReturnType<typeof createRedisStore>, count: number) {
  const claims = await Promise.all(
    Array.from({ length: count }, (_, i) => store.claim(`pay_${i}_${randomUUID()}`, 60_000)),
  );
  expect(new Set(claims.map((claim) => claim.state))).toEqual(new Set(['claimed']));
}

/** Claims and completes `key`, as a delivery whose handler succeeded does. */
async function handle(store: ReturnType<typeof createRedisStore>, key: string): Promise<void> {
  const claim = await store.claim(key, 60_000);
  if (claim.state !== 'claimed') throw new Error(`expected a claim, got ${claim.state}`);
  expect(await store.complete(key, claim.token, TTL)).toBe(true);
}

const describeRedis = describe.skipIf(redisServerPath() === null);

describeRedis(
  'createRedisStore reads the server settings once, and warns',
  { timeout: 60_000 },
  () => {
    it.each(['allkeys-lru', 'volatile-lru', 'volatile-ttl'])(
      'names maxmemory-policy %s once, however many claims',
      async (policy) => {
        const { client } = await serve({
          persistence: 'aof',
          flags: ['--maxmemory-policy', policy],
        });
        const { store, warnings } = storeWith(client);
        await claimMany(store, 50);
        await settle(client, async () => (await configGets(client)) >= 3);
        await claimMany(store, 200);
        await settle(client);
        expect(warnings).toEqual([
          expect.stringMatching(
            new RegExp(
              `^servicepay: the Redis server's maxmemory-policy is ${policy}: .*noeviction`,
            ),
          ),
        ]);
        // One check: three settings read once, not once per claim.
        expect(await configGets(client)).toBe(3);
      },
    );

    it('says a restart forgets everything on a server with no persistence', async () => {
      const { client } = await serve({ persistence: 'none' });
      const { store, warnings } = storeWith(client);
      await claimMany(store, 20);
      await settle(client, () => warnings.length > 0);
      expect(warnings).toEqual([
        'servicepay: the Redis server keeps nothing on disk (appendonly is no and save is empty): a restart forgets every handled notification, and a resend of one runs onNotification again. Turn on the append-only file: appendonly yes with appendfsync everysec (in redis.conf and with CONFIG SET appendonly yes).',
      ]);
    });

    it('says a crash forgets what came after the last snapshot on a server with snapshots alone', async () => {
      const { client } = await serve({ persistence: 'rdb' });
      const { store, warnings } = storeWith(client);
      await claimMany(store, 20);
      await settle(client, () => warnings.length > 0);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^servicepay: the Redis server keeps only snapshots on disk \(appendonly is no, save is "3600 1"\): a crash forgets/,
        ),
      ]);
    });

    it('says nothing on a server with the append-only file and noeviction', async () => {
      const { client } = await serve({
        persistence: 'aof',
        flags: ['--maxmemory-policy', 'noeviction'],
      });
      const { store, warnings } = storeWith(client);
      await claimMany(store, 50);
      await settle(client, async () => (await configGets(client)) >= 3);
      expect(warnings).toEqual([]);
    });

    it('notes once that it could not check where CONFIG is refused, and claims as usual', async () => {
      // As managed services do: the command renamed away.
      const { client } = await serve({
        persistence: 'aof',
        flags: ['--rename-command', 'CONFIG', ''],
      });
      const { store, warnings } = storeWith(client);
      await claimMany(store, 50);
      await settle(client, () => warnings.length > 0);
      await claimMany(store, 50);
      await settle(client);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^servicepay: createRedisStore could not read the Redis server's settings \(CONFIG GET answered: ERR unknown command .*checkServerConfig: false/,
        ),
      ]);
    });

    it('reads nothing with checkServerConfig: false', async () => {
      const { client } = await serve({ persistence: 'none' });
      const { store, warnings } = storeWith(client, { checkServerConfig: false });
      await claimMany(store, 50);
      await settle(client);
      expect(await configGets(client)).toBe(0);
      expect(warnings).toEqual([]);
    });

    it('checks again on the next claim when the server could not be reached', async () => {
      const { server } = await serve({ persistence: 'none' });
      // Failing at once while disconnected, instead of waiting: the check fails with the claim.
      const client: Client = createClient({ url: server.url, disableOfflineQueue: true });
      client.on('error', () => {});
      await client.connect();
      cleanup.push(async () => client.destroy());
      const { store, warnings } = storeWith(client);
      await server.restart!({
        whileDown: async () => {
          await expect(store.claim('pay_1:COMPLETED', 60_000)).rejects.toThrow();
          await new Promise((resolve) => setImmediate(resolve));
        },
      });
      expect(warnings).toEqual([]);
      // A safety net for a hang, far beyond what a passing run needs: not a timing check.
      for (let i = 0; i < 1000 && !client.isReady; i++) await delay(10);
      await claimMany(store, 5);
      await settle(client, () => warnings.length > 0);
      expect(warnings).toEqual([expect.stringContaining('appendonly is no and save is empty')]);
    });

    it('warns on console.warn when no onWarning is given', async () => {
      const { client } = await serve({ persistence: 'none' });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      cleanup.push(async () => warn.mockRestore());
      const store = createRedisStore({ client, prefix: `faults:${randomUUID()}:` });
      await claimMany(store, 5);
      await settle(client, () => warn.mock.calls.length > 0);
      expect(warn.mock.calls).toEqual([[expect.stringMatching(/^servicepay: .*appendonly is no/)]]);
    });
  },
);

describeRedis(
  'what the warned settings lose, and what the asked ones keep',
  { timeout: 60_000 },
  () => {
    it('no persistence: after a restart a completed notification is claimed again', async () => {
      const { server, client } = await serve({ persistence: 'none' });
      const { store, warnings } = storeWith(client);
      await handle(store, 'pay_1:COMPLETED');
      expect((await store.claim('pay_1:COMPLETED', 60_000)).state).toBe('completed');
      await settle(client, () => warnings.length > 0);
      expect(warnings).toEqual([expect.stringContaining('a restart forgets')]);

      await server.restart!();
      // The service's resend: claimed, so the receiver would run onNotification a second time.
      expect((await store.claim('pay_1:COMPLETED', 60_000)).state).toBe('claimed');
    });

    it('snapshots alone: a crash forgets what was completed since the last snapshot', async () => {
      const { server, client } = await serve({ persistence: 'rdb' });
      const { store } = storeWith(client, { checkServerConfig: false });
      await handle(store, 'pay_1:COMPLETED');
      await server.restart!({ signal: 'SIGKILL' });
      expect((await store.claim('pay_1:COMPLETED', 60_000)).state).toBe('claimed');
    });

    it('the append-only file: after a restart the notification is still completed', async () => {
      const { server, client } = await serve({ persistence: 'aof' });
      const { store, warnings } = storeWith(client);
      await handle(store, 'pay_1:COMPLETED');
      await settle(client, async () => (await configGets(client)) >= 3);
      expect(warnings).toEqual([]);
      await server.restart!();
      expect((await store.claim('pay_1:COMPLETED', 60_000)).state).toBe('completed');
    });

    /** Completes `count` notifications, then writes 20 MB of other data to the server. */
    async function completeThenFill(
      store: ReturnType<typeof createRedisStore>,
      client: Client,
      count: number,
    ): Promise<{ keys: string[]; refusedWrites: number }> {
      const keys = Array.from({ length: count }, (_, i) => `pay_${i}:COMPLETED`);
      for (const key of keys) await handle(store, key);
      const value = 'x'.repeat(10_000);
      let refusedWrites = 0;
      // 20 MB of the merchant's other data (sessions, caches) against a 4 MB maxmemory.
      for (let batch = 0; batch < 40; batch++) {
        const writes = await Promise.allSettled(
          Array.from({ length: 50 }, (_, i) => client.set(`cache:${batch}:${i}`, value)),
        );
        refusedWrites += writes.filter((write) => write.status === 'rejected').length;
      }
      return { keys, refusedWrites };
    }

    it('allkeys-lru: when memory runs short, completion markers are evicted and claimed again', async () => {
      const { client } = await serve({
        persistence: 'aof',
        flags: ['--maxmemory', '4mb', '--maxmemory-policy', 'allkeys-lru'],
      });
      const { store, warnings } = storeWith(client);
      const { keys, refusedWrites } = await completeThenFill(store, client, 200);
      expect(refusedWrites).toBe(0);
      const states = await Promise.all(keys.map((key) => store.claim(key, 60_000)));
      const again = states.filter((claim) => claim.state === 'claimed').length;
      // Resends of these notifications would run onNotification again.
      expect(again).toBeGreaterThan(keys.length / 2);
      // And the store said so, before any of it happened.
      expect(warnings).toEqual([expect.stringContaining('maxmemory-policy is allkeys-lru')]);
    });

    it('noeviction: when memory runs short, writes are refused and every marker is kept', async () => {
      const { client } = await serve({
        persistence: 'aof',
        flags: ['--maxmemory', '4mb', '--maxmemory-policy', 'noeviction'],
      });
      const { store, warnings } = storeWith(client);
      const { keys, refusedWrites } = await completeThenFill(store, client, 200);
      expect(refusedWrites).toBeGreaterThan(0);
      // While memory is full a claim is refused (the receiver answers 503, the service resends).
      // Full for certain: the other data's writes came close to the limit, this goes under it.
      await client.configSet('maxmemory', '1');
      await expect(store.claim('pay_new:COMPLETED', 60_000)).rejects.toThrow(/^OOM/);
      await client.configSet('maxmemory', '4mb');
      // Once the other data is gone, every handled notification is still completed.
      for (let batch = 0; batch < 40; batch++) {
        await client.del(Array.from({ length: 50 }, (_, i) => `cache:${batch}:${i}`));
      }
      const states = await Promise.all(keys.map((key) => store.claim(key, 60_000)));
      expect(new Set(states.map((claim) => claim.state))).toEqual(new Set(['completed']));
      expect(warnings).toEqual([]);
    });
  },
);
