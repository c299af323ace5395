// @vitest-environment node
// One order, paid once (issue 45): when expectedPayment names the order (orderId), the first
// matching COMPLETED pays it, and a COMPLETED of another payment for it is recorded
// NEEDS_REVIEW (already-paid, with the payment that paid), answered 200, never handed to
// onNotification. A resend of the payment that paid stays paid; a closed order
// (acceptsPayment: false) takes no payment (order-closed); a FAILED of another attempt is told
// who paid. Without orderId, every matching payment is paid, as before.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFetchPaymentStatusHandler,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../../src/webhook/index';
import type {
  ExpectedPayment,
  IdempotencyStore,
  PaymentMismatch,
  WebhookNotification,
  WebhookNotificationContext,
  WebhookReceiverOptions,
} from '../../../src/webhook/index';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder, RecordingStore, statusOf } from '../support/receivers';

const keys = serviceKeys();

afterEach(() => {
  vi.restoreAllMocks();
});

type Hooks = Partial<
  Pick<
    WebhookReceiverOptions<unknown>,
    'expectedPayment' | 'onMismatch' | 'onNotification' | 'store'
  >
>;

/** A receiver and its status endpoint on one store, as a merchant mounts them. */
function merchant(hooks: Hooks = {}) {
  const store = hooks.store ?? new MemoryIdempotencyStore();
  const record = recorder();
  const mismatches: { mismatch: PaymentMismatch; context: WebhookNotificationContext }[] = [];
  const deliver = statusOf({
    store,
    ...record,
    onMismatch: (mismatch, context) => {
      mismatches.push({ mismatch, context });
    },
    ...hooks,
  });
  // Made when first asked: a store of your own may keep no outcomes.
  let status: ((request: Request) => Promise<Response>) | undefined;
  return {
    record,
    mismatches,
    /** Signs and delivers `n`; the HTTP status the service gets. */
    deliver: (n: WebhookNotification) => deliver(signed(n, keys.privateKey)),
    /** What the shopper's return page is answered for `n`'s payment. */
    async answer(n: WebhookNotification): Promise<string> {
      const query = `paymentId=${n.paymentId}&merchantPaymentId=${n.merchantPaymentId ?? ''}`;
      status ??= createFetchPaymentStatusHandler({ store: store as MemoryIdempotencyStore });
      const response = await status(new Request(`http://localhost/status?${query}`));
      return ((await response.json()) as { status: string }).status;
    },
  };
}

/** A payment of the order `orderId` (in its metadata, as the page sends it). */
function paymentOf(orderId: string, overrides: Partial<WebhookNotification> = {}) {
  return notification({ paymentMetadata: { orderId }, ...overrides });
}

/** An order book: expectedPayment reads the order the payment's metadata names. */
function book(orders: Record<string, ExpectedPayment>) {
  return (n: WebhookNotification): ExpectedPayment | null =>
    orders[String(n.paymentMetadata?.orderId)] ?? null;
}

const ORDER: ExpectedPayment = { amount: 12.5, reference: 'ORDER-1', orderId: 'order-1' };

