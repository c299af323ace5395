// @vitest-environment node
// Reconciliation against a real order table on a real PostgreSQL (issue 46, findings 4 and 5):
// node-postgres hands a NUMERIC total over as a decimal string and a nullable currency as null,
// and a merchant's expectedPayment returns the row as it comes, a customer's e-mail beside the
// total. The genuine payment reconciles and pays the order, once (the order claimed in the
// PostgreSQL store); and that e-mail never reaches a span, a span event or a log line, whether
// the answer is refused, does not match, or names an order already paid.
import { inspect } from 'node:util';
import * as opentelemetry from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchPaymentStatusHandler, createWebhookHandler } from '../../../src/webhook/index';
import type {
  WebhookHandlerOptions,
  WebhookNotification,
  WebhookNotificationContext,
} from '../../../src/webhook/index';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import type { PostgresStore } from '../../../src/webhook/stores/postgres';
import { listen, send } from '../support/http';
import type { TestServer } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { eventually } from '../support/outcomes';
import { postgresPool } from '../support/pg-pools';
import { everyAttribute, registerSdk } from '../support/telemetry';
import type { Telemetry } from '../support/telemetry';

const keys = serviceKeys();
const PLANTED = 'planted.customer@example.com';

const postgres = postgresPool(8);
let tables = 0;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  vi.restoreAllMocks();
});

/**
 * A shop's order table as merchants have them: the total NUMERIC, the currency nullable, the
 * customer's e-mail in the row, and one order of £12.50 with no currency set.
 */
async function shop(columns = '') {
  const table = `orders_${++tables}`;
  await postgres.pool.query(
    `CREATE TABLE ${table} (id text PRIMARY KEY, customer_email text NOT NULL, total numeric(10,2) NOT NULL, currency char(3), reference text, status text NOT NULL DEFAULT 'open'${columns})`,
  );
  await postgres.pool.query(
    `INSERT INTO ${table} (id, total, currency, reference, customer_email) VALUES ('order-1042', 12.50, NULL, 'ORDER-1042', $1)`,
    [PLANTED],
  );
  return table;
}

/** A receiver over node:http on the PostgreSQL store; `options` as the merchant writes them. */
async function receiver(options: Omit<WebhookHandlerOptions, 'publicKey'>) {
  const store = createPostgresStore({ pool: postgres.pool, table: `idempotency_${tables}` });
  const server = await listen(
    createWebhookHandler({ publicKey: keys.publicText, store, ...options }),
  );
  servers.push(server);
  return {
    store,
    deliver: async (n: WebhookNotification) => {
      const d = signed(n, keys.privateKey);
      return (await send(server.url, d.body, { authorization: d.authorization })).status;
    },
  };
}

/** What the shopper's return page is answered for `n`'s payment. */
async function answer(store: PostgresStore, n: WebhookNotification): Promise<string> {
  const query = `paymentId=${n.paymentId}&merchantPaymentId=${n.merchantPaymentId ?? ''}`;
  const response = await createFetchPaymentStatusHandler({ store })(
    new Request(`http://localhost/status?${query}`),
  );
  return ((await response.json()) as { status: string }).status;
}

/** A payment of order-1042 for `amount`, as the page makes it (metadata: { orderId }). */
const payment = (amount = 12.5) =>
  notification({
    paymentRequest: { amount, currency: 'GBP', reference: 'ORDER-1042' },
    paymentMetadata: { orderId: 'order-1042' },
  });

const orderIdOf = (n: WebhookNotification) => String(n.paymentMetadata?.orderId);

