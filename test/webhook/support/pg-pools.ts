// node-postgres pools of the store tests: one per instance, named for pg_stat_activity, quiet
// when a test kills their connections, and all ended after the tests; or one pool on a fresh
// database for a test file or block (postgresPool).
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres } from './servers.mjs';
import type { TestServer } from './servers.mjs';

export interface NamedPools {
  /** A pool named `name` (application_name) on the server at `url()`; `config` overrides. */
  pool(name: string, config?: pg.PoolConfig): pg.Pool;
  /** Ends every pool not ended yet (afterAll). */
  endAll(): Promise<void>;
}

export function namedPools(url: () => string, defaults: pg.PoolConfig = {}): NamedPools {
  const pools: pg.Pool[] = [];
  return {
    pool(name, config = {}) {
      const pool = new pg.Pool({
        connectionString: url(),
        application_name: name,
        ...defaults,
        ...config,
      });
      // Connections terminated by the tests must not crash the run.
      pool.on('error', () => {});
      pools.push(pool);
      return pool;
    },
    async endAll() {
      await Promise.all(pools.map((pool) => (pool.ending ? undefined : pool.end())));
    },
  };
}

/** A fresh database (startPostgres) and a pool of `max` connections on it. */
export interface PostgresPool {
  server: TestServer;
  pool: pg.Pool;
}

/** Hooks of the calling file or describe: a fresh database, a pool of `max` on it, then ended. */
export function postgresPool(max: number): PostgresPool {
  const postgres = {} as PostgresPool;
  beforeAll(async () => {
    postgres.server = await startPostgres();
    postgres.pool = new pg.Pool({ connectionString: postgres.server.url, max });
    // Idle clients report the server's shutdown at the end; node-postgres needs a listener.
    postgres.pool.on('error', () => {});
  }, 120_000);
  afterAll(async () => {
    await postgres.pool?.end();
    await postgres.server?.stop();
  }, 60_000);
  return postgres;
}
