// @vitest-environment node
// Property-based test of the idempotent receiver (issue 7, spec 4.1 rules 2-3): random
// sequences of deliveries of a few signed notifications, with duplicates, concurrent batches,
// deliveries after success, an onNotification that fails at random (synchronously or after a
// while) and a synchronous or asynchronous store. The sender behaves as the service does: it
// resends every notification until it gets a 200. Whatever happens:
//
// - every notification is processed (onNotification succeeds) exactly once, none is lost;
// - a 200 is only ever answered after the notification's onNotification succeeded;
// - onNotification never runs twice at once for one notification, and is never called again
//   after it succeeded: later duplicates are answered 200 without a call;
// - every other answer asks for a resend (409, 500 or 503), never a 4xx that would stop it.
import { fc, test } from '@fast-check/vitest';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import {
  MemoryIdempotencyStore,
  createFetchWebhookHandler,
  createWebhookHandler,
} from '../../../src/webhook/index';
import type {
  IdempotencyClaim,
  IdempotencyStore,
  WebhookNotification,
} from '../../../src/webhook/index';
import { listen } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import type { SignedDelivery } from '../support/notifications';

const keys = serviceKeys();
const WEBHOOK_URL = 'https://merchant.example/webhooks/service';

/**
 * Five distinct notifications, signed once: four payments, and a FAILED notification for the
 * first payment too (a distinct notification under the default `<paymentId>:<status>` key).
 */
const pool: { key: string; delivery: SignedDelivery }[] = (() => {
  const sent: WebhookNotification[] = [1, 2, 3, 4].map((n) =>
    notification({ merchantPaymentId: `order-${n}` }),
  );
  sent.push(
    notification({
      paymentId: sent[0]!.paymentId,
      paymentStatus: 'FAILED',
      errorDescription: 'Rejected by the bank',
    }),
  );
  return sent.map((n) => ({
    key: `${n.paymentId}:${n.paymentStatus}`,
    delivery: signed(n, keys.privateKey),
  }));
})();

/** How the n-th onNotification call behaves (later calls succeed at once). */
const behaviour = fc.record({
  fail: fc.boolean(),
  /** Throw or return at once, rather than settle after `ticks` turns of the event loop. */
  sync: fc.boolean(),
  ticks: fc.nat({ max: 3 }),
});

const scenario = fc.record({
  notifications: fc.integer({ min: 1, max: pool.length }),
  /** Batches delivered concurrently (each entry picks a notification); then the resends. */
  batches: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), { maxLength: 6 }),
  /** How many copies of each unacknowledged notification each resend round sends at once. */
  resendCopies: fc.integer({ min: 1, max: 3 }),
  calls: fc.array(behaviour, { maxLength: 25 }),
  /** The store answers after this many turns of the event loop (0: synchronously). */
  storeTicks: fc.nat({ max: 2 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

/** The in-memory store behind a delay: each call answers after `ticks` turns. */
class SlowStore implements IdempotencyStore {
  readonly #inner = new MemoryIdempotencyStore();
  readonly #ticks: number;
  constructor(ticks: number) {
    this.#ticks = ticks;
  }
  async #wait(): Promise<void> {
    for (let i = 0; i < this.#ticks; i++) await tick();
  }
  async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
    await this.#wait();
    return this.#inner.claim(key, ttlMs);
  }
  async renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    await this.#wait();
    return this.#inner.renew(key, token, ttlMs);
  }
  async complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    await this.#wait();
    return this.#inner.complete(key, token, ttlMs);
  }
  async release(key: string, token: string): Promise<boolean> {
    await this.#wait();
    return this.#inner.release(key, token);
  }
}

