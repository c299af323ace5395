/**
 * Payment outcomes in PostgreSQL, live on every instance: the OutcomeStore half of
 * createPostgresStore (outcomes.ts has the contract).
 *
 * The outcomes live in a table of their own beside the idempotency table, in the same schema:
 * `<idempotency table>_outcomes` (`servicepay_idempotency_outcomes` by default; a name that would
 * pass 63 characters is cut and made unique with a hash: postgres-outcomes-table.ts). It is created
 * on first use unless it exists (DDL in postgresOutcomesDdl). One row per payment; the first
 * outcome recorded stands until it expires, after which a new one may replace it. Expired rows are
 * swept beside a record at most once per cleanupIntervalMs, as the idempotency table's are.
 *
 * Live delivery is LISTEN/NOTIFY. Recording is one statement that inserts the row and, only when it
 * did, calls pg_notify in the same statement, so the notification goes out exactly when the row is
 * committed. A process listens on ONE connection per store, taken from the merchant's pool with
 * pool.connect() when its first subscriber arrives and given back when nobody waits (or on
 * close()), so pool.end() never hangs on it; the pool needs a connection more than that for the
 * store's statements (node-postgres's default max is 10). The channel is named from the table's
 * resolved schema and name (read on the server), so processes that spell the table `name` and
 * `public.name` hear each other. When the listening connection is lost (pg_terminate_backend, a
 * restart), the store takes another with bounded backoff while anybody waits, LISTENs again and
 * then re-reads the outcome of every waiting payment in one query: an outcome recorded in the gap,
 * whose notification went to nobody, is found there. A connection that died silently is found by
 * the checks of outcome-listening.ts (its LISTEN again) and by TCP keepalive, and replaced the
 * same way; one the server ended while it sat idle in the pool fails its LISTEN, and another is
 * taken. A pool of one connection is refused for listening: the listener would hold it, and every
 * statement of the store would wait behind it (docs/decisions.md).
 */
import { listenerCheckMs, OutcomeListening, within } from './outcome-listening';
import type { ListeningConnection } from './outcome-listening';
import { toOutcome } from './outcomes';
import type { PaymentOutcome, SharedOutcomeStore } from './outcomes';
import { outcomesChannel, outcomesTableName } from './postgres-outcomes-table';
import { completeClaimSql, onceUnlessFailed, sweeper } from './postgres-toolkit';
import { WebhookConfigError } from '../errors';
import { prefixed } from '../prefixed';
import type { PostgresQueryable, Statement } from './postgres-toolkit';

export { outcomesTableName, postgresOutcomesDdl } from './postgres-outcomes-table';

/** What subscribing needs of the connection node-postgres's `pool.connect()` lends. */
export interface PostgresListenClient extends PostgresQueryable {
  /** Gives it back to the pool; with an error (or true) the pool closes it instead. */
  release(error?: Error | boolean): void;
  on(event: 'notification', listener: (message: PostgresNotification) => void): unknown;
  on(event: 'error' | 'end', listener: (error?: unknown) => void): unknown;
  removeListener(event: 'notification', listener: (message: PostgresNotification) => void): unknown;
  removeListener(event: 'error' | 'end', listener: (error?: unknown) => void): unknown;
}

/** A notification as node-postgres's client emits it. */
export interface PostgresNotification {
  channel?: string;
  payload?: string;
}

/**
 * A node-postgres Pool. `connect`, needed only by subscribeOutcome, must lend a
 * PostgresListenClient (checked when subscribing: a single Client cannot lend one).
 */
export interface PostgresOutcomesPool extends PostgresQueryable {
  connect?(): Promise<unknown>;
}

export interface PostgresOutcomesOptions {
  pool: PostgresOutcomesPool;
  /** The idempotency table, `name` or `schema.name`, each part bare or double-quoted. */
  table: string;
  /** Least time between two sweeps of expired outcomes; 0 turns them off. @default 60000 */
  cleanupIntervalMs?: number;
  /**
   * How the store runs its per-delivery statement (completeWithOutcome): createPostgresStore
   * passes its own, which prepares statements when it does. @default pool.query
   */
  statement?: (text: string) => Statement;
  /** How often the listening connection is checked (createPostgresStore's). @default 10000 */
  listenerCheckMs?: number;
}

