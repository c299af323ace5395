/**
 * The PostgreSQL outcomes table (postgres-outcomes.ts): its name, derived from the idempotency
 * table's, its DDL, its creation on first use, and the LISTEN/NOTIFY channel named from it.
 * What it shares with the idempotency table is postgres-toolkit.ts's.
 */
import { DEFAULT_TABLE, ensureStoreTable, fnv, siblingTable, tableDdl } from './postgres-toolkit';
import type { PostgresQueryable, SiblingTable } from './postgres-toolkit';

/** The outcomes table: its schema (when given), its name, and both quoted as SQL. */
export type OutcomesTable = SiblingTable;

/** The outcomes table for an idempotency table: its schema (when given), name and quoted name. */
export function outcomesTableName(table: string): OutcomesTable {
  return siblingTable(table, '_outcomes');
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
 * Creates the outcomes table unless it exists (ensureStoreTable), then answers the channel:
 * `schema.table` as the server resolved it, or a hash of it past 63 bytes.
 */
export async function outcomesChannel(
  pool: PostgresQueryable,
  table: OutcomesTable,
): Promise<string> {
  const schema = await ensureStoreTable(pool, table, 'outcomes', ddl(table.quoted));
  const channel = `${schema}.${table.name}`;
  return /^[\x21-\x7e]{1,63}$/.test(channel) && !channel.includes('"')
    ? channel
    : `servicepay_outcomes_${fnv(channel)}`;
}
