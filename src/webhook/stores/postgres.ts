/**
 * `servicepay/webhook/postgres`: an IdempotencyStore in a PostgreSQL table, shared by every
 * receiver instance that uses the database. One statement per call, each atomic on its own, so
 * no transaction spans a delivery and any pool (or single client) can run them.
 *
 * The table, created on first use unless it exists (DDL in POSTGRES_STORE_DDL):
 *   key        text primary key     the idempotency key
 *   token      text                 the owning claim's token; NULL once completed
 *   expires_at timestamptz not null when the claim or the completion lapses
 * Time is the database server's, so receivers' clocks never need to agree. Every expiry is
 * computed, and every "has it expired" asked, with clock_timestamp(), the moment the row is
 * written or read, never with now(), which is when the statement began: a statement can wait
 * long before it reaches its row (on a lock a migration or VACUUM FULL holds, on a row another
 * session writes, on a stalled server). A claim stamped now() + ttl that waited longer than
 * ttl would be written already expired, and the next copy of the notification would claim it
 * and run the handler beside the first; a renewal or completion likewise. Only the sweep keeps
 * now(): it has a minute of grace.
 */
import { COMPLETED_CLAIM, IN_PROGRESS_CLAIM, newClaimToken } from './idempotency';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency';
import { postgresOrders } from './postgres-orders';
import type { SharedOrderStore } from './orders';
import { postgresOutcomes } from './postgres-outcomes';
import {
  completeClaimSql,
  DEFAULT_TABLE,
  ensureStoreTable,
  fnv,
  onceUnlessFailed,
  storeTable,
  sweeper,
  tableDdl,
} from './postgres-toolkit';
import type { PostgresQueryable, Statement } from './postgres-toolkit';
import type { PostgresOutcomeStore } from './postgres-outcomes';
import { amountOf, checkOption, requiredOption, withMethods } from '../option-checks';

export { postgresOutcomesDdl } from './postgres-outcomes';
export { postgresOrdersDdl } from './postgres-orders';

export type { PostgresQueryable } from './postgres-toolkit';

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
  /**
   * How often the connection listening for payment outcomes (for createPaymentStatusHandler) is
   * checked with a round trip, which must answer within half of it; opening one must take at
   * most all of it. A listener that died without a word (a NAT or load balancer dropping an idle
   * flow) is so noticed within 1.5 times this and replaced; while it cannot be, event streams end
   * after the current status and return pages poll. At most 2147483647 (setTimeout's bound).
   * @default 10000
   */
  listenerCheckMs?: number;
}

/**
 * The DDL the store runs on first use when the table is missing, for those who migrate by
 * hand (then the store's role needs no CREATE privilege). `table` as in PostgresStoreOptions.
 */
export function postgresStoreDdl(table = DEFAULT_TABLE): string {
  return ddl(storeTable(table).quoted);
}

/** The DDL for a table name already quoted by storeTable. */
function ddl(name: string): string {
  // No index on expires_at: completing a claim then changes no indexed column, so PostgreSQL
  // updates the row in place (a HOT update) instead of writing index entries on every
  // delivery; the sweep, once a minute, reads the table instead.
  return tableDdl(name, ['key text PRIMARY KEY', 'token text', 'expires_at timestamptz NOT NULL']);
}

/**
 * The PostgreSQL store: claims (IdempotencyStore), payment outcomes (OutcomeStore, for
 * createPaymentStatusHandler) and paid orders (OrderStore, for expectedPayment's `orderId`) in
 * three tables, `<table>`, `<table>_outcomes` and `<table>_orders`; outcomes reach every
 * instance through LISTEN/NOTIFY on one connection per store, taken from the pool while
 * somebody waits (so the pool needs at least two connections) and given back when nobody does
 * or on `close()` (postgres-outcomes.ts).
 */
export type PostgresStore = IdempotencyStore &
  Required<Pick<IdempotencyStore, 'renewMany'>> &
  PostgresOutcomeStore &
  SharedOrderStore;