describe('a real order row', () => {
  it('NUMERIC total and NULL currency, straight from node-postgres: the genuine payment pays the order, once', async () => {
    const table = await shop();
    const contexts: WebhookNotificationContext[] = [];
    const reasons: [string, string | null][] = [];
    const r = await receiver({
      async expectedPayment(n) {
        const { rows } = await postgres.pool.query(`SELECT * FROM ${table} WHERE id = $1`, [
          orderIdOf(n),
        ]);
        const row = rows[0] as Record<string, unknown> | undefined;
        if (row === undefined) return null;
        // As they come: total is '12.50', currency null.
        expect([row.total, row.currency]).toEqual(['12.50', null]);
        return {
          amount: row.total as string,
          currency: row.currency as null,
          reference: row.reference as string,
          orderId: row.id as string,
          acceptsPayment: row.status === 'open',
        };
      },
      async onNotification(n, context) {
        contexts.push(context);
        // By the order's id, never by merchantPaymentId (made in the browser).
        await postgres.pool.query(`UPDATE ${table} SET status = 'paid' WHERE id = $1`, [
          orderIdOf(n),
        ]);
      },
      onMismatch: ({ reason, paidBy }) => void reasons.push([reason, paidBy]),
    });
    const genuine = payment();
    expect(await r.deliver(genuine)).toBe(200);
    expect(await answer(r.store, genuine)).toBe('COMPLETED');
    expect(contexts.map((c) => c.orderPaidBy)).toEqual([genuine.paymentId]);
    const { rows } = await postgres.pool.query(
      `SELECT status FROM ${table} WHERE id = 'order-1042'`,
    );
    expect(rows).toEqual([{ status: 'paid' }]);

    // A second attempt of the same order, now paid and closed: already-paid, never onNotification.
    const second = payment();
    expect(await r.deliver(second)).toBe(200);
    expect(await answer(r.store, second)).toBe('NEEDS_REVIEW');
    expect(reasons).toEqual([['already-paid', genuine.paymentId]]);
    expect(contexts).toHaveLength(1);
    // The store's record of it, in its own table.
    const paid = await postgres.pool.query(
      `SELECT order_id, payment_id FROM idempotency_${tables}_orders`,
    );
    expect(paid.rows).toEqual([{ order_id: 'order-1042', payment_id: genuine.paymentId }]);
  });
});

describe('the planted e-mail', () => {
  let sdk: Telemetry;
  beforeEach(() => {
    sdk = registerSdk();
  });
  afterEach(async () => {
    await sdk.stop();
  });

  /** Everything written to the console, as Node would print it (errors with stack and cause). */
  function console_(): () => string {
    const calls: unknown[][] = [];
    for (const method of ['error', 'warn', 'log', 'info', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        calls.push(args);
      });
    }
    return () =>
      calls.map((args) => args.map((arg) => inspect(arg, { depth: 20 })).join(' ')).join('\n');
  }

  it('never reaches a span, a span event or a log line: refused, mismatched, already paid', async () => {
    // `amount` kept by a legacy text column, '12,50': the row is refused.
    const table = await shop(", amount text NOT NULL DEFAULT '12,50'");
    const printed = console_();
    let asRow = true;
    const r = await receiver({
      telemetry: opentelemetry,
      // The whole row, as a merchant in a hurry returns it (no onError: the default log).
      async expectedPayment(n) {
        const { rows } = await postgres.pool.query(`SELECT * FROM ${table} WHERE id = $1`, [
          orderIdOf(n),
        ]);
        const row = rows[0] as Record<string, unknown>;
        return asRow
          ? (row as never)
          : { ...row, amount: row.total as string, orderId: row.id as string };
      },
      onNotification: () => {},
    });
    const refused = payment();
    expect(await r.deliver(refused)).toBe(500);
    await eventually(
      async () => sdk.named('servicepay.webhook.receive').length,
      (ended) => ended === 1,
    );
    // The refusal names the field and the columns, not the row.
    expect(printed()).not.toContain('planted');
    expect(await everyAttribute(sdk)).not.toContain('planted');
    expect(printed()).toMatch(/keys given: id, customer_email, total/);
    asRow = false;
    const short = payment(0.01);
    expect(await r.deliver(short)).toBe(200); // mismatch: amount
    const genuine = payment();
    expect(await r.deliver(genuine)).toBe(200);
    const second = payment();
    expect(await r.deliver(second)).toBe(200); // already-paid
    expect(await answer(r.store, second)).toBe('NEEDS_REVIEW');

    // Each was told, in the default log and on the spans...
    const log = printed();
    expect(log).toMatch(
      /expectedPayment answered an object whose amount is a string that is not a decimal/,
    );
    expect(log).toMatch(
      /keys given: id, customer_email, total, currency, reference, status, amount/,
    );
    expect(log).toMatch(/\(mismatch: amount\)/);
    expect(log).toMatch(/\(mismatch: already-paid\)/);
    // Every delivery's spans ended (they end a moment after the answer).
    await eventually(
      async () => sdk.named('servicepay.webhook.receive').length,
      (ended) => ended === 4,
    );
    const traced = await everyAttribute(sdk);
    expect(traced).toMatch(/amount is a string that is not a decimal/);
    // ... and the customer's e-mail, nowhere.
    expect(log).not.toContain('planted');
    expect(traced).not.toContain('planted');
    expect(log).not.toContain('12,50');
  });
});
