// @vitest-environment node
// After the bank, across instances: two merchant server processes (support/status-process.ts)
// share one store on a real PostgreSQL and on a real Redis. The webhook lands on A; a shopper's
// event stream waits on B and gets the final status, also when B's listening connection is
// killed mid-wait (pg_terminate_backend, CLIENT KILL) and the outcome is recorded in the gap.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream } from '../support/event-stream';
import { delay, send } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { redisAvailable, startPostgres, startRedis } from '../support/servers.mjs';
import type { TestServer } from '../support/servers.mjs';
import { bundleForNode, nodeBundleDir } from '../support/node-bundle.mjs';

const keys = serviceKeys();
const bundleDir = nodeBundleDir();
const bundle = `${bundleDir}status-process.mjs`;

let postgres: TestServer;
let redis: TestServer | null = null;
let admin: pg.Pool;
let scenario = 0;

beforeAll(async () => {
  await bundleForNode(
    fileURLToPath(new URL('../support/status-process.ts', import.meta.url)),
    bundle,
  );
  [postgres, redis] = await Promise.all([
    startPostgres(),
    // Redis of its own: killRedisListener may kill any pub/sub connection on it.
    redisAvailable ? startRedis({ own: true }) : Promise.resolve(null),
  ]);
  admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
  admin.on('error', () => {});
}, 120_000);

afterAll(async () => {
  await admin?.end();
  await Promise.all([postgres?.stop(), redis?.stop()]);
  rmSync(bundleDir, { recursive: true, force: true });
}, 60_000);

interface Instance {
  child: ChildProcess;
  url: string;
}

async function start(name: string, env: Record<string, string>): Promise<Instance> {
  const child = fork(bundle, [], {
    env: { ...process.env, ...env, RECEIVER_NAME: name },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`instance ${name} exited (${code})`)));
    child.on('message', (message: { type: string; port?: number }) => {
      if (message.type === 'ready') resolve(message.port as number);
    });
  });
  child.removeAllListeners('exit');
  return { child, url: `http://127.0.0.1:${port}` };
}

async function stop(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    instance.child.once('exit', () => resolve());
    instance.child.send({ type: 'close' });
  });
}

async function instances(store: 'postgres' | 'redis'): Promise<[Instance, Instance]> {
  const n = ++scenario;
  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis?.url ?? '',
    STORE: store,
    STORE_TABLE: `status_${n}`,
    STORE_PREFIX: `status:${process.pid}:${n}:`,
    PUBLIC_KEY: keys.publicText,
  };
  return [await start(`a${n}`, env), await start(`b${n}`, env)];
}

/** A shopper's return page on `instance`, waiting for its payment. */
async function waitOn(instance: Instance, paymentId: string, merchantPaymentId: string) {
  const response = await fetch(
    `${instance.url}/api/payments/status?paymentId=${paymentId}&merchantPaymentId=${merchantPaymentId}`,
    { headers: { accept: 'text/event-stream' } },
  );
  expect(response.status).toBe(200);
  const events = readEventStream(response.body as ReadableStream<Uint8Array>);
  expect(await events.next()).toBe('{"status":"PENDING"}');
  return events;
}

async function deliver(instance: Instance, n: ReturnType<typeof notification>): Promise<number> {
  const d = signed(n, keys.privateKey);
  return (
    await send(`${instance.url}/webhooks/servicepay`, d.body, { authorization: d.authorization })
  ).status;
}

/** Kills the listening connection of instance `name`; resolves once one was killed. */
type Kill = (name: string) => Promise<void>;

const killPostgresListener: Kill = async (name) => {
  for (let i = 0; i < 200; i++) {
    const { rows } = await admin.query(
      "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database() AND query ILIKE 'LISTEN%'",
      [name],
    );
    if (rows.length > 0) return;
    await delay(25);
  }
  throw new Error(`no listening connection of ${name}`);
};

const killRedisListener: Kill = async (name) => {
  const client = createClient({ url: redis?.url });
  client.on('error', () => {});
  await client.connect();
  try {
    for (let i = 0; i < 200; i++) {
      const list = String(await client.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']));
      const ids = list
        .split('\n')
        .filter((line) => line.includes(`name=${name}`) || line.includes('sub=1'))
        .map((line) => /id=(\d+)/.exec(line)?.[1])
        .filter((id): id is string => id !== undefined);
      if (ids.length > 0) {
        for (const id of ids) await client.sendCommand(['CLIENT', 'KILL', 'ID', id]);
        return;
      }
      await delay(25);
    }
    throw new Error(`no pub/sub connection of ${name}`);
  } finally {
    await client.quit();
  }
};

describe.each([
  { store: 'postgres' as const, kill: killPostgresListener },
  { store: 'redis' as const, kill: killRedisListener },
])('on one $store, two instances', ({ store, kill }) => {
  it.skipIf(store === 'redis' && !redisAvailable)(
    'the webhook lands on A; the shopper waiting on B gets the final status, also after B lost its listening connection',
    async () => {
      const [a, b] = await instances(store);
      try {
        const live = notification();
        const first = await waitOn(b, live.paymentId, live.merchantPaymentId as string);
        expect(await deliver(a, live)).toBe(200);
        expect(await first.next()).toBe('{"status":"COMPLETED"}');
        await first.ended;

        const gap = notification({ paymentStatus: 'FAILED', errorDescription: 'Rejected' });
        const second = await waitOn(b, gap.paymentId, gap.merchantPaymentId as string);
        await kill(`b${scenario}`);
        // Recorded on A while B is reconnecting: B re-reads on reconnection.
        expect(await deliver(a, gap)).toBe(200);
        expect(await second.next()).toBe('{"status":"FAILED"}');
        await second.ended;
      } finally {
        await Promise.all([stop(a), stop(b)]);
      }
    },
    60_000,
  );
});
