// @vitest-environment node
// The store examples that docs/stores.md includes from examples/stores/ run as pasted, each as
// its own Node process on a real server, and keep running through what production does to their
// connections: an administrator ending them (pg_terminate_backend, CLIENT KILL) and a restart of
// the server. After each fault the process must still be alive and a signed delivery must get
// 200, with the order updated: a process that died on an 'error' event with no listener answers
// nothing, and every delivery after it is refused until someone restarts it. And each pays an
// order only as the order says (expectedPayment): a signed £0.01 payment of a £12.50 order is
// answered 200 and leaves it open.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/free-port';
import { delay } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { redisServerPath, startPostgres, startRedis } from '../support/servers.mjs';
import type { RedisServer, RestartableServer } from '../support/servers.mjs';
import { bundleForNode, nodeBundleDir } from '../support/node-bundle.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const outDir = nodeBundleDir();
const keys = serviceKeys();
/** The examples' connections to PostgreSQL, by name (node-postgres reads PGAPPNAME). */
const APP_NAME = 'servicepay-store-example';
/** Deliveries tried while the server comes back: a safety net, far beyond what a pass needs. */
const MAX_ATTEMPTS = 60;

/** Bundles examples/stores/<name>.ts, with servicepay resolved to the sources. */
async function bundle(name: string): Promise<string> {
  return bundleForNode(`${repo}examples/stores/${name}.ts`, `${outDir}${name}.mjs`, {
    'servicepay/webhook': `${repo}src/webhook/index.ts`,
    'servicepay/webhook/postgres': `${repo}src/webhook/stores/postgres.ts`,
    'servicepay/webhook/redis': `${repo}src/webhook/stores/redis.ts`,
  });
}

interface Example {
  url: string;
  child: ChildProcess;
  /** Everything it printed, stdout and stderr. */
  output(): string;
  /** Resolves once it printed `text`, or has exited. */
  noticed(text: string): Promise<void>;
}

let running: Example | undefined;
afterEach(async () => {
  const child = running?.child;
  running = undefined;
  if (child && child.exitCode === null && child.signalCode === null) {
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill();
    });
  }
});

/** Starts a bundled example with `env`, and waits until it listens. */
async function startExample(file: string, env: Record<string, string>): Promise<Example> {
  const port = await freePort();
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, ...env, PORT: String(port), SERVICEPAY_PUBLIC_KEY: keys.publicPem },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const collect = (chunk: Buffer): void => {
    output += chunk;
    watchers.forEach((watch) => watch());
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  child.once('exit', () => watchers.forEach((watch) => watch()));
  const noticed = (text: string): Promise<void> =>
    new Promise((resolve) => {
      const watch = (): void => {
        if (!output.includes(text) && child.exitCode === null && child.signalCode === null) return;
        watchers.delete(watch);
        resolve();
      };
      watchers.add(watch);
      watch();
    });
  running = { url: `http://127.0.0.1:${port}/`, child, output: () => output, noticed };
  await noticed('Receiving webhooks at');
  expect(exitMessage(running)).toBe('running');
  return running;
}

function exitMessage(example: Example): string {
  const { exitCode, signalCode } = example.child;
  if (exitCode === null && signalCode === null) return 'running';
  return `the example exited (${exitCode ?? signalCode}):\n${example.output()}`;
}

/**
 * Sends a signed COMPLETED for `orderId` (paid with metadata: { orderId }, for its £12.50 and
 * its reference unless `amount` says otherwise) until it is answered 200, as the service
 * resends: 503 (the store unreachable while the server comes back) is retried, a bounded number
 * of times; anything else, or the process exiting, fails at once. Answers the statuses seen.
 */
async function deliver(example: Example, orderId: string, amount = 12.5): Promise<number[]> {
  const paid = notification({
    paymentRequest: { amount, currency: 'GBP', reference: REFERENCE },
    paymentMetadata: { orderId },
  });
  const delivery = signed(paid, keys.privateKey);
  const statuses: number[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    expect(exitMessage(example)).toBe('running');
    let status: number;
    try {
      const response = await fetch(example.url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: delivery.authorization },
        body: delivery.body,
        // A hang guard, not a timing check.
        signal: AbortSignal.timeout(60_000),
      });
      status = response.status;
    } catch (error) {
      // Refused: the process is gone (say why), or this attempt raced its last words.
      expect(exitMessage(example)).toBe('running');
      throw error;
    }
    statuses.push(status);
    if (status === 200) return statuses;
    expect(status, `statuses so far: ${statuses.join(', ')}`).toBe(503);
    await delay(250);
  }
  throw new Error(`no 200 in ${MAX_ATTEMPTS} deliveries: ${statuses.join(', ')}`);
}