/** The outcome half of the PostgreSQL store, and the close() that gives its connection back. */
export interface PostgresOutcomeStore extends SharedOutcomeStore {
  completeWithOutcome(
    key: string,
    token: string,
    ttlMs: number,
    outcome: PaymentOutcome,
    outcomeTtlMs: number,
  ): Promise<boolean>;
}

/** NOTIFY refuses payloads of 8000 bytes or more; a larger outcome is announced empty. */
const MAX_PAYLOAD_BYTES = 7999;

const POOL_OF_ONE =
  "createPostgresStore's pool has one connection (max: 1): listening for payment outcomes would hold it, and every statement of the store (status answers, webhook deliveries) would wait behind it. Give the pool max: 2 or more (node-postgres's default is 10).";

/** What the store reads of node-postgres's Pool and its clients, where they have it. */
interface PoolInternals {
  options?: { max?: unknown };
  connection?: { stream?: { setKeepAlive?(enable: boolean, delayMs: number): unknown } };
}

/** One listening connection, or the attempt to take one. */
interface Listening extends ListeningConnection {
  client?: PostgresListenClient;
  released: boolean;
  onNotification(message: PostgresNotification): void;
  onLost(error?: unknown): void;
}

/** Outcomes in PostgreSQL (see the module comment). */
export function postgresOutcomes(options: PostgresOutcomesOptions): PostgresOutcomeStore {
  // createPostgresStore, the one caller, checked its options: checked once, there.
  const { pool } = options;
  const table = outcomesTableName(options.table);
  const name = table.quoted;
  const cleanupIntervalMs = options.cleanupIntervalMs ?? 60_000;
  const columns =
    `payment_id, merchant_payment_id, status, ` +
    `to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at`;
  // clock_timestamp(), not now(), as the idempotency table does (postgres.ts says why).
  const lifetime = `clock_timestamp() + $5::double precision * interval '1 millisecond'`;
  // pg_notify runs once per row the insert returned: never when an outcome already stands.
  const recordSql =
    `WITH inserted AS (INSERT INTO ${name} AS t ` +
    `(payment_id, merchant_payment_id, status, recorded_at, expires_at) ` +
    `VALUES ($1, $2, $3, $4::timestamptz, ${lifetime}) ON CONFLICT (payment_id) DO UPDATE SET ` +
    `merchant_payment_id = EXCLUDED.merchant_payment_id, status = EXCLUDED.status, ` +
    `recorded_at = EXCLUDED.recorded_at, expires_at = ${lifetime} ` +
    `WHERE t.expires_at <= clock_timestamp() RETURNING 1) ` +
    `SELECT pg_notify($6, $7) FROM inserted`;
  // The completion of a handled delivery with its outcome, in one statement (one round trip,
  // one commit): the claim's completion as postgres.ts writes it, the outcome's insert and its
  // pg_notify as recordSql. Data-modifying WITH clauses always run to completion, so the
  // outcome is recorded even when the claim had lapsed (the handler did succeed); pg_notify,
  // volatile, is kept by the planner though only counted.
  const completeWithOutcomeSql =
    `WITH completed AS (${completeClaimSql(table.claims, 9, 8)}), ` +
    `inserted AS (INSERT INTO ${name} AS t ` +
    `(payment_id, merchant_payment_id, status, recorded_at, expires_at) ` +
    `VALUES ($1, $2, $3, $4::timestamptz, ${lifetime}) ON CONFLICT (payment_id) DO UPDATE SET ` +
    `merchant_payment_id = EXCLUDED.merchant_payment_id, status = EXCLUDED.status, ` +
    `recorded_at = EXCLUDED.recorded_at, expires_at = ${lifetime} ` +
    `WHERE t.expires_at <= clock_timestamp() RETURNING 1), ` +
    `notified AS (SELECT pg_notify($6, $7) FROM inserted) ` +
    `SELECT (SELECT count(*) FROM completed)::int AS completed, ` +
    `(SELECT count(*) FROM notified)::int AS recorded`;
  const completeWithOutcomeQuery = (
    options.statement ?? ((text) => (values) => pool.query(text, values))
  )(completeWithOutcomeSql);
  const readSql = `SELECT ${columns} FROM ${name} WHERE payment_id = $1 AND expires_at > clock_timestamp()`;
  const rereadSql =
    `SELECT ${columns} FROM ${name} ` +
    `WHERE payment_id = ANY($1::text[]) AND expires_at > clock_timestamp()`;
  const sweep = sweeper(pool, name, 'payment_id', cleanupIntervalMs);
  const checkMs = listenerCheckMs(options.listenerCheckMs, 'createPostgresStore');
  const poolSize = (pool as PoolInternals).options?.max;

  let channel = '';
  /** Creates the table once and answers the channel; a failure is retried by the next call. */
  const prepare = onceUnlessFailed(() => outcomesChannel(pool, table));

  const listen = (): string => `LISTEN "${channel.replaceAll('"', '""')}"`;
  const deliverRows = (rows: unknown[]): void => {
    for (const row of rows) {
      const outcome = fromRow(row);
      if (outcome !== null) listening.listeners.deliver(outcome);
    }
  };

  const listening: OutcomeListening<Listening> = new OutcomeListening<Listening>({
    checkMs,
    create: (lost) => {
      const entry: Listening = {
        ready: Promise.resolve(),
        over: false,
        released: false,
        onNotification(message) {
          if (entry.over || message.channel !== channel) return;
          if (!message.payload) {
            // An outcome too large for a payload was announced empty: read them all.
            listening.reread().catch(() => {});
            return;
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(message.payload);
          } catch {
            return;
          }
          const outcome = toOutcome(parsed);
          if (outcome !== null) listening.listeners.deliver(outcome);
        },
        onLost: lost,
      };
      return entry;
    },

    async connect(entry, wanted) {
      channel = await prepare();
      const connect = pool.connect;
      if (typeof connect !== 'function') {
        throw new WebhookConfigError(
          'subscribing to outcomes needs { pool } to be a node-postgres Pool: the store takes one connection from it with pool.connect() to LISTEN on.',
          'pool',
        );
      }
      const borrow = async (): Promise<PostgresListenClient> => {
        const client = (await connect.call(pool).catch((error: unknown) => {
          // node-postgres's Client, connected already, answers connect() so.
          if (!/already been connected/.test(String(error))) throw error;
          return undefined;
        })) as PostgresListenClient | undefined;
        if (typeof client?.release !== 'function' || typeof client.on !== 'function') {
          throw new WebhookConfigError(
            'subscribing to outcomes needs { pool } to be a node-postgres Pool, whose connect() lends a client with release(); a single Client cannot lend its connection.',
            'pool',
          );
        }
        return client;
      };
      // A pooled connection the server ended while it sat idle fails its LISTEN: another is
      // taken, each failure closing one, at most as many times as the pool has connections.
      const attempts = (typeof poolSize === 'number' ? poolSize : 10) + 1;
      for (let attempt = 1; ; attempt++) {
        const client = await borrow();
        entry.client = client;
        entry.released = false;
        // Its errors are the failed LISTEN's until it listens (an unheard one would crash).
        client.on('error', ignore);
        // Closed or left idle while connecting: the connection goes back at once.
        if (entry.over) listening.finish(entry, listening.closed ? 'close' : 'idle');
        wanted();
        try {
          await client.query(listen());
        } catch (error) {
          if (entry.over || attempt >= attempts) throw error;
          entry.released = true;
          client.release(error instanceof Error ? error : true);
          continue;
        }
        wanted();
        client.removeListener('error', ignore);
        client.on('error', entry.onLost);
        client.on('end', entry.onLost);
        client.on('notification', entry.onNotification);
        // Keepalive probes keep a NAT's entry for the idle connection, and find a dead peer.
        (client as PoolInternals).connection?.stream?.setKeepAlive?.(true, checkMs);
        return;
      }
    },

    // LISTEN again: a no-op round trip that leaves LISTEN its last statement in pg_stat_activity.
    ping: (entry) => (entry.client as PostgresListenClient).query(listen()),

    // Gives the connection back: healthy ones to the pool, lost ones to be closed.
    end(entry, how, error) {
      const client = entry.client;
      if (client === undefined || entry.released) return;
      entry.released = true;
      client.removeListener('notification', entry.onNotification);
      client.on('error', ignore);
      let given = false;
      const destroy = (): void => {
        if (given) return;
        given = true;
        // The 'error' listener stays: a closing connection may still emit one.
        client.release(error instanceof Error ? error : true);
      };
      if (how !== 'idle') return destroy();
      // Not listening any more before it goes back, so the pool's next borrower hears nothing;
      // bounded, so a dead connection is closed rather than held by an UNLISTEN never answered.
      within(client.query('UNLISTEN *'), listening.timeoutMs, 'UNLISTEN unanswered').then(() => {
        if (given) return;
        given = true;
        client.release();
        client.removeListener('error', entry.onLost);
        client.removeListener('end', entry.onLost);
        client.removeListener('error', ignore);
      }, destroy);
    },

    // On the pool, not the listening connection, whose last statement then stays its LISTEN:
    // pg_stat_activity shows which connection listens.
    async reread(waiting) {
      deliverRows((await pool.query(rereadSql, [waiting])).rows);
    },
  });

  async function read(paymentId: string): Promise<PaymentOutcome | null> {
    await prepare();
    const { rows } = await pool.query(readSql, [paymentId]);
    return rows.length > 0 ? fromRow(rows[0]) : null;
  }

  /** The statement values every recording starts with: the row, its lifetime, the payload. */
  async function recordValues(given: PaymentOutcome, ttlMs: number) {
    const outcome = toOutcome(given);
    if (outcome === null || Number.isNaN(Date.parse(outcome.recordedAt))) {
      throw new TypeError(
        prefixed(
          'recordOutcome needs an outcome with paymentId, merchantPaymentId, a final status (COMPLETED, FAILED or NEEDS_REVIEW) and recordedAt (an ISO 8601 time).',
        ),
      );
    }
    const channel = await prepare();
    sweep();
    let payload = JSON.stringify(outcome);
    if (new TextEncoder().encode(payload).length > MAX_PAYLOAD_BYTES) payload = '';
    const { paymentId, merchantPaymentId, status, recordedAt } = outcome;
    return {
      outcome,
      values: [paymentId, merchantPaymentId, status, recordedAt, ttlMs, channel, payload],
    };
  }

  return {
    async completeWithOutcome(key, token, ttlMs, given, outcomeTtlMs) {
      const { outcome, values } = await recordValues(given, outcomeTtlMs);
      const { rows } = await completeWithOutcomeQuery([...values, ttlMs, key, token]);
      const row = rows[0] as { completed?: unknown; recorded?: unknown } | undefined;
      // Those waiting in this process hear it now; the notification then finds them gone. An
      // outcome that stood already was delivered when it was recorded.
      if (row?.recorded === 1) listening.listeners.deliver(outcome);
      return row?.completed === 1;
    },

    async recordOutcome(given, ttlMs) {
      const { outcome, values } = await recordValues(given, ttlMs);
      const { paymentId } = outcome;
      // Should the standing outcome lapse between the insert and the read, try again (bounded).
      for (let attempt = 0; attempt < 3; attempt++) {
        const { rows } = await pool.query(recordSql, values);
        if (rows.length > 0) {
          // Those waiting in this process hear it now; the notification finds them gone.
          listening.listeners.deliver(outcome);
          return outcome;
        }
        const standing = await read(paymentId);
        if (standing !== null) {
          listening.listeners.deliver(standing);
          return standing;
        }
      }
      throw new Error(
        prefixed(
          `the outcome of payment ${paymentId} could be neither recorded nor read: it kept expiring. Give outcomes a longer lifetime (outcomeTtlMs).`,
        ),
      );
    },

    readOutcome: read,

    async subscribeOutcome(paymentId, listener, onLost) {
      if (poolSize === 1) throw new WebhookConfigError(POOL_OF_ONE, 'pool');
      await prepare(); // The table, before the listening connection's bounded opening.
      return listening.subscribe(paymentId, listener, onLost);
    },

    async close() {
      listening.close();
    },
  };
}

function ignore(): void {}

function fromRow(row: unknown): PaymentOutcome | null {
  const r = (row ?? {}) as Record<string, unknown>;
  return toOutcome({
    paymentId: r.payment_id,
    merchantPaymentId: r.merchant_payment_id,
    status: r.status,
    recordedAt: r.recorded_at,
  });
}