export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const pool = requiredOption(
    'createPostgresStore',
    'pool',
    options?.pool,
    withMethods<PostgresQueryable>(
      ['query'],
      'a node-postgres Pool (or any object with query(text, values))',
    ),
  );
  const table = storeTable(options.table ?? DEFAULT_TABLE);
  const name = table.quoted;
  const cleanupIntervalMs = checkOption(
    'createPostgresStore',
    'cleanupIntervalMs',
    options.cleanupIntervalMs,
    60_000,
    amountOf('milliseconds', true),
  );
  const prepared =
    options.preparedStatements ?? typeof (pool as { connect?: unknown }).connect === 'function';
  /**
   * A statement to run, by name when prepared. The name is derived from the text (so it is
   * unique), once here rather than on every call.
   */
  function statement(text: string): Statement {
    if (!prepared) return (values) => pool.query(text, values);
    const statementId = statementName(text);
    return (values) =>
      (pool.query as unknown as (config: object) => Promise<{ rows: unknown[] }>).call(pool, {
        name: statementId,
        text,
        values,
      });
  }

  // clock_timestamp(), not now(): the time the row is reached (see the module comment).
  const lifetime = `clock_timestamp() + $3::double precision * interval '1 millisecond'`;
  const owned = `key = $1 AND token = $2 AND expires_at > clock_timestamp()`;
  // A free or expired key is taken in one statement; only when it is held does a second one
  // ask whether it is completed (a duplicate, the rarer path). Should the row vanish between
  // the two (released or expired meanwhile), the answer is in-progress: the resend will tell.
  // The update computes its expiry again rather than take EXCLUDED's: VALUES is evaluated
  // before the statement waits on the conflicting row, which another session may hold.
  const claimQuery = statement(
    `INSERT INTO ${name} AS t (key, token, expires_at) VALUES ($1, $2, ${lifetime}) ` +
      `ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = ${lifetime} ` +
      `WHERE t.expires_at <= clock_timestamp() RETURNING 1`,
  );
  const stateQuery = statement(
    `SELECT token IS NULL AS completed FROM ${name} WHERE key = $1 AND expires_at > clock_timestamp()`,
  );
  const renewQuery = statement(
    `UPDATE ${name} SET expires_at = ${lifetime} WHERE ${owned} RETURNING 1`,
  );
  // Every claim a receiver holds, in one statement: the pairs of keys and tokens as two arrays,
  // each row renewed only while its own token owns it, as renewQuery does for one.
  const renewManyQuery = statement(
    `UPDATE ${name} AS t SET expires_at = ${lifetime} FROM unnest($1::text[], $2::text[]) AS c(key, token) ` +
      `WHERE t.key = c.key AND t.token = c.token AND t.expires_at > clock_timestamp() RETURNING t.key, t.token`,
  );
  const completeQuery = statement(completeClaimSql(name, 1, 3));
  const releaseQuery = statement(`DELETE FROM ${name} WHERE ${owned} RETURNING 1`);
  const sweep = sweeper(pool, name, 'key', cleanupIntervalMs);

  /** Creates the table once per store; a failure is retried by the next call. */
  const ensureTable = onceUnlessFailed(() =>
    ensureStoreTable(pool, table, 'idempotency', ddl(table.quoted)),
  );

  async function acted(run: Statement, values: unknown[]): Promise<boolean> {
    await ensureTable();
    const { rows } = await run(values);
    return rows.length > 0;
  }

  const outcomes = postgresOutcomes({
    pool,
    table: name,
    cleanupIntervalMs,
    statement,
    listenerCheckMs: options.listenerCheckMs,
  });

  return {
    dbSystem: 'postgresql',
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
    async renewMany(claims, ttlMs) {
      await ensureTable();
      const keys = claims.map((claim) => claim.key);
      const tokens = claims.map((claim) => claim.token);
      const { rows } = await renewManyQuery([keys, tokens, ttlMs]);
      const renewed = new Set(
        (rows as { key: string; token: string }[]).map((row) =>
          JSON.stringify([row.key, row.token]),
        ),
      );
      return claims.map((claim) => renewed.has(JSON.stringify([claim.key, claim.token])));
    },
    complete: (key, token, ttlMs) => acted(completeQuery, [key, token, ttlMs]),
    release: (key, token) => acted(releaseQuery, [key, token]),
    ...outcomes,
    ...postgresOrders({ pool, table: name, cleanupIntervalMs, statement }),
    async completeWithOutcome(key, token, ttlMs, outcome, outcomeTtlMs) {
      await ensureTable();
      return outcomes.completeWithOutcome(key, token, ttlMs, outcome, outcomeTtlMs);
    },
  };
}

/** `servicepay_` and the FNV-1a hash of the text: the same text, the same name, on any node. */
function statementName(sql: string): string {
  return `servicepay_${fnv(sql)}`;
}
