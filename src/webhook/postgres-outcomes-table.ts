/**
 * The PostgreSQL outcomes table (postgres-outcomes.ts): its name, derived from the idempotency
 * table's, its DDL, its creation on first use, and the LISTEN/NOTIFY channel named from it.
 */

/** What creating the table needs of node-postgres's Pool (or Client). */
interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The outcomes table: its schema (when given), its name, and both quoted as SQL. */
export interface OutcomesTable {
  schema: string | undefined;
  name: string;
  quoted: string;
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
  const quoted = (schema === undefined ? [name] : [schema, name]).map((p) => `"${p}"`).join('.');
  return { schema, name, quoted };
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
function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Creates the table unless it exists (under an advisory lock inside one DO statement, as
 * postgres.ts does for the idempotency table and for the same reasons), then answers the
 * channel: `schema.table` as the server resolved it, or a hash of it past 63 bytes.
 */
export async function outcomesChannel(pool: Queryable, table: OutcomesTable): Promise<string> {
  const resolveSql =
    'SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace ' +
    'WHERE c.oid = to_regclass($1)';
  let { rows } = await pool.query(resolveSql, [table.quoted]);
  if (rows.length === 0) {
    const schema = table.schema === undefined ? 'current_schema()' : `'${table.schema}'`;
    const temporary =
      `servicepay: the outcomes table ${table.name} would be created in this connection''s ` +
      `temporary schema (search_path puts pg_temp first), where receivers cannot share it. ` +
      `Put a regular schema first in search_path, or name one in createPostgresStore''s table.`;
    await pool.query(
      [
        'DO $servicepay$ DECLARE',
        `  target_schema text := coalesce(${schema}, '');`,
        'BEGIN',
        '  IF target_schema = (SELECT nspname FROM pg_namespace WHERE oid = pg_my_temp_schema()) THEN',
        `    RAISE EXCEPTION USING ERRCODE = 'invalid_schema_name', MESSAGE = '${temporary}';`,
        '  END IF;',
        `  PERFORM pg_advisory_xact_lock(hashtext('servicepay outcomes ' || quote_ident(target_schema) || '.' || quote_ident('${table.name}')));`,
        `  ${ddl(table.quoted).replaceAll('\n', ' ')}`,
        'END $servicepay$',
      ].join('\n'),
    );
    ({ rows } = await pool.query(resolveSql, [table.quoted]));
  }
  const schema = String((rows[0] as { schema?: unknown } | undefined)?.schema ?? '');
  const channel = `${schema}.${table.name}`;
  return /^[\x21-\x7e]{1,63}$/.test(channel) && !channel.includes('"')
    ? channel
    : `servicepay_outcomes_${fnv(channel)}`;
}
