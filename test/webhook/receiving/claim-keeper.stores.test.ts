// @vitest-environment node
// The claim keeper on real PostgreSQL and Redis (issue 48): every claim a receiver holds is
// renewed in one store call per period (renewMany: one UPDATE, one pipelined round trip), and
// the claims are held, so the other instance answers 409 and each notification runs once.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFetchWebhookHandler } from '../../../src/webhook/index';
import type { FetchWebhookHandlerOptions, IdempotencyStore } from '../../../src/webhook/index';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { createRedisStore } from '../../../src/webhook/stores/redis';
import type { RedisCommandClient } from '../../../src/webhook/stores/redis';
import { delay } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { postgresPool } from '../support/pg-pools';
import { recorder } from '../support/receivers';
import { redisClient } from '../support/redis-client';
import { redisAvailable } from '../support/servers.mjs';

const keys = serviceKeys();

/**
 * The renewMany case both stores answer alike: a, b and c claimed, c completed, then five
 * claims renewed at once (two held, another claim's token, the completed one, one never
 * claimed). `watch` runs just before the call, to start counting it.
 */
async function renewFive(
  store: Required<Pick<IdempotencyStore, 'claim' | 'complete' | 'renewMany'>>,
  watch: () => void,
): Promise<readonly boolean[]> {
  const tokens: string[] = [];
  for (const key of ['a', 'b', 'c']) {
    const claim = await store.claim(key, 1000);
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    tokens.push(claim.token);
  }
  expect(await store.complete('c', tokens[2]!, 60_000)).toBe(true);
  watch();
  return store.renewMany(
    [
      { key: 'b', token: tokens[1]! },
      { key: 'a', token: tokens[1]! }, // another claim's token
      { key: 'c', token: tokens[2]! }, // completed
      { key: 'never', token: 'no-token' },
      { key: 'a', token: tokens[0]! },
    ],
    60_000,
  );
}

/** The store's calls, by method and the keys each named, in order. */
function counted(store: IdempotencyStore) {
  const calls: { method: string; keys: string[] }[] = [];
  const note = (method: string, ...keysNamed: string[]) => calls.push({ method, keys: keysNamed });
  const wrapped: IdempotencyStore = {
    claim: (key, ttlMs) => (note('claim', key), store.claim(key, ttlMs)),
    renew: (key, token, ttlMs) => (note('renew', key), store.renew(key, token, ttlMs)),
    complete: (key, token, ttlMs) => (note('complete', key), store.complete(key, token, ttlMs)),
    release: (key, token) => (note('release', key), store.release(key, token)),
    renewMany: (claims, ttlMs) => (
      note('renewMany', ...claims.map(({ key }) => key)),
      store.renewMany!(claims, ttlMs)
    ),
  };
  return { store: wrapped, calls };
}

function receiver(options: Pick<FetchWebhookHandlerOptions, 'store' | 'onNotification'>) {
  const handle = createFetchWebhookHandler({
    publicKey: keys.publicText,
    expectedPayment: 'unreconciled',
    claimTtlMs: 1000,
    onError: () => {},
    ...options,
  });
  return (d: { body: string; authorization: string }) =>
    handle(
      new Request('http://localhost/', {
        method: 'PUT',
        body: d.body,
        headers: { authorization: d.authorization },
      }),
    ).then((response) => response.status);
}

/** Three slow deliveries at one instance, their resends at another past the first lifetime. */
async function threeSlowDeliveries(shared: IdempotencyStore) {
  const { store, calls } = counted(shared);
  const record = recorder(() => delay(2500));
  const a = receiver({ store, onNotification: record.onNotification });
  const b = receiver({ store, onNotification: record.onNotification });
  const deliveries = [1, 2, 3].map(() => signed(notification(), keys.privateKey));
  const firsts = Promise.all(deliveries.map(a));
  await delay(1700); // past the claims' first lifetime: only renewals hold them now
  const elsewhere = await Promise.all(deliveries.map(b));
  return { elsewhere, firsts: await firsts, notifications: record.notifications, calls };
}

