/**
 * The PostgreSQL toolkit: what the tables of the store (postgres.ts, postgres-outcomes.ts,
 * postgres-orders.ts) share: the pool they query, the table option's default and its one check,
 * the names of the tables beside the idempotency table, creation under a lock (once per store),
 * the sweep, the statement that completes a claim, and the FNV hash that names statements,
 * channels and cut names alike on every node.
 */
import { WebhookConfigError } from '../errors';
import { prefixed } from '../prefixed';

/**
 * What the store needs of node-postgres: a `Pool` (recommended), a `Client`, or anything with
 * the same `query(text, values)` answering `{ rows }`.
 */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** A statement of the store, ready to run with its values (prepared or not). */
export type Statement = (values: unknown[]) => Promise<{ rows: unknown[] }>;

/** The table createPostgresStore uses when given none. */
export const DEFAULT_TABLE = 'servicepay_idempotency';

/** A table of the store: its schema when given, its bare name, and the two quoted as SQL. */
export interface StoreTable {
  schema: string | undefined;
  name: string;
  quoted: string;
}

const UNQUOTED = /^([A-Za-z_][A-Za-z0-9_]{0,62})$/;
const QUOTED_OR_NOT = /^"([A-Za-z_][A-Za-z0-9_]{0,62})"$|^([A-Za-z_][A-Za-z0-9_]{0,62})$/;
/** The `pg_temp` alias and the sessions' own temporary schemas, `pg_temp_N`. */
const TEMPORARY_SCHEMA = /^pg_temp(_\d+)?$/i;

/**
 * The table option (`name` or `schema.name`, letters, digits and _, at most 63 each; each part
 * also in double quotes when `quoted` allows it) taken apart and quoted as SQL, or a
 * WebhookConfigError. A temporary schema is refused whatever its case (only the lower-case
 * spelling names one, but any other is surely that mistake too): a temporary table is private
 * to one connection, so receivers could not share it.
 */
export function storeTable(table: unknown, quoted = false): StoreTable {
  const pattern = quoted ? QUOTED_OR_NOT : UNQUOTED;
  const parts = (typeof table === 'string' ? table.split('.') : []).map((part) => {
    const match = pattern.exec(part);
    return match === null ? undefined : (match[1] ?? match[2]);
  });
  const given = JSON.stringify(table);
  if (parts.length < 1 || parts.length > 2 || parts.some((part) => part === undefined)) {
    throw new WebhookConfigError(
      `createPostgresStore table must be a name or schema.name of letters, digits and _ (at most 63 each), got ${given}.`,
      'table',
    );
  }
  const schema = parts.length === 2 ? parts[0] : undefined;
  const name = parts[parts.length - 1] as string;
  if (schema !== undefined && TEMPORARY_SCHEMA.test(schema)) {
    throw new WebhookConfigError(
      `createPostgresStore table must not be in a temporary schema, got ${given}: a temporary table is private to the one connection that created it, so receivers (even a pool's other connections) cannot share it and their claims would fail. Name a regular schema ("public.${name}") or none.`,
      'table',
    );
  }
  return { schema, name, quoted: quotedName(schema, name) };
}

/** A table beside the idempotency table (its outcomes, its paid orders), in the same schema. */
export interface SiblingTable extends StoreTable {
  /** The idempotency table it was named from, quoted as SQL. */
  claims: string;
}

/** The table named `<idempotency table><suffix>` (`_outcomes`, `_orders`), in its schema. */
export function siblingTable(table: string, suffix: string): SiblingTable {
  // Checked as the idempotency table's option, each part bare or double-quoted.
  const { schema, name: base } = storeTable(table, true);
  // PostgreSQL would silently cut a longer name to 63, which could name the idempotency table
  // itself: keep a prefix and tell names apart by a hash of the whole.
  const name =
    base.length + suffix.length <= 63
      ? base + suffix
      : `${base.slice(0, 63 - suffix.length - 9)}_${fnv(base)}${suffix}`;
  return { schema, name, quoted: quotedName(schema, name), claims: quotedName(schema, base) };
}

/** `schema.name` (or `name`) quoted as SQL. */
export function quotedName(schema: string | undefined, name: string): string {
  return (schema === undefined ? [name] : [schema, name]).map((part) => `"${part}"`).join('.');
}

/**
 * `create` run on first use, its answer shared by every caller; a failure is forgotten, so the
 * next call tries again (a table's creation, once per store).
 */
export function onceUnlessFailed<T>(create: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= create().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}

/**
 * The DDL of a table of the store (run on first use, and given to those who migrate by hand),
 * one column a line; `quoted` is its name quoted as SQL.
 */
export function tableDdl(quoted: string, columns: readonly string[]): string {
  return [`CREATE TABLE IF NOT EXISTS ${quoted} (`, `  ${columns.join(',\n  ')}`, ');'].join('\n');
}

