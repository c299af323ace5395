// @vitest-environment node
// Exactly once across processes: several receiver processes (separate Node processes, see
// support/receiver-process.ts) share one store on a real PostgreSQL (and, when available, a
// real Redis). The test plays the service: it fires every signed notification at all of them
// at once and resends whatever was not answered 200, while handlers throw, outlive their
// claim, and one process is killed with SIGKILL mid-handler. The merchant's own table then
// says whether each notification was handled successfully exactly once.
import { describe, expect, it } from 'vitest';
import { delay, send } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import type { SignedDelivery } from '../support/notifications';
import { receiversOnStores } from '../support/receiver-processes';
import { redisAvailable } from '../support/servers.mjs';
import type { ReceiverProcess as Receiver } from '../support/receiver-processes';

// Short, so that lapsed claims come quickly, but not shorter: a process whose event loop is
// starved longer than this (a loaded 2-core machine ran 20 processes) lets its claim lapse
// before its renewal runs, and another process rightly takes the notification: 1 s once made a
// `fast` one run twice at load 20, which a claim's lease cannot prevent, only make rarer.
const CLAIM_TTL_MS = 2000;
/** Resend rounds before giving up: a safety net, far beyond what a passing run needs. */
const MAX_ROUNDS = 240;
const RESEND_EVERY_MS = 250;

const keys = serviceKeys();
const stores = receiversOnStores(20);
let scenarios = 0;

interface Scenario {
  store: 'postgres' | 'redis';
  processes: number;
  /** How many notifications of each kind. */
  kinds: Record<'fast' | 'throw-once' | 'slow' | 'hang-once', number>;
  maxHandlingMs: number;
  /** How long a slow handler runs. */
  slowMs: number;
}

interface Result {
  /** Successful runs per payment, from the merchant's table. */
  handled: Map<string, number>;
  /** Runs per payment (failed and killed ones too). */
  attempts: Map<string, number>;
  payments: { id: string; kind: string }[];
  /** 200 answers sent before the merchant's table had the payment: must be none. */
  early: string[];
  /** Payments never answered 200: must be none. */
  unanswered: string[];
  killed: Receiver[];
}

async function run(scenario: Scenario): Promise<Result> {
  const n = ++scenarios;
  const tables = { handled: `handled_${n}`, attempts: `attempts_${n}` };
  for (const table of Object.values(tables)) {
    // No unique key: a second successful run must show up as a second row.
    await stores.pool.query(
      `CREATE TABLE ${table} (payment_id text NOT NULL, process text NOT NULL)`,
    );
  }
  const env = {
    DATABASE_URL: stores.postgres.url,
    REDIS_URL: stores.redis?.url ?? '',
    STORE: scenario.store,
    STORE_TABLE: `idempotency_${n}`,
    STORE_PREFIX: `across:${process.pid}:${n}:`,
    HANDLED_TABLE: tables.handled,
    ATTEMPTS_TABLE: tables.attempts,
    PUBLIC_KEY: keys.publicText,
    CLAIM_TTL_MS: String(CLAIM_TTL_MS),
    MAX_HANDLING_MS: String(scenario.maxHandlingMs),
    SLOW_MS: String(scenario.slowMs),
  };
  const receivers = await Promise.all(
    Array.from({ length: scenario.processes }, (_, i) => stores.processes.start(`r${i + 1}`, env)),
  );
  const killed: Receiver[] = [];
  for (const receiver of receivers) {
    receiver.child.on('message', (message: { type: string }) => {
      if (message.type !== 'hanging') return;
      receiver.killed = true;
      killed.push(receiver);
      receiver.child.kill('SIGKILL');
    });
  }

  const payments = Object.entries(scenario.kinds).flatMap(([kind, count]) =>
    Array.from({ length: count }, () => {
      const sent = notification({
        paymentRequest: { amount: 10, currency: 'GBP', reference: kind },
      });
      return { id: sent.paymentId, kind, delivery: signed(sent, keys.privateKey) };
    }),
  );
  const early: string[] = [];
  const pending = new Map(payments.map((payment) => [payment.id, payment.delivery]));

  /** One delivery to one process; a 200 ends the resends of that notification. */
  const deliver = async (id: string, delivery: SignedDelivery, to: Receiver): Promise<void> => {
    const answer = await send(`http://127.0.0.1:${to.port}/`, delivery.body, {
      authorization: delivery.authorization,
    }).catch(() => null); // a killed process answers nothing: a failed delivery
    if (answer?.status !== 200) return;
    // A 200 says the notification was handled: the merchant's table must already show it.
    const { rows } = await stores.pool.query(
      `SELECT count(*)::int AS n FROM ${tables.handled} WHERE payment_id = $1`,
      [id],
    );
    if ((rows[0] as { n: number }).n === 0) early.push(id);
    pending.delete(id);
  };

  // As the service does: every pending notification again at a steady pace, without waiting
  // for earlier deliveries to answer, here to every live process at once.
  const sent: Promise<void>[] = [];
  for (let round = 0; round < MAX_ROUNDS && pending.size > 0; round++) {
    for (const [id, delivery] of pending) {
      for (const receiver of receivers.filter((r) => !r.killed)) {
        sent.push(deliver(id, delivery, receiver));
      }
    }
    await delay(RESEND_EVERY_MS);
  }
  await Promise.all(sent);
  // Every handler still running ends before the table is read, so none can add a row later.
  await Promise.all(receivers.map((receiver) => stores.processes.drain(receiver)));

  const counts = async (table: string) => {
    const { rows } = await stores.pool.query(
      `SELECT payment_id, count(*)::int AS n FROM ${table} GROUP BY payment_id`,
    );
    return new Map((rows as { payment_id: string; n: number }[]).map((r) => [r.payment_id, r.n]));
  };
  return {
    handled: await counts(tables.handled),
    attempts: await counts(tables.attempts),
    payments: payments.map(({ id, kind }) => ({ id, kind })),
    early,
    unanswered: [...pending.keys()],
    killed,
  };
}

