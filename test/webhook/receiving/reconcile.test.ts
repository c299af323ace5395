// @vitest-environment node
// The money matches the order: with expectedPayment, a genuine COMPLETED that does not pay for
// its order is recorded NEEDS_REVIEW (what the return page's status endpoint answers), reaches
// onMismatch and never onNotification, and is answered 200. And the service's other statuses
// (SETTLED, PENDING, ones not known yet) are answered 200, handed on, and never change an
// outcome.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFetchPaymentStatusHandler,
  createWebhookHandler,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../../src/webhook/index';
import type {
  ExpectedPayment,
  FetchWebhookHandlerOptions,
  PaymentMismatch,
  WebhookNotification,
  WebhookReceiverOptions,
} from '../../../src/webhook/index';
import { listen, send } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder, statusOf } from '../support/receivers';

const keys = serviceKeys();

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

type Hooks = Partial<Pick<WebhookReceiverOptions<unknown>, 'expectedPayment' | 'onMismatch'>>;

/** A receiver and its status endpoint on one memory store, as a merchant mounts them. */
function merchant(hooks: Hooks = {}) {
  const store = new MemoryIdempotencyStore();
  const record = recorder();
  const deliver = statusOf({ store, ...record, ...hooks });
  const status = createFetchPaymentStatusHandler({ store });
  return {
    record,
    /** Signs and delivers `n`; the HTTP status the service gets. */
    deliver: (n: WebhookNotification) => deliver(signed(n, keys.privateKey)),
    /** What the shopper's return page is answered for `n`'s payment. */
    async answer(n: WebhookNotification): Promise<string> {
      const query = `paymentId=${n.paymentId}&merchantPaymentId=${n.merchantPaymentId ?? ''}`;
      const response = await status(new Request(`http://localhost/status?${query}`));
      return ((await response.json()) as { status: string }).status;
    },
  };
}

/** An order book keyed by merchantPaymentId, as expectedPayment reads it. */
function orders(entries: [string, ExpectedPayment][]) {
  const book = new Map(entries);
  return (n: WebhookNotification) => book.get(n.merchantPaymentId ?? '') ?? null;
}

describe('the service’s other statuses', () => {
  it('SETTLED after COMPLETED: 200, handed on as received, the outcome stays COMPLETED', async () => {
    const m = merchant();
    const completed = notification();
    const settled = { ...completed, paymentStatus: 'SETTLED', settledAt: '2025-06-01' };
    expect(await m.deliver(completed)).toBe(200);
    expect(await m.deliver(settled)).toBe(200);
    expect(await m.answer(completed)).toBe('COMPLETED');
    // Its own idempotency key (<paymentId>:SETTLED): not a duplicate of the COMPLETED...
    expect(m.record.notifications).toEqual([completed, settled]);
    expect(m.record.contexts.map((c) => c.idempotencyKey)).toEqual([
      `${completed.paymentId}:COMPLETED`,
      `${completed.paymentId}:SETTLED`,
    ]);
    // ... and its own resend is one.
    expect(await m.deliver(settled)).toBe(200);
    expect(m.record.notifications).toHaveLength(2);
    expect(m.record.errors).toEqual([]);
  });

  it('PENDING then COMPLETED: pending until the COMPLETED, then COMPLETED', async () => {
    const m = merchant();
    const completed = notification();
    expect(await m.deliver({ ...completed, paymentStatus: 'PENDING' })).toBe(200);
    expect(await m.answer(completed)).toBe('PENDING');
    expect(await m.deliver(completed)).toBe(200);
    expect(await m.answer(completed)).toBe('COMPLETED');
    expect(m.record.notifications.map((n) => n.paymentStatus)).toEqual(['PENDING', 'COMPLETED']);
  });

  it('a late PENDING after FAILED changes nothing', async () => {
    const m = merchant();
    const failed = notification({ paymentStatus: 'FAILED', errorDescription: 'Rejected' });
    expect(await m.deliver(failed)).toBe(200);
    expect(await m.deliver({ ...failed, paymentStatus: 'PENDING' })).toBe(200);
    expect(await m.answer(failed)).toBe('FAILED');
  });

  it('an unknown status: 200, handed on, and the payment stays pending', async () => {
    const m = merchant();
    const n = notification({ paymentStatus: 'PARTIALLY_REFUNDED' });
    expect(await m.deliver(n)).toBe(200);
    expect(await m.answer(n)).toBe('PENDING');
    expect(m.record.notifications).toEqual([n]);
  });

  it('a verified body that is no notification stays 400, with a clear onError', async () => {
    const m = merchant();
    expect(await m.deliver({ ...notification(), paymentStatus: 7 } as never)).toBe(400);
    expect(await m.deliver({ ...notification(), paymentRequest: undefined } as never)).toBe(400);
    expect(m.record.errors.map((e) => [e.context.status, (e.error as Error).message])).toEqual([
      [
        400,
        'servicepay: webhook notification field paymentStatus must be a non-empty string, got number 7.',
      ],
      [
        400,
        'servicepay: webhook notification field paymentRequest must be an object, got nothing (the field is missing).',
      ],
    ]);
  });
});

