/**
 * `servicepay/webhook/postgres`: an IdempotencyStore in a PostgreSQL table, shared by every
 * receiver instance that uses the database. One statement per call, each atomic on its own, so
 * no transaction spans a delivery and any pool (or single client) can run them.
 *
 * The table, created on first use unless it exists (DDL in POSTGRES_STORE_DDL):
 *   key        text primary key     the idempotency key
 *   token      text                 the owning claim's token; NULL once completed
 *   expires_at timestamptz not null when the claim or the completion lapses
 * Time is the database server's (now()), so receivers' clocks never need to agree.
 */
import { COMPLETED_CLAIM, IN_PROGRESS_CLAIM, newClaimToken } from './idempotency';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency';

/**
 * What the store needs of node-postgres: a `Pool` (recommended), a `Client`, or anything with
 * the same `query(text, values)` answering `{ rows }`.
 */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Options of createPostgresStore. */
export interface PostgresStoreOptions {
  /** A node-postgres Pool, or anything with its `query(text, values)`. */
  pool: PostgresQueryable;
  /**
   * The table, optionally schema-qualified (`webhooks.idempotency`): letters, digits and `_`.
   * @default 'servicepay_idempotency'
   */
  table?: string;
  /**
   * Least time between two sweeps of rows expired for more than a minute. A sweep runs
   * beside a claim, never in front of it, and skips rows other sessions hold. 0 turns it off
   * (sweep them yourself, or let the table grow).
   * @default 60000
   */
  cleanupIntervalMs?: number;
  /**
   * Send the store's statements as named prepared statements, parsed and planned once per
   * connection (about twice the throughput). Needs node-postgres (or a compatible pool that
   * accepts `{ name, text, values }`); turn it off behind PgBouncer in transaction mode before
   * 1.21, which cannot keep prepared statements.
   * @default true when `pool` has node-postgres's `connect` method, else false
   */
  preparedStatements?: boolean;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const DEFAULT_TABLE = 'servicepay_idempotency';

/**
 * The DDL the store runs on first use when the table is missing, for those who migrate by
 * hand (then the store's role needs no CREATE privilege). `table` as in PostgresStoreOptions.
 */
export function postgresStoreDdl(table = DEFAULT_TABLE): string {
  return ddl(quotedTable(table));
}

/** The DDL for a table name already quoted by quotedTable. */
function ddl(name: string): string {
  // No index on expires_at: completing a claim then changes no indexed column, so PostgreSQL
  // updates the row in place (a HOT update) instead of writing index entries on every
  // delivery; the sweep, once a minute, reads the table instead.
  return [
    `CREATE TABLE IF NOT EXISTS ${name} (`,
    '  key text PRIMARY KEY,',
    '  token text,',
    '  expires_at timestamptz NOT NULL',
    ');',
  ].join('\n');
}

/** `table` as a quoted SQL identifier, or a TypeError when it is not a plain name. */
function quotedTable(table: string): string {
  const parts = typeof table === 'string' ? table.split('.') : [];
  if (parts.length < 1 || parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    throw new TypeError(
      `servicepay: createPostgresStore table must be a name or schema.name of letters, digits and _ (at most 63 each), got ${JSON.stringify(table)}.`,
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/** An IdempotencyStore in a PostgreSQL table (see the module comment for its layout). */
export function createPostgresStore(options: PostgresStoreOptions): IdempotencyStore {
  const { pool } = options ?? {};
  if (typeof pool?.query !== 'function') {
    throw new TypeError(
      'servicepay: createPostgresStore needs { pool }, a node-postgres Pool (or any object with query(text, values)).',
    );
  }
  const name = quotedTable(options.table ?? DEFAULT_TABLE);
  const cleanupIntervalMs = options.cleanupIntervalMs ?? 60_000;
  if (!Number.isFinite(cleanupIntervalMs) || cleanupIntervalMs < 0) {
    throw new TypeError(
      `servicepay: createPostgresStore cleanupIntervalMs must be a non-negative number of milliseconds, got ${String(cleanupIntervalMs)}.`,
    );
  }
  const prepared =
    options.preparedStatements ?? typeof (pool as { connect?: unknown }).connect === 'function';
  /**
   * A statement to run, by name when prepared. The name is derived from the text (so it is
   * unique), once here rather than on every call.
   */
  function statement(text: string): (values: unknown[]) => Promise<{ rows: unknown[] }> {
    if (!prepared) return (values) => pool.query(text, values);
    const statementId = statementName(text);
    return (values) =>
      (pool.query as unknown as (config: object) => Promise<{ rows: unknown[] }>).call(pool, {
        name: statementId,
        text,
        values,
      });
  }

  const lifetime = `now() + $3::double precision * interval '1 millisecond'`;
  const owned = `key = $1 AND token = $2 AND expires_at > now()`;
  // A free or expired key is taken in one statement; only when it is held does a second one
  // ask whether it is completed (a duplicate, the rarer path). Should the row vanish between
  // the two (released or expired meanwhile), the answer is in-progress: the resend will tell.
  const claimQuery = statement(
    `INSERT INTO ${name} AS t (key, token, expires_at) VALUES ($1, $2, ${lifetime}) ` +
      `ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at ` +
      `WHERE t.expires_at <= now() RETURNING 1`,
  );
  const stateQuery = statement(
    `SELECT token IS NULL AS completed FROM ${name} WHERE key = $1 AND expires_at > now()`,
  );
  const renewQuery = statement(
    `UPDATE ${name} SET expires_at = ${lifetime} WHERE ${owned} RETURNING 1`,
  );
  const completeQuery = statement(
    `UPDATE ${name} SET token = NULL, expires_at = ${lifetime} WHERE ${owned} RETURNING 1`,
  );
  const releaseQuery = statement(`DELETE FROM ${name} WHERE ${owned} RETURNING 1`);
  // SKIP LOCKED: the sweep never waits on a row a delivery is claiming; a minute's grace keeps
  // it off rows whose expiry is being decided right now.
  const cleanupSql =
    `DELETE FROM ${name} WHERE key IN (SELECT key FROM ${name} ` +
    `WHERE expires_at < now() - interval '1 minute' LIMIT 1000 FOR UPDATE SKIP LOCKED)`;

  let ready: Promise<void> | undefined;
  let lastCleanup = Date.now();

  /** Creates the table once per store; a failure is retried by the next call. */
  function ensureTable(): Promise<void> {
    ready ??= createTable(pool, name).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  function sweep(): void {
    if (cleanupIntervalMs === 0 || Date.now() - lastCleanup < cleanupIntervalMs) return;
    lastCleanup = Date.now();
    // Not awaited, failures ignored: a sweep must never delay or fail a delivery.
    pool.query(cleanupSql).then(
      () => {},
      () => {},
    );
  }

  async function acted(
    run: (values: unknown[]) => Promise<{ rows: unknown[] }>,
    values: unknown[],
  ): Promise<boolean> {
    await ensureTable();
    const { rows } = await run(values);
    return rows.length > 0;
  }

  return {
    async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
      await ensureTable();
      sweep();
      const token = newClaimToken();
      const claimed = await claimQuery([key, token, ttlMs]);
      if (claimed.rows.length > 0) return { state: 'claimed', token };
      const { rows } = await stateQuery([key]);
      const row = rows[0] as { completed?: unknown } | undefined;
      return row?.completed === true ? COMPLETED_CLAIM : IN_PROGRESS_CLAIM;
    },
    renew: (key, token, ttlMs) => acted(renewQuery, [key, token, ttlMs]),
    complete: (key, token, ttlMs) => acted(completeQuery, [key, token, ttlMs]),
    release: (key, token) => acted(releaseQuery, [key, token]),
  };
}

/** `servicepay_` and the FNV-1a hash of the text: the same text, the same name, on any node. */
function statementName(sql: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < sql.length; i++) {
    hash = Math.imul(hash ^ sql.charCodeAt(i), 0x01000193);
  }
  return `servicepay_${(hash >>> 0).toString(16)}`;
}

/**
 * Creates the table unless it exists. `CREATE TABLE IF NOT EXISTS` alone fails when two
 * sessions run it at once on a fresh database (both pass the existence check, one then breaks
 * a unique index of the catalogue), so the creation runs under a transaction-scoped advisory
 * lock, inside one DO statement: it needs no dedicated connection, and the lock is gone when
 * the statement ends, whatever happens. A table that already exists costs one cheap lookup and
 * no lock, and needs no CREATE privilege.
 */
async function createTable(pool: PostgresQueryable, name: string): Promise<void> {
  const { rows } = await pool.query('SELECT to_regclass($1) IS NOT NULL AS present', [name]);
  if ((rows[0] as { present?: unknown } | undefined)?.present === true) return;
  // `name` came from quotedTable: letters, digits, _ and quotes only, safe inside the literal.
  await pool.query(
    `DO $servicepay$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('servicepay idempotency ${name.replaceAll("'", "''")}')); ` +
      `${ddl(name).replaceAll('\n', ' ')} END $servicepay$`,
  );
}