function expectExactlyOnce(result: Result): void {
  expect(result.unanswered).toEqual([]);
  expect(result.early).toEqual([]);
  const runs = result.payments.map(({ id, kind }) => [kind, result.handled.get(id) ?? 0]);
  expect(runs).toEqual(result.payments.map(({ kind }) => [kind, 1]));
  // The hard cases happened: a failed run and a killed run, each followed by a good one.
  for (const { id, kind } of result.payments) {
    if (kind === 'throw-once' || kind === 'hang-once') {
      expect(result.attempts.get(id), kind).toBeGreaterThanOrEqual(2);
    }
  }
  expect(result.killed).toHaveLength(1);
  expect(result.killed[0]?.child.signalCode).toBe('SIGKILL');
}

const HARD = { fast: 8, 'throw-once': 2, slow: 2, 'hang-once': 1 };

describe('several receiver processes on one store', () => {
  it('PostgreSQL store: every notification handled successfully exactly once', async () => {
    const result = await run({
      store: 'postgres',
      processes: 3,
      kinds: HARD,
      maxHandlingMs: 60_000,
      slowMs: CLAIM_TTL_MS * 2.5,
    });
    expectExactlyOnce(result);
  }, 120_000);

  it.skipIf(!redisAvailable)(
    'Redis store: every notification handled successfully exactly once',
    async () => {
      const result = await run({
        store: 'redis',
        processes: 3,
        kinds: HARD,
        maxHandlingMs: 60_000,
        slowMs: CLAIM_TTL_MS * 2.5,
      });
      expectExactlyOnce(result);
    },
    120_000,
  );

  it('without renewal (maxHandlingMs shorter than the handler) a slow notification runs twice: what renewal prevents', async () => {
    const result = await run({
      store: 'postgres',
      processes: 2,
      kinds: { fast: 0, 'throw-once': 0, slow: 1, 'hang-once': 0 },
      // Renewal stops after one TTL: the claim lapses by two, while the handler runs four.
      maxHandlingMs: CLAIM_TTL_MS,
      slowMs: CLAIM_TTL_MS * 4,
    });
    expect(result.unanswered).toEqual([]);
    const [slow] = result.payments;
    expect(result.handled.get(slow?.id as string)).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
