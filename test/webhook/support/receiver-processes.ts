// Receiver processes (support/receiver-process.ts) for the tests across processes: the child
// bundled once per test file, started with its environment, and drained at the end; the stores
// they share (receiversOnStores).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { bundleForNode, nodeBundleDir } from './node-bundle.mjs';
import { postgresPool } from './pg-pools';
import { redisAvailable, startRedis } from './servers.mjs';
import type { TestServer } from './servers.mjs';

export interface ReceiverProcess {
  name: string;
  child: ChildProcess;
  port: number;
  /** Set by the test when it kills the process on purpose. */
  killed: boolean;
}

export interface ReceiverProcesses {
  /** Bundles the child (beforeAll). */
  bundle(): Promise<void>;
  /** Starts a receiver process named `name` with `env` beside this process's own. */
  start(name: string, env: Record<string, string>): Promise<ReceiverProcess>;
  /** Stops taking deliveries, lets running handlers finish, and waits for the exit. */
  drain(receiver: ReceiverProcess): Promise<void>;
  /** Deletes the bundle (afterAll). */
  remove(): void;
}

export function receiverProcesses(): ReceiverProcesses {
  const dir = nodeBundleDir();
  const bundle = `${dir}receiver-process.mjs`;
  return {
    async bundle() {
      await bundleForNode(fileURLToPath(new URL('./receiver-process.ts', import.meta.url)), bundle);
    },
    async start(name, env) {
      const child = fork(bundle, [], {
        env: { ...process.env, ...env, RECEIVER_NAME: name },
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      const port = await new Promise<number>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`receiver ${name} exited (${code})`)));
        child.on('message', (message: { type: string; port?: number }) => {
          if (message.type === 'ready') resolve(message.port as number);
        });
      });
      child.removeAllListeners('exit');
      return { name, child, port, killed: false };
    },
    async drain(receiver) {
      if (receiver.killed || receiver.child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        receiver.child.once('exit', () => resolve());
        receiver.child.send({ type: 'drain' });
      });
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The receiver processes of a test file and the stores they share. */
export interface ReceiversOnStores {
  processes: ReceiverProcesses;
  /** A fresh database, for the processes' store and the test's own tables. */
  postgres: TestServer;
  /** A pool of the test's own on that database. */
  pool: pg.Pool;
  /** Redis, where available (redisAvailable). */
  redis: TestServer | null;
}

/** Hooks of the calling file: the child bundled, PostgreSQL (pool of `poolMax`), Redis; all ended. */
export function receiversOnStores(poolMax: number): ReceiversOnStores {
  const processes = receiverProcesses();
  const database = postgresPool(poolMax);
  let redis: TestServer | null = null;
  beforeAll(async () => {
    [redis] = await Promise.all([
      redisAvailable ? startRedis() : Promise.resolve(null),
      processes.bundle(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await redis?.stop();
    processes.remove();
  }, 60_000);
  return {
    processes,
    get postgres() {
      return database.server;
    },
    get pool() {
      return database.pool;
    },
    get redis() {
      return redis;
    },
  };
}
