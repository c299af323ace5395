/**
 * The PostgreSQL outcomes table (postgres-outcomes.ts): its name, derived from the idempotency
 * table's, its DDL, its creation on first use, and the LISTEN/NOTIFY channel named from it;
 * and what both tables of the store share: their creation under a lock, their sweep, and the
 * FNV hash that names statements, channels and cut names alike on every node.
 */

/** What creating and sweeping the tables need of node-postgres's Pool (or Client). */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The outcomes table: its schema (when given), its name, and both quoted as SQL. */
export interface OutcomesTable extends StoreTable {
  /** The idempotency table it was named from, quoted as SQL. */
  claims: string;
}

const PART = /^"([A-Za-z_][A-Za-z0-9_]{0,62})"$|^([A-Za-z_][A-Za-z0-9_]{0,62})$/;
const TEMPORARY_SCHEMA = /^pg_temp(_\d+)?$/i;
const SUFFIX = '_outcomes';

/** The outcomes table for an idempotency table: its schema (when given), name and quoted name. */
export function outcomesTableName(table: string): OutcomesTable {
  const parts = (typeof table === 'string' ? table.split('.') : []).map((part) => {
    const match = PART.exec(part);
    return match === null ? undefined : (match[1] ?? match[2]);
  });
  if (parts.length < 1 || parts.length > 2 || parts.some((part) => part === undefined)) {
    throw new TypeError(
      `servicepay: the outcomes table is named from the idempotency table, which must be a name or schema.name of letters, digits and _ (at most 63 each), got ${JSON.stringify(table)}.`,
    );
  }
  const schema = parts.length === 2 ? parts[0] : undefined;
  if (schema !== undefined && TEMPORARY_SCHEMA.test(schema)) {
    throw new TypeError(
      `servicepay: the outcomes table must not be in a temporary schema, got ${JSON.stringify(table)}: receivers on other connections could not see it. Name a regular schema.`,
    );
  }
  const base = parts[parts.length - 1] as string;
  // PostgreSQL would silently cut a longer name to 63, which could name the idempotency table
  // itself: keep a prefix and tell names apart by a hash of the whole.
  const name =
    base.length + SUFFIX.length <= 63
      ? base + SUFFIX
      : `${base.slice(0, 63 - SUFFIX.length - 9)}_${fnv(base)}${SUFFIX}`;
  const quote = (last: string): string =>
    (schema === undefined ? [last] : [schema, last]).map((p) => `"${p}"`).join('.');
  return { schema, name, quoted: quote(name), claims: quote(base) };
}

/** The DDL run on first use when the outcomes table is missing, for those who migrate by hand. */
export function postgresOutcomesDdl(table = 'servicepay_idempotency'): string {
  return ddl(outcomesTableName(table).quoted);
}

function ddl(quoted: string): string {
  return [
    `CREATE TABLE IF NOT EXISTS ${quoted} (`,
    '  payment_id text PRIMARY KEY,',
    '  merchant_payment_id text NOT NULL,',
    '  status text NOT NULL,',
    '  recorded_at timestamptz NOT NULL,',
    '  expires_at timestamptz NOT NULL',
    ');',
  ].join('\n');
}

/** FNV-1a of the text, 8 hex digits: the same name on every node. */
export function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** A table of the store: its schema when given, its bare name, and the two quoted as SQL. */
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

export interface StoreTable {
  schema: string | undefined;
  name: string;
  quoted: string;
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
export async function createStoreTable(
  pool: Queryable,
  table: StoreTable,
  what: 'idempotency' | 'outcomes',
  ddl: string,
): Promise<void> {
  // The parts came from the table option's checks: letters, digits and _ only, safe inside
  // the literals.
  const schema = table.schema === undefined ? 'current_schema()' : `'${table.schema}'`;
  const temporary =
    `servicepay: the ${what} table ${table.name} would be created in this connection''s ` +
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
  pool: Queryable,
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

/**
 * Creates the outcomes table unless it exists (createStoreTable), then answers the channel:
 * `schema.table` as the server resolved it, or a hash of it past 63 bytes.
 */
export async function outcomesChannel(pool: Queryable, table: OutcomesTable): Promise<string> {
  const resolveSql =
    'SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace ' +
    'WHERE c.oid = to_regclass($1)';
  let { rows } = await pool.query(resolveSql, [table.quoted]);
  if (rows.length === 0) {
    await createStoreTable(pool, table, 'outcomes', ddl(table.quoted));
    ({ rows } = await pool.query(resolveSql, [table.quoted]));
  }
  const schema = String((rows[0] as { schema?: unknown } | undefined)?.schema ?? '');
  const channel = `${schema}.${table.name}`;
  return /^[\x21-\x7e]{1,63}$/.test(channel) && !channel.includes('"')
    ? channel
    : `servicepay_outcomes_${fnv(channel)}`;
}