describe('reconciliation: expectedPayment', () => {
  const order: ExpectedPayment = { amount: 12.5, currency: 'GBP', reference: 'ORDER-1' };

  it.each<[string, Partial<WebhookNotification['paymentRequest']> | null, string]>([
    ['amount', { amount: 0.01 }, 'amount'],
    ['amount by a penny', { amount: 12.49 }, 'amount'],
    ['amount below a penny', { amount: 12.499 }, 'amount'],
    ['currency', { currency: 'EUR' }, 'currency'],
    ['reference', { reference: 'ORDER-2' }, 'reference'],
    ['no order', null, 'no-order'],
  ])(
    'a COMPLETED whose %s does not match: 200, NEEDS_REVIEW, onMismatch with the reason, no onNotification',
    async (_, change, reason) => {
      const mismatches: PaymentMismatch[] = [];
      const paid = notification();
      const m = merchant({
        expectedPayment: orders(change === null ? [] : [[paid.merchantPaymentId as string, order]]),
        onMismatch: (mismatch) => {
          mismatches.push(mismatch);
        },
      });
      const n = { ...paid, paymentRequest: { ...paid.paymentRequest, ...change } };
      expect(await m.deliver(n)).toBe(200);
      expect(await m.answer(n)).toBe('NEEDS_REVIEW');
      expect(mismatches).toEqual([
        { notification: n, reason, expected: change === null ? null : order, paidBy: null },
      ]);
      expect(m.record.notifications).toEqual([]);
      expect(m.record.errors).toEqual([]);
      // Genuine: its resend is a duplicate, and onMismatch is not told twice.
      expect(await m.deliver(n)).toBe(200);
      expect(mismatches).toHaveLength(1);
    },
  );

  it.each<[number, number]>([
    [12.5, 12.5],
    [12.5, 12.5],
    [0.1 + 0.2, 0.3],
    [1999.99, 1999.99],
  ])('%s paid against %s expected matches: COMPLETED, onNotification', async (paid, expected) => {
    const onMismatch = vi.fn();
    const n = notification({ paymentRequest: { amount: paid, currency: 'GBP', reference: 'X' } });
    // Currency omitted: GBP; reference omitted: not compared.
    const m = merchant({ expectedPayment: () => ({ amount: expected }), onMismatch });
    expect(await m.deliver(n)).toBe(200);
    expect(await m.answer(n)).toBe('COMPLETED');
    expect(m.record.notifications).toEqual([n]);
    expect(onMismatch).not.toHaveBeenCalled();
  });

  it('an asynchronous expectedPayment is awaited, for a match and a mismatch', async () => {
    const onMismatch = vi.fn(async (_mismatch: PaymentMismatch) => {});
    const lookUp = orders([['order-7', { amount: 30 }]]);
    const m = merchant({
      expectedPayment: async (n) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return lookUp(n);
      },
      onMismatch,
    });
    const good = notification({
      merchantPaymentId: 'order-7',
      paymentRequest: { amount: 30, currency: 'GBP' },
    });
    const bad = notification({ merchantPaymentId: 'order-8' });
    expect(await m.deliver(good)).toBe(200);
    expect(await m.deliver(bad)).toBe(200);
    expect([await m.answer(good), await m.answer(bad)]).toEqual(['COMPLETED', 'NEEDS_REVIEW']);
    expect(m.record.notifications).toEqual([good]);
    expect(onMismatch).toHaveBeenCalledTimes(1);
    expect(onMismatch.mock.calls[0]?.[0]).toMatchObject({ reason: 'no-order', expected: null });
  });

  it.each<[string, ExpectedPayment | null]>([
    ['no order', null],
    ['an order of another amount', { amount: 99, reference: 'OTHER' }],
    ['a closed order', { amount: 12.5, acceptsPayment: false }],
  ])(
    'FAILED against %s is recorded FAILED and handed on: only its orderId is read',
    async (_, answer) => {
      const expectedPayment = vi.fn(() => answer);
      const onMismatch = vi.fn();
      const m = merchant({ expectedPayment, onMismatch });
      const failed = notification({ paymentStatus: 'FAILED', errorDescription: 'Rejected' });
      expect(await m.deliver(failed)).toBe(200);
      expect(await m.answer(failed)).toBe('FAILED');
      expect(m.record.notifications).toEqual([failed]);
      expect(m.record.contexts[0]?.orderPaidBy).toBeNull();
      expect(expectedPayment).toHaveBeenCalledTimes(1);
      expect(onMismatch).not.toHaveBeenCalled();
    },
  );

  it('without onMismatch: one line to onError (200, needs-review), not a 5xx', async () => {
    const m = merchant({ expectedPayment: () => ({ amount: 12.5 }) });
    const n = notification({
      paymentId: 'pay-1',
      merchantPaymentId: 'order-1',
      paymentRequest: { amount: 0.01, currency: 'GBP', reference: 'ORDER-1' },
    });
    expect(await m.deliver(n)).toBe(200);
    expect(await m.answer(n)).toBe('NEEDS_REVIEW');
    expect(m.record.notifications).toEqual([]);
    expect(m.record.errors).toHaveLength(1);
    expect(m.record.errors[0]?.context).toEqual({
      outcome: 'needs-review',
      status: 200,
      notification: n,
    });
    expect((m.record.errors[0]?.error as Error).message).toBe(
      'servicepay: payment pay-1 (merchantPaymentId "order-1") was COMPLETED for 0.01 GBP, reference "ORDER-1", but its order\'s amount differs (mismatch: amount); recorded NEEDS_REVIEW, not paid. Answered 200; pass onMismatch to handle these.',
    );
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('database down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('database down'))],
    ['answers a string amount that is no decimal', () => ({ amount: '12,50' }) as never],
  ])(
    'expectedPayment %s: 500 and onError, nothing recorded; the resend is asked again',
    async (_, failing) => {
      let fails = true;
      const expectedPayment = vi.fn((n: WebhookNotification) =>
        fails ? failing() : { amount: n.paymentRequest.amount },
      );
      const m = merchant({ expectedPayment });
      const n = notification();
      expect(await m.deliver(n)).toBe(500);
      expect(await m.answer(n)).toBe('PENDING');
      expect(m.record.notifications).toEqual([]);
      expect(m.record.errors[0]?.context.status).toBe(500);
      expect((m.record.errors[0]?.error as Error).message).toMatch(
        /^servicepay: expectedPayment .*answered 500, so the service resends/,
      );
      fails = false;
      expect(await m.deliver(n)).toBe(200);
      expect(await m.answer(n)).toBe('COMPLETED');
      expect(expectedPayment).toHaveBeenCalledTimes(2);
    },
  );

  it('onMismatch that fails: 500 and retried; once it succeeded, resends are duplicates', async () => {
    let attempts = 0;
    const m = merchant({
      expectedPayment: () => null,
      onMismatch: () => {
        if (++attempts === 1) throw new Error('ticket system down');
      },
    });
    const n = notification();
    expect(await m.deliver(n)).toBe(500);
    expect(await m.answer(n)).toBe('PENDING');
    expect(await m.deliver(n)).toBe(200);
    expect(await m.deliver(n)).toBe(200);
    expect(attempts).toBe(2);
    expect(await m.answer(n)).toBe('NEEDS_REVIEW');
  });

  it('through the node:http front door too', async () => {
    const store = new MemoryIdempotencyStore();
    const mismatches: string[] = [];
    const record = recorder();
    const server = await listen(
      createWebhookHandler({
        publicKey: keys.publicText,
        store,
        ...record,
        expectedPayment: () => ({ amount: 12.5, reference: 'ORDER-1' }),
        onMismatch: ({ reason }) => {
          mismatches.push(reason);
        },
      }),
    );
    try {
      const n = notification({ paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'X' } });
      const d = signed(n, keys.privateKey);
      expect((await send(server.url, d.body, { authorization: d.authorization })).status).toBe(200);
      expect(mismatches).toEqual(['reference']);
      expect(record.notifications).toEqual([]);
      expect((await store.readOutcome(n.paymentId))?.status).toBe('NEEDS_REVIEW');
    } finally {
      await server.close();
    }
  });
});