/** Every order's total and reference, as the shop made it. */
const [TOTAL, REFERENCE] = ['12.50', 'ORDER-1'];
let orders = 0;
const newOrderId = (): string => `order-${process.pid}-${++orders}`;

// Each case bundles nothing (done once), starts an example and a server: a few seconds alone,
// more beside the rest of the suite on two cores. The bound is for a hang, not a speed check.
describe('examples/stores/postgres.ts', { timeout: 120_000 }, () => {
  let server: RestartableServer;
  let admin: pg.Pool;
  let file: string;

  beforeAll(async () => {
    // A server of its own: the test below restarts it.
    [server, file] = await Promise.all([startPostgres({ own: true }), bundle('postgres')]);
    admin = new pg.Pool({ connectionString: server.url, max: 2 });
    // The restart below ends the admin's idle connections too.
    admin.on('error', () => {});
    await admin.query(
      `CREATE TABLE orders (id text PRIMARY KEY, total numeric(10,2) NOT NULL,
         reference text NOT NULL, status text NOT NULL DEFAULT 'open')`,
    );
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  }, 60_000);

  /** An order made, a payment of `amount` delivered for it: the order's status after. */
  async function paidOrder(example: Example, amount?: number): Promise<string | undefined> {
    const id = newOrderId();
    await admin.query('INSERT INTO orders (id, total, reference) VALUES ($1, $2, $3)', [
      id,
      TOTAL,
      REFERENCE,
    ]);
    await deliver(example, id, amount);
    const { rows } = await admin.query<{ status: string }>(
      'SELECT status FROM orders WHERE id = $1',
      [id],
    );
    return rows[0]?.status;
  }

  const start = (): Promise<Example> =>
    startExample(file, { DATABASE_URL: server.url, PGAPPNAME: APP_NAME });

  it('keeps running when an administrator ends its connections (pg_terminate_backend)', async () => {
    const example = await start();
    // The first delivery leaves the pool holding idle connections.
    expect(await paidOrder(example)).toBe('paid');
    expect(await paidOrder(example, 0.01)).toBe('open');
    const { rows } = await admin.query<{ ended: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
      [APP_NAME],
    );
    expect(rows.length).toBeGreaterThan(0);
    await example.noticed('PostgreSQL connection lost');
    expect(await paidOrder(example)).toBe('paid');
    expect(exitMessage(example)).toBe('running');
  });

  it('keeps running through a restart of the database', async () => {
    const example = await start();
    expect(await paidOrder(example)).toBe('paid');
    await server.restart();
    await example.noticed('PostgreSQL connection lost');
    expect(await paidOrder(example)).toBe('paid');
    expect(exitMessage(example)).toBe('running');
  });
});

// A server of its own, with the settings docs/stores.md asks for, so that it can be restarted.
describe.skipIf(redisServerPath() === null)(
  'examples/stores/redis.ts',
  { timeout: 120_000 },
  () => {
    let server: RedisServer;
    let admin: ReturnType<typeof createClient>;
    let file: string;

    beforeAll(async () => {
      let started: RedisServer | null;
      [started, file] = await Promise.all([startRedis({ persistence: 'aof' }), bundle('redis')]);
      server = started!;
      admin = createClient({ url: server.url });
      // The restart below drops the admin's connection too; it reconnects by itself.
      admin.on('error', () => {});
      await admin.connect();
    }, 120_000);
    afterAll(async () => {
      // Not quit(): after a failed case it may still be reconnecting, and QUIT would wait for ever.
      admin?.destroy();
      await server?.stop();
    }, 60_000);

    /** An order made, a payment of `amount` delivered for it: the order's status after. */
    async function paidOrder(example: Example, amount?: number): Promise<string | null> {
      const id = newOrderId();
      await admin.hSet(`order:${id}`, { total: TOTAL, reference: REFERENCE, status: 'open' });
      await deliver(example, id, amount);
      return admin.hGet(`order:${id}`, 'status');
    }

    const start = (): Promise<Example> => startExample(file, { REDIS_URL: server.url });

    it('keeps running when an administrator kills its connection (CLIENT KILL)', async () => {
      const example = await start();
      expect(await paidOrder(example)).toBe('paid');
      expect(await paidOrder(example, 0.01)).toBe('open');
      // Every client but the one asking (SKIPME yes is the default): the example's.
      const killed = await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal']);
      expect(Number(killed)).toBeGreaterThan(0);
      await example.noticed('Redis connection lost');
      expect(await paidOrder(example)).toBe('paid');
      expect(exitMessage(example)).toBe('running');
    });

    it('keeps running through a restart of the server', async () => {
      const example = await start();
      expect(await paidOrder(example)).toBe('paid');
      await server.restart!();
      await example.noticed('Redis connection lost');
      expect(await paidOrder(example)).toBe('paid');
      expect(exitMessage(example)).toBe('running');
    });
  },
);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));
