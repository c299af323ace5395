// @vitest-environment node
// One order, paid once, across processes and at the same instant (issue 45): two receiver
// processes (support/receiver-process.ts) share one store on a real PostgreSQL, then on a real
// Redis; in each of 50 rounds the test, playing the service, sends two genuine COMPLETED of one
// order (two attempts, as from two tabs), one to each process at once, and resends whatever is
// not answered 200. The merchant's own tables then say, round by round: exactly one payment
// handed to onNotification, and the other told to onMismatch as already-paid by it.
import { describe, expect, it } from 'vitest';
import { delay, send } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { receiversOnStores } from '../support/receiver-processes';
import { redisAvailable } from '../support/servers.mjs';
import type { ReceiverProcess } from '../support/receiver-processes';

const ROUNDS = 50;
/** Resends of a delivery not answered 200 (a 409 while the other process holds a claim). */
const MAX_TRIES = 40;

const keys = serviceKeys();
const stores = receiversOnStores(10);

/** Delivers until answered 200, as the service resends; false if it never was. */
async function deliverUntilAnswered(to: ReceiverProcess, body: string, authorization: string) {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const answer = await send(`http://127.0.0.1:${to.port}/`, body, { authorization }).catch(
      () => null,
    );
    if (answer?.status === 200) return true;
    await delay(100);
  }
  return false;
}

async function rounds(store: 'postgres' | 'redis') {
  const tables = {
    handled: `handled_${store}`,
    attempts: `attempts_${store}`,
    mismatches: `mismatches_${store}`,
  };
  await stores.pool.query(
    `CREATE TABLE ${tables.handled} (payment_id text NOT NULL, process text)`,
  );
  await stores.pool.query(
    `CREATE TABLE ${tables.attempts} (payment_id text NOT NULL, process text)`,
  );
  await stores.pool.query(
    `CREATE TABLE ${tables.mismatches} (payment_id text NOT NULL, reason text NOT NULL, paid_by text, process text)`,
  );
  const env = {
    DATABASE_URL: stores.postgres.url,
    REDIS_URL: stores.redis?.url ?? '',
    STORE: store,
    STORE_TABLE: `idempotency_${store}`,
    STORE_PREFIX: `orders:${process.pid}:${store}:`,
    HANDLED_TABLE: tables.handled,
    ATTEMPTS_TABLE: tables.attempts,
    MISMATCHES_TABLE: tables.mismatches,
    PUBLIC_KEY: keys.publicText,
    CLAIM_TTL_MS: '30000',
    MAX_HANDLING_MS: '60000',
    SLOW_MS: '0',
  };
  const receivers = await Promise.all([
    stores.processes.start('r1', env),
    stores.processes.start('r2', env),
  ]);
  const sent: { orderId: string; payments: string[] }[] = [];
  const unanswered: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const orderId = `order-${store}-${round}`;
      const pair = [0, 1].map(() =>
        notification({
          paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'fast' },
          paymentMetadata: { orderId },
        }),
      );
      sent.push({ orderId, payments: pair.map((n) => n.paymentId) });
      // One to each process, at once.
      const answered = await Promise.all(
        pair.map((n, i) => {
          const d = signed(n, keys.privateKey);
          return deliverUntilAnswered(receivers[i] as ReceiverProcess, d.body, d.authorization);
        }),
      );
      pair.forEach((n, i) => answered[i] || unanswered.push(n.paymentId));
    }
  } finally {
    await Promise.all(receivers.map((receiver) => stores.processes.drain(receiver)));
  }
  const handled = (await stores.pool.query(`SELECT payment_id FROM ${tables.handled}`)).rows as {
    payment_id: string;
  }[];
  const mismatches = (
    await stores.pool.query(`SELECT payment_id, reason, paid_by FROM ${tables.mismatches}`)
  ).rows as { payment_id: string; reason: string; paid_by: string | null }[];
  return { sent, handled, mismatches, unanswered };
}

function expectOnePaidEachRound(result: Awaited<ReturnType<typeof rounds>>): void {
  expect(result.unanswered).toEqual([]);
  const perRound = result.sent.map(({ payments }) => {
    const paid = result.handled.filter((row) => payments.includes(row.payment_id));
    const told = result.mismatches.filter((row) => payments.includes(row.payment_id));
    const payer = paid[0]?.payment_id;
    return {
      paid: paid.length,
      told: told.map((row) => [row.reason, row.payment_id !== payer, row.paid_by === payer]),
    };
  });
  // Exactly one paid and one already-paid, naming the payer, in every round.
  expect(perRound).toEqual(
    result.sent.map(() => ({ paid: 1, told: [['already-paid', true, true]] })),
  );
}

describe('two COMPLETED of one order at once, to two receiver processes on one store', () => {
  it(`PostgreSQL store: ${ROUNDS} rounds, exactly one paid and one already-paid each`, async () => {
    expectOnePaidEachRound(await rounds('postgres'));
  }, 120_000);

  it.skipIf(!redisAvailable)(
    `Redis store: ${ROUNDS} rounds, exactly one paid and one already-paid each`,
    async () => {
      expectOnePaidEachRound(await rounds('redis'));
    },
    120_000,
  );
});
