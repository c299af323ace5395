/**
 * Paid orders in PostgreSQL: the OrderStore half of createPostgresStore (orders.ts has the
 * contract), so that two receivers given two COMPLETED of one order at the same instant record
 * exactly one as its payment.
 *
 * One row per order in a table beside the idempotency table, `<table>_orders` (named, created
 * on first use and swept as the outcomes table is). A claim is one statement in the common case
 * (the order's first payment): `INSERT ... ON CONFLICT (order_id) DO UPDATE ... WHERE the row
 * expired RETURNING payment_id`, which of concurrent claims lets exactly one insert; the others
 * wait on its row, find it and return nothing, and then read who holds it, in a second
 * statement whose fresh snapshot sees the committed row (the rarer path: a second payment, or a
 * resend of the first). Expiry is the database clock's clock_timestamp(), as postgres.ts says why.
 */
import {
  DEFAULT_TABLE,
  ensureStoreTable,
  onceUnlessFailed,
  siblingTable,
  sweeper,
  tableDdl,
} from './postgres-toolkit';
import type { PostgresQueryable, Statement } from './postgres-toolkit';
import type { SharedOrderStore } from './orders';
import { prefixed } from '../prefixed';

/** The DDL run on first use when the orders table is missing, for those who migrate by hand. */
export function postgresOrdersDdl(table = DEFAULT_TABLE): string {
  return ddl(siblingTable(table, SUFFIX).quoted);
}

const SUFFIX = '_orders';

function ddl(quoted: string): string {
  return tableDdl(quoted, [
    'order_id text PRIMARY KEY',
    'payment_id text NOT NULL',
    'expires_at timestamptz NOT NULL',
  ]);
}

export interface PostgresOrdersOptions {
  pool: PostgresQueryable;
  /** The idempotency table, `name` or `schema.name`, each part bare or double-quoted. */
  table: string;
  /** Least time between two sweeps of expired rows; 0 turns them off. */
  cleanupIntervalMs: number;
  /** How the store runs a statement (prepared when it prepares its own). */
  statement: (text: string) => Statement;
}

/** Paid orders in PostgreSQL (see the module comment). */
export function postgresOrders(options: PostgresOrdersOptions): SharedOrderStore {
  const { pool, statement } = options;
  const table = siblingTable(options.table, SUFFIX);
  const name = table.quoted;
  const lifetime = `clock_timestamp() + $3::double precision * interval '1 millisecond'`;
  // As the claim of postgres.ts: the update computes its expiry again, never EXCLUDED's, which
  // was evaluated before the statement waited on the conflicting row.
  const claimQuery = statement(
    `INSERT INTO ${name} AS t (order_id, payment_id, expires_at) VALUES ($1, $2, ${lifetime}) ` +
      `ON CONFLICT (order_id) DO UPDATE SET payment_id = EXCLUDED.payment_id, expires_at = ${lifetime} ` +
      `WHERE t.expires_at <= clock_timestamp() RETURNING payment_id`,
  );
  const paidByQuery = statement(
    `SELECT payment_id FROM ${name} WHERE order_id = $1 AND expires_at > clock_timestamp()`,
  );
  // Without the expiry: a claim that found the row held asks who holds it, even should it
  // lapse between the two statements (a holder, never nobody, for an order that was held).
  const holderQuery = statement(`SELECT payment_id FROM ${name} WHERE order_id = $1`);
  const sweep = sweeper(pool, name, 'order_id', options.cleanupIntervalMs);
  const ensureTable = onceUnlessFailed(() =>
    ensureStoreTable(pool, table, 'orders', ddl(table.quoted)),
  );
  const paymentOf = (rows: unknown[]): string | null => {
    const id = (rows[0] as { payment_id?: unknown } | undefined)?.payment_id;
    return typeof id === 'string' ? id : null;
  };

  return {
    async claimOrder(orderId, paymentId, ttlMs) {
      await ensureTable();
      sweep();
      // A row swept between the two statements (expired a minute and more) is claimed again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimed = paymentOf((await claimQuery([orderId, paymentId, ttlMs])).rows);
        if (claimed !== null) return claimed;
        const holder = paymentOf((await holderQuery([orderId])).rows);
        if (holder !== null) return holder;
      }
      throw new Error(
        prefixed(
          'the PostgreSQL store could not claim an order: its row kept vanishing between a claim and a read (something else deletes from the orders table?). Answered 500, so the service resends it.',
        ),
      );
    },
    async orderPaidBy(orderId) {
      await ensureTable();
      return paymentOf((await paidByQuery([orderId])).rows);
    },
  };
}