describe("expectedPayment: 'unreconciled', or (plain JavaScript) left out", () => {
  const LINE =
    "servicepay: this webhook receiver does not reconcile payments with your orders (expectedPayment is 'unreconciled' or not given): a COMPLETED notification is taken at its word, though its amount and reference were made in the shopper's browser. To check each payment against its order, pass expectedPayment a lookup of the order (docs/webhooks.md, \"Reconciliation: the money matches the order\").";

  /**
   * The receiver module afresh (the line is said once per process, per module instance), built
   * with `reconcile`; delivers a signed notification and answers the status the service gets.
   */
  async function freshReceiver(reconcile: { expectedPayment?: 'unreconciled' }) {
    vi.resetModules();
    const { createFetchWebhookHandler } = await import('../../../src/webhook/index');
    const options = { publicKey: keys.publicText, ...reconcile, ...recorder() };
    const handle = createFetchWebhookHandler(options as FetchWebhookHandlerOptions);
    return async (n: WebhookNotification) => {
      const d = signed(n, keys.privateKey);
      const request = new Request('http://localhost/', {
        method: 'PUT',
        body: d.body,
        headers: { authorization: d.authorization },
      });
      return (await handle(request)).status;
    };
  }

  it.each([
    ["expectedPayment: 'unreconciled'", { expectedPayment: 'unreconciled' } as const],
    ['no expectedPayment at all (plain JavaScript)', {}],
  ])(
    '%s: in production, one line when the receiver is created, none per delivery; a £0.01 COMPLETED is taken at its word',
    async (_name, reconcile) => {
      vi.stubEnv('NODE_ENV', 'production');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const deliver = await freshReceiver(reconcile);
      // Said at creation, before any delivery: a server that never gets one still says it.
      expect(warn.mock.calls).toEqual([[LINE]]);
      expect(
        await deliver(notification({ paymentRequest: { amount: 0.01, currency: 'GBP' } })),
      ).toBe(200);
      expect(await deliver(notification())).toBe(200);
      expect(warn).toHaveBeenCalledTimes(1);
    },
  );

  it('once per process: a second unreconciled receiver says nothing more; a reconciled one never says it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await freshReceiver({ expectedPayment: 'unreconciled' });
    const { createFetchWebhookHandler } = await import('../../../src/webhook/index');
    createFetchWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      ...recorder(),
    });
    expect(warn.mock.calls).toEqual([[LINE]]);

    vi.resetModules();
    const fresh = await import('../../../src/webhook/index');
    fresh.createFetchWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: () => null,
      ...recorder(),
    });
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('any other value is refused when the receiver is created, quoting a misspelt word', () => {
    const create = (expectedPayment: unknown) => () =>
      statusOf({ ...recorder(), expectedPayment } as never);
    expect(create('unreconcilled')).toThrow(WebhookConfigError);
    expect(create('unreconcilled')).toThrow(
      `servicepay: expectedPayment must be a function that looks up the order behind a payment, or 'unreconciled' to take COMPLETED notifications at their word, got "unreconcilled".`,
    );
    expect(create(true)).toThrow(/, got boolean\.$/);
    expect(create(null)).toThrow(/, got object\.$/);
  });
});
