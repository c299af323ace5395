// node-postgres pools of the store tests: one per instance, named for pg_stat_activity, quiet
// when a test kills their connections, and all ended after the tests.
import pg from 'pg';

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