/** What the receiver's merchant code saw, and every broken rule. */
function merchant(s: Scenario) {
  const succeeded = new Map<string, number>();
  const running = new Set<string>();
  const violations: string[] = [];
  let n = 0;
  const onNotification = (note: WebhookNotification): void | Promise<void> => {
    const key = `${note.paymentId}:${note.paymentStatus}`;
    const how = s.calls[n++] ?? { fail: false, sync: true, ticks: 0 };
    if (succeeded.has(key)) violations.push(`onNotification called again after success: ${key}`);
    if (running.has(key)) violations.push(`onNotification running twice at once: ${key}`);
    const finish = () => {
      if (how.fail) throw new Error('the merchant database is down');
      succeeded.set(key, (succeeded.get(key) ?? 0) + 1);
    };
    if (how.sync) return finish();
    running.add(key);
    return (async () => {
      try {
        for (let i = 0; i < how.ticks; i++) await tick();
        finish();
      } finally {
        running.delete(key);
      }
    })();
  };
  return { succeeded, violations, onNotification };
}

type Deliver = (delivery: SignedDelivery) => Promise<number>;

/** Plays the scenario as the service would, through `deliver`; checks every rule. */
async function play(s: Scenario, deliver: Deliver, m: ReturnType<typeof merchant>) {
  const used = pool.slice(0, s.notifications);
  const acknowledged = new Set<string>();
  const answers: number[] = [];

  const send = async (index: number) => {
    const { key, delivery } = used[index % used.length]!;
    const status = await deliver(delivery);
    answers.push(status);
    if (status === 200) {
      // Never acknowledged before the merchant's code succeeded.
      expect(m.succeeded.get(key), `200 for ${key} before it was processed`).toBe(1);
      acknowledged.add(key);
    }
  };

  for (const batch of s.batches) await Promise.all(batch.map(send));
  // The service resends each notification until it gets a 200.
  for (let round = 0; acknowledged.size < used.length; round++) {
    expect(round, 'the service is still resending').toBeLessThan(50);
    const pending = used.flatMap((u, i) => (acknowledged.has(u.key) ? [] : [i]));
    await Promise.all(
      pending.flatMap((i) => Array.from({ length: s.resendCopies }, () => send(i))),
    );
  }
  // Resends after success (a 200 lost on the way): 200, and no second call.
  const calledBefore = new Map(m.succeeded);
  await Promise.all(used.map((_u, i) => send(i)));
  expect(m.succeeded).toEqual(calledBefore);

  expect(m.violations).toEqual([]);
  expect([...m.succeeded.keys()].sort()).toEqual(used.map((u) => u.key).sort());
  expect([...m.succeeded.values()].every((count) => count === 1)).toBe(true);
  for (const status of answers) expect([200, 409, 500, 503]).toContain(status);
}

describe('the receiver under random deliveries', () => {
  test.prop([scenario], { numRuns: 150 })(
    'Fetch handler: every notification processed exactly once, none lost, duplicates after success answered 200 without a call',
    async (s) => {
      const m = merchant(s);
      const handle = createFetchWebhookHandler({
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        onNotification: m.onNotification,
        store: s.storeTicks === 0 ? new MemoryIdempotencyStore() : new SlowStore(s.storeTicks),
        onError: () => undefined,
      });
      await play(
        s,
        async ({ body, authorization }) =>
          (
            await handle(
              new Request(WEBHOOK_URL, {
                method: 'PUT',
                headers: { authorization, 'content-type': 'application/json' },
                body,
              }),
            )
          ).status,
        m,
      );
    },
    30_000,
  );

  test.prop([scenario], { numRuns: 15 })(
    'node:http handler over real HTTP: the same',
    async (s) => {
      const m = merchant(s);
      const server = await listen(
        createWebhookHandler({
          publicKey: keys.publicText,
          expectedPayment: 'unreconciled',
          onNotification: m.onNotification,
          store: s.storeTicks === 0 ? new MemoryIdempotencyStore() : new SlowStore(s.storeTicks),
          onError: () => undefined,
        }),
      );
      try {
        await play(
          s,
          async ({ body, authorization }) => {
            const response = await fetch(server.url, {
              method: 'PUT',
              headers: { authorization, 'content-type': 'application/json' },
              body,
            });
            await response.arrayBuffer();
            return response.status;
          },
          m,
        );
      } finally {
        await server.close();
      }
    },
    30_000,
  );
});