/** FNV-1a of the text, 8 hex digits: the same name on every node. */
export function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The statement that completes a claim of the idempotency table `claims` (quoted): still owned
 * by the token and unexpired, it is marked completed for a new lifetime. Its parameters are
 * `$<key>`, `$<key+1>` (the token) and `$<ttl>` (milliseconds), so that the store's own
 * statement and the one that also records the outcome (postgres-outcomes.ts) share it.
 */
export function completeClaimSql(claims: string, key: number, ttl: number): string {
  return (
    `UPDATE ${claims} SET token = NULL, ` +
    `expires_at = clock_timestamp() + $${ttl}::double precision * interval '1 millisecond' ` +
    `WHERE key = $${key} AND token = $${key + 1} AND expires_at > clock_timestamp() RETURNING 1`
  );
}

/**
 * Creates a table of the store unless it exists (createStoreTable below; one cheap lookup when
 * it does) and answers the schema the server resolved it in.
 */
export async function ensureStoreTable(
  pool: PostgresQueryable,
  table: StoreTable,
  what: 'idempotency' | 'outcomes' | 'orders',
  ddl: string,
): Promise<string> {
  const resolveSql =
    'SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace ' +
    'WHERE c.oid = to_regclass($1)';
  let { rows } = await pool.query(resolveSql, [table.quoted]);
  if (rows.length === 0) {
    await createStoreTable(pool, table, what, ddl);
    ({ rows } = await pool.query(resolveSql, [table.quoted]));
  }
  return String((rows[0] as { schema?: unknown } | undefined)?.schema ?? '');
}

/**
 * Creates a table of the store (`ddl`, one CREATE TABLE IF NOT EXISTS) unless it exists.
 * `CREATE TABLE IF NOT EXISTS` alone fails when two sessions run it at once on a fresh database
 * (both pass the existence check, one then breaks a unique index of the catalogue), so the
 * creation runs under a transaction-scoped advisory lock, inside one DO statement: it needs no
 * dedicated connection, and the lock is gone when the statement ends, whatever happens.
 *
 * The lock is keyed by the table's resolved name, the schema given or else current_schema()
 * (where an unqualified name is created), read on the server: `name` and `public.name` are one
 * table, and processes spelling it either way must exclude each other. An unqualified name
 * whose current_schema() is the session's temporary one (search_path puts pg_temp first) is
 * refused there: a temporary table is private to one connection, so receivers cannot share it.
 */
async function createStoreTable(
  pool: PostgresQueryable,
  table: StoreTable,
  what: 'idempotency' | 'outcomes' | 'orders',
  ddl: string,
): Promise<void> {
  // The parts came from the table option's checks: letters, digits and _ only, safe inside
  // the literals.
  const schema = table.schema === undefined ? 'current_schema()' : `'${table.schema}'`;
  const temporary =
    prefixed(`the ${what} table ${table.name} would be created in this connection''s `) +
    `temporary schema (search_path puts pg_temp first), and a temporary table is private to ` +
    `the one connection that created it, so receivers cannot share it. Put a regular schema ` +
    `first in search_path, or name one in createPostgresStore''s table (public.${table.name}).`;
  await pool.query(
    [
      'DO $servicepay$ DECLARE',
      `  target_schema text := coalesce(${schema}, '');`,
      'BEGIN',
      '  IF target_schema = (SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()) THEN',
      `    RAISE EXCEPTION USING ERRCODE = 'invalid_schema_name', MESSAGE = '${temporary}';`,
      '  END IF;',
      `  PERFORM pg_advisory_xact_lock(hashtext('servicepay ${what} ' || quote_ident(target_schema) || '.' || quote_ident('${table.name}')));`,
      `  ${ddl.replaceAll('\n', ' ')}`,
      'END $servicepay$',
    ].join('\n'),
  );
}

/**
 * A sweep of the rows of `table` expired for over a minute, at most 1,000 at a time, run at
 * most once per `intervalMs` (0: never). Not awaited, failures ignored: a sweep must never
 * delay or fail a delivery. SKIP LOCKED: it never waits on a row a delivery is writing; the
 * minute's grace keeps it off rows whose expiry is being decided right now.
 */
export function sweeper(
  pool: PostgresQueryable,
  table: string,
  key: string,
  intervalMs: number,
): () => void {
  const sql =
    `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} ` +
    `WHERE expires_at < now() - interval '1 minute' LIMIT 1000 FOR UPDATE SKIP LOCKED)`;
  let last = Date.now();
  return () => {
    if (intervalMs === 0 || Date.now() - last < intervalMs) return;
    last = Date.now();
    pool.query(sql).then(
      () => {},
      () => {},
    );
  };
}