describe('one order, paid once', () => {
  it('a second payment of a paid order: 200, NEEDS_REVIEW, onMismatch once with already-paid and the payer, never onNotification', async () => {
    const m = merchant({ expectedPayment: book({ 'order-1': ORDER }) });
    const first = paymentOf('order-1');
    const second = paymentOf('order-1');
    expect(await m.deliver(first)).toBe(200);
    expect(await m.deliver(second)).toBe(200);
    expect([await m.answer(first), await m.answer(second)]).toEqual(['COMPLETED', 'NEEDS_REVIEW']);
    expect(m.record.notifications).toEqual([first]);
    // The handler of the payment that paid is told it paid.
    expect(m.record.contexts[0]?.orderPaidBy).toBe(first.paymentId);
    expect(m.mismatches.map(({ mismatch }) => mismatch)).toEqual([
      { notification: second, reason: 'already-paid', expected: ORDER, paidBy: first.paymentId },
    ]);
    expect(m.mismatches[0]?.context.orderPaidBy).toBe(first.paymentId);
    // Its resend is a duplicate: onMismatch is not told twice.
    expect(await m.deliver(second)).toBe(200);
    expect(m.mismatches).toHaveLength(1);
    expect(m.record.errors).toEqual([]);
  });

  it('already-paid comes first: a second payment that also differs, for an order now closed', async () => {
    let open = true;
    const m = merchant({
      expectedPayment: () => ({ ...ORDER, acceptsPayment: open }),
    });
    const first = paymentOf('order-1');
    expect(await m.deliver(first)).toBe(200);
    open = false; // the merchant closed the order once it was paid
    const second = paymentOf('order-1', {
      paymentRequest: { amount: 0.01, currency: 'EUR', reference: 'X' },
    });
    expect(await m.deliver(second)).toBe(200);
    expect(m.mismatches.map(({ mismatch }) => [mismatch.reason, mismatch.paidBy])).toEqual([
      ['already-paid', first.paymentId],
    ]);
    expect(await m.answer(second)).toBe('NEEDS_REVIEW');
  });

  it('two payments of one order at the same instant: exactly one paid, every time', async () => {
    for (let round = 0; round < 25; round++) {
      const orderId = `order-${round}`;
      const m = merchant({
        // Asynchronous, as a database lookup is: both deliveries are inside it at once.
        expectedPayment: async () => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
          return { ...ORDER, orderId };
        },
      });
      const [a, b] = [paymentOf(orderId), paymentOf(orderId)];
      expect(await Promise.all([m.deliver(a), m.deliver(b)])).toEqual([200, 200]);
      const statuses = [await m.answer(a), await m.answer(b)].sort();
      expect(statuses).toEqual(['COMPLETED', 'NEEDS_REVIEW']);
      const paid = m.record.notifications.map((n) => n.paymentId);
      expect(paid).toHaveLength(1);
      expect(m.mismatches.map(({ mismatch }) => [mismatch.reason, mismatch.paidBy])).toEqual([
        ['already-paid', paid[0]],
      ]);
    }
  });

  it('without onMismatch: one line to onError naming the payment that paid, not the order', async () => {
    const store = new MemoryIdempotencyStore();
    const record = recorder();
    const deliver = statusOf({
      store,
      ...record,
      expectedPayment: () => ({ ...ORDER, orderId: 'customer-4471-order' }),
    });
    const first = notification({ paymentId: 'pay-1' });
    const second = notification({ paymentId: 'pay-2', merchantPaymentId: 'mp-2' });
    expect(await deliver(signed(first, keys.privateKey))).toBe(200);
    expect(await deliver(signed(second, keys.privateKey))).toBe(200);
    expect(record.errors.map((e) => e.context)).toEqual([
      { outcome: 'needs-review', status: 200, notification: second },
    ]);
    expect((record.errors[0]?.error as Error).message).toBe(
      'servicepay: payment pay-2 (merchantPaymentId "mp-2") was COMPLETED for 12.5 GBP, reference "ORDER-1", but its order was already paid by another payment (pay-1): refund this one (mismatch: already-paid); recorded NEEDS_REVIEW, not paid. Answered 200; pass onMismatch to handle these.',
    );
  });

  it('a payment that does not match never claims the order: the matching one after it pays', async () => {
    const m = merchant({ expectedPayment: book({ 'order-1': ORDER }) });
    const short = paymentOf('order-1', {
      paymentRequest: { amount: 0.01, currency: 'GBP', reference: 'ORDER-1' },
    });
    const whole = paymentOf('order-1');
    expect(await m.deliver(short)).toBe(200);
    expect(await m.deliver(whole)).toBe(200);
    expect([await m.answer(short), await m.answer(whole)]).toEqual(['NEEDS_REVIEW', 'COMPLETED']);
    expect(m.mismatches.map(({ mismatch }) => [mismatch.reason, mismatch.paidBy])).toEqual([
      ['amount', null],
    ]);
    expect(m.record.notifications).toEqual([whole]);
  });

  it('orders are kept apart: a payment of each of two orders pays each', async () => {
    const m = merchant({
      expectedPayment: book({ 'order-1': ORDER, 'order-2': { ...ORDER, orderId: 'order-2' } }),
    });
    const [one, two] = [paymentOf('order-1'), paymentOf('order-2')];
    expect([await m.deliver(one), await m.deliver(two)]).toEqual([200, 200]);
    expect([await m.answer(one), await m.answer(two)]).toEqual(['COMPLETED', 'COMPLETED']);
  });
});