function expectOneCallPerPeriod(calls: { method: string; keys: string[] }[]): void {
  const batches = calls.filter(({ method }) => method === 'renewMany');
  // 2.5 s of handling at a period of 333 ms: several renewals, each of all three claims.
  expect(batches.length).toBeGreaterThanOrEqual(2);
  expect(batches.some(({ keys: named }) => named.length === 3)).toBe(true);
  // The keeper never renews one by one when the store renews many; a renew is only the check
  // before a handler whose claim was answered late (a loaded machine), at most one each.
  expect(calls.filter(({ method }) => method === 'renew').length).toBeLessThanOrEqual(3);
}

describe('createPostgresStore: the claims held, renewed in one UPDATE', () => {
  const postgres = postgresPool(10);
  const table = () => `keeper_${process.pid}_${randomUUID().slice(0, 8)}`;

  it('three slow deliveries keep their claims: 409 elsewhere, each runs once', async () => {
    const result = await threeSlowDeliveries(
      createPostgresStore({ pool: postgres.pool, table: table() }),
    );
    expect(result.elsewhere).toEqual([409, 409, 409]);
    expect(result.firsts).toEqual([200, 200, 200]);
    expect(result.notifications).toHaveLength(3);
    expectOneCallPerPeriod(result.calls);
  }, 30_000);

  it('renewMany is one statement, renews only what each token owns, answers in order', async () => {
    const name = table();
    const statements: unknown[] = [];
    const watched = {
      query: (text: string, values?: unknown[]) => (
        statements.push(text),
        postgres.pool.query(text, values)
      ),
    };
    const store = createPostgresStore({ pool: watched, table: name });
    const answers = await renewFive(store, () => (statements.length = 0));
    expect(answers).toEqual([true, false, false, false, true]);
    expect(statements).toHaveLength(1);
    const { rows } = await postgres.pool.query(
      `SELECT key, token IS NULL AS completed, round(extract(epoch FROM expires_at - now())) AS seconds FROM ${name} ORDER BY key`,
    );
    expect(rows).toEqual([
      { key: 'a', completed: false, seconds: '60' },
      { key: 'b', completed: false, seconds: '60' },
      { key: 'c', completed: true, seconds: '60' },
    ]);
  });
});

describe.skipIf(!redisAvailable)(
  'createRedisStore: the claims held, renewed in one round trip',
  () => {
    const redis = redisClient();
    const prefix = () => `keeper:${randomUUID()}:`;

    it('three slow deliveries keep their claims: 409 elsewhere, each runs once', async () => {
      const store = createRedisStore({
        client: redis.client,
        prefix: prefix(),
        checkServerConfig: false,
      });
      const result = await threeSlowDeliveries(store);
      expect(result.elsewhere).toEqual([409, 409, 409]);
      expect(result.firsts).toEqual([200, 200, 200]);
      expect(result.notifications).toHaveLength(3);
      expectOneCallPerPeriod(result.calls);
    }, 30_000);

    it('renewMany sends every command before awaiting any answer (one pipeline), answers in order', async () => {
      const log: string[] = [];
      const watched: RedisCommandClient = {
        sendCommand: (args) => {
          log.push(`send ${args[0]}`);
          return redis.client.sendCommand(args).then(
            (reply) => (log.push('reply'), reply),
            (error: unknown) => (log.push('reply'), Promise.reject(error)),
          );
        },
      };
      const at = prefix();
      const store = createRedisStore({ client: watched, prefix: at, checkServerConfig: false });
      const answers = await renewFive(store, () => (log.length = 0));
      expect(answers).toEqual([true, false, false, false, true]);
      expect(log.slice(0, 5)).toEqual(Array(5).fill('send EVALSHA'));
      const ttl = async (key: string) =>
        Number(await redis.client.sendCommand(['PTTL', `${at}${key}`]));
      for (const key of ['a', 'b', 'c']) expect(await ttl(key)).toBeGreaterThan(50_000);
      expect(await ttl('never')).toBe(-2); // no such key: renewMany made none
    });
  },
);
