/**
 * The PostgreSQL outcomes table (postgres-outcomes.ts): its name, derived from the idempotency
 * table's, its DDL, its creation on first use, and the LISTEN/NOTIFY channel named from it.
 * What it shares with the idempotency table is postgres-toolkit.ts's.
 */
import { createStoreTable, DEFAULT_TABLE, fnv, tableDdl, tableParts } from './postgres-toolkit';
import type { Queryable, StoreTable } from './postgres-toolkit';
import { WebhookConfigError } from '../errors';

/** The outcomes table: its schema (when given), its name, and both quoted as SQL. */
export interface OutcomesTable extends StoreTable {
  /** The idempotency table it was named from, quoted as SQL. */
  claims: string;
}

const SUFFIX = '_outcomes';

/** The outcomes table for an idempotency table: its schema (when given), name and quoted name. */
export function outcomesTableName(table: string): OutcomesTable {
  const parts = tableParts(table, true);
  if (parts === null) {
    throw new WebhookConfigError(
      `servicepay: the outcomes table is named from the idempotency table, which must be a name or schema.name of letters, digits and _ (at most 63 each), got ${JSON.stringify(table)}.`,
      'table',
    );
  }
  if (parts.temporary) {
    throw new WebhookConfigError(
      `servicepay: the outcomes table must not be in a temporary schema, got ${JSON.stringify(table)}: receivers on other connections could not see it. Name a regular schema.`,
      'table',
    );
  }
  const { schema, name: base } = parts;
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
export function postgresOutcomesDdl(table = DEFAULT_TABLE): string {
  return ddl(outcomesTableName(table).quoted);
}

function ddl(quoted: string): string {
  return tableDdl(quoted, [
    'payment_id text PRIMARY KEY',
    'merchant_payment_id text NOT NULL',
    'status text NOT NULL',
    'recorded_at timestamptz NOT NULL',
    'expires_at timestamptz NOT NULL',
  ]);
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