describe('the payment that paid', () => {
  it('its resend stays COMPLETED, though the order now answers acceptsPayment: false', async () => {
    const orders: Record<string, ExpectedPayment> = { 'order-1': { ...ORDER } };
    let runs = 0;
    const m = merchant({
      expectedPayment: book(orders),
      // The merchant marks the order paid (closed), then fails: the service resends.
      onNotification: () => {
        orders['order-1'] = { ...ORDER, acceptsPayment: false };
        if (++runs === 1) throw new Error('mail server down');
      },
    });
    const payer = paymentOf('order-1');
    expect(await m.deliver(payer)).toBe(500);
    // Meanwhile another attempt's COMPLETED: the order is already its payer's.
    const other = paymentOf('order-1');
    expect(await m.deliver(other)).toBe(200);
    expect(await m.deliver(payer)).toBe(200);
    expect(runs).toBe(2);
    expect([await m.answer(payer), await m.answer(other)]).toEqual(['COMPLETED', 'NEEDS_REVIEW']);
    expect(m.mismatches.map(({ mismatch }) => [mismatch.reason, mismatch.paidBy])).toEqual([
      ['already-paid', payer.paymentId],
    ]);
  });

  it('its resend after the receiver forgot the notification: COMPLETED again, handed on again', async () => {
    const store = new MemoryIdempotencyStore();
    const orders: Record<string, ExpectedPayment> = { 'order-1': { ...ORDER } };
    const m = merchant({
      store,
      expectedPayment: book(orders),
      onNotification: () => {
        orders['order-1'] = { ...ORDER, acceptsPayment: false };
      },
    });
    const payer = paymentOf('order-1');
    expect(await m.deliver(payer)).toBe(200);
    // Another receiver on the same store, whose idempotency keys are its own: the notification
    // is new to it, the order is not.
    const again = merchant({
      store: new Proxy(store, {
        get(target, property) {
          const value: unknown = Reflect.get(target, property);
          if (property === 'claim') {
            return (key: string, ttlMs: number) => target.claim(`again:${key}`, ttlMs);
          }
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
      expectedPayment: book(orders),
    });
    expect(await again.deliver(payer)).toBe(200);
    expect(again.mismatches).toEqual([]);
    expect(again.record.notifications).toEqual([payer]);
    expect(again.record.contexts[0]?.orderPaidBy).toBe(payer.paymentId);
  });
});

describe('closed orders', () => {
  it('a COMPLETED for an order that takes no more payment: NEEDS_REVIEW, order-closed', async () => {
    const closed = { ...ORDER, acceptsPayment: false };
    const m = merchant({ expectedPayment: book({ 'order-1': closed }) });
    const late = paymentOf('order-1');
    expect(await m.deliver(late)).toBe(200);
    expect(await m.answer(late)).toBe('NEEDS_REVIEW');
    expect(m.record.notifications).toEqual([]);
    expect(m.mismatches.map(({ mismatch }) => mismatch)).toEqual([
      { notification: late, reason: 'order-closed', expected: closed, paidBy: null },
    ]);
    // It claimed nothing: the order has no payer.
    const failed = paymentOf('order-1', { paymentStatus: 'FAILED' });
    expect(await m.deliver(failed)).toBe(200);
    expect(m.record.contexts.at(-1)?.orderPaidBy).toBeNull();
  });

  it('order-closed comes before a difference in the amount', async () => {
    const m = merchant({ expectedPayment: () => ({ ...ORDER, acceptsPayment: false }) });
    const short = paymentOf('order-1', {
      paymentRequest: { amount: 1, currency: 'GBP', reference: 'ORDER-1' },
    });
    expect(await m.deliver(short)).toBe(200);
    expect(m.mismatches.map(({ mismatch }) => mismatch.reason)).toEqual(['order-closed']);
  });

  it('closes the order without orderId too (no payment is recognised as its payer then)', async () => {
    const m = merchant({ expectedPayment: () => ({ amount: 12.5, acceptsPayment: false }) });
    const late = notification();
    expect(await m.deliver(late)).toBe(200);
    expect(m.mismatches.map(({ mismatch }) => mismatch.reason)).toEqual(['order-closed']);
  });

  it('acceptsPayment: true and absent both take payment', async () => {
    const m = merchant({
      expectedPayment: (n) =>
        n.merchantPaymentId === 'a' ? { amount: 12.5, acceptsPayment: true } : { amount: 12.5 },
    });
    const [a, b] = [
      notification({ merchantPaymentId: 'a' }),
      notification({ merchantPaymentId: 'b' }),
    ];
    expect([await m.deliver(a), await m.deliver(b)]).toEqual([200, 200]);
    expect([await m.answer(a), await m.answer(b)]).toEqual(['COMPLETED', 'COMPLETED']);
  });
});

describe('a FAILED of another attempt', () => {
  it('reaches onNotification as today, its context naming the payment that paid the order', async () => {
    const m = merchant({ expectedPayment: book({ 'order-1': ORDER }) });
    const failedBefore = paymentOf('order-1', { paymentStatus: 'FAILED', errorDescription: 'x' });
    const payer = paymentOf('order-1');
    const failedAfter = paymentOf('order-1', { paymentStatus: 'FAILED', errorDescription: 'y' });
    for (const n of [failedBefore, payer, failedAfter]) expect(await m.deliver(n)).toBe(200);
    expect(m.record.notifications).toEqual([failedBefore, payer, failedAfter]);
    expect(m.record.contexts.map((c) => c.orderPaidBy)).toEqual([
      null,
      payer.paymentId,
      payer.paymentId,
    ]);
    expect([await m.answer(failedAfter), await m.answer(payer)]).toEqual(['FAILED', 'COMPLETED']);
    expect(m.mismatches).toEqual([]);
  });

  it('a FAILED whose metadata names another order is told that order’s payer, not this one’s', async () => {
    const m = merchant({
      expectedPayment: book({ 'order-1': ORDER, 'order-2': { ...ORDER, orderId: 'order-2' } }),
    });
    const paidOne = paymentOf('order-1');
    expect(await m.deliver(paidOne)).toBe(200);
    const failedTwo = paymentOf('order-2', { paymentStatus: 'FAILED', errorDescription: 'x' });
    expect(await m.deliver(failedTwo)).toBe(200);
    expect(m.record.contexts.at(-1)?.orderPaidBy).toBeNull();
  });
});

describe('without orderId', () => {
  it('behaves as before: two matching payments of one order are both paid', async () => {
    const m = merchant({ expectedPayment: () => ({ amount: 12.5, reference: 'ORDER-1' }) });
    const [a, b] = [paymentOf('order-1'), paymentOf('order-1')];
    expect([await m.deliver(a), await m.deliver(b)]).toEqual([200, 200]);
    expect([await m.answer(a), await m.answer(b)]).toEqual(['COMPLETED', 'COMPLETED']);
    expect(m.record.notifications).toEqual([a, b]);
    expect(m.record.contexts.map((c) => c.orderPaidBy)).toEqual([null, null]);
    expect(m.mismatches).toEqual([]);
  });
});

describe('a store of your own', () => {
  /** A store with the IdempotencyStore methods only (RecordingStore forwards no others). */
  const ownStore = (): IdempotencyStore => new RecordingStore();

  it('without claimOrder: an answer naming the order is answered 500, saying what the store lacks', async () => {
    const m = merchant({ store: ownStore(), expectedPayment: () => ORDER });
    expect(await m.deliver(paymentOf('order-1'))).toBe(500);
    expect(m.record.notifications).toEqual([]);
    expect(m.record.errors.map((e) => (e.error as Error).message)).toEqual([
      expect.stringMatching(
        /^servicepay: expectedPayment named the payment's order \(orderId\), but the idempotency store has no claimOrder and orderPaidBy/,
      ),
    ]);
    // A FAILED that names its order too: its handler must not be told "not paid" unchecked.
    expect(await m.deliver(paymentOf('order-1', { paymentStatus: 'FAILED' }))).toBe(500);
  });

  it('without claimOrder and without orderId: reconciled as before', async () => {
    const m = merchant({ store: ownStore(), expectedPayment: () => ({ amount: 12.5 }) });
    expect(await m.deliver(notification())).toBe(200);
    expect(m.record.notifications).toHaveLength(1);
  });

  it('with one of claimOrder and orderPaidBy: refused when the handler is created', () => {
    const inner = new MemoryIdempotencyStore();
    const half = Object.assign(new RecordingStore(inner), {
      claimOrder: inner.claimOrder.bind(inner),
    });
    expect(() => statusOf({ store: half, onNotification: () => {} })).toThrow(WebhookConfigError);
    expect(() => statusOf({ store: half, onNotification: () => {} })).toThrow(
      /^servicepay: store has one of claimOrder and orderPaidBy but not the other/,
    );
  });
});
