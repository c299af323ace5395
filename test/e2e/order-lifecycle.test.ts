// @vitest-environment node
// However long the bank takes (issue 45), in a real Chromium on `npm start`'s checkout: one
// order is paid once though two tabs pay it, and a confirmation that comes after the result
// page's first minute still turns it to "Payment received" with no click. The sandbox's slow
// decisions (the bank still checking, the shopper who leaves) are test/e2e/bank-decisions. An
// order closes after its window: a payment that still arrives is for a person to check, and
// the shopper is offered a fresh order.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ORDER_WINDOW_MS } from '../../examples/checkout/server.mjs';
import { DEFAULT_RESULT_MESSAGES, NOT_HEARD_AFTER_MS } from '../../src/core/index';
import {
  GATE_RETRY,
  approveAndReturn,
  chooseBank,
  shopPerTest,
  shot,
  startWebhookGate,
  watchFailures,
} from './support';

const R = DEFAULT_RESULT_MESSAGES;

/** How far the shop's clock runs ahead of the real one: an order's window passes at once. */
let ahead = 0;
/** The bank's confirmations (COMPLETED) reach the shop through a gate the test can close. */
const gate = await startWebhookGate(
  () => shop.checkout.webhookUrl,
  (notification) => notification.paymentStatus === 'COMPLETED',
);
afterAll(() => gate.close());
const shop = shopPerTest({
  sandbox: { webhookUrl: gate.url, retry: GATE_RETRY },
  checkout: { now: () => Date.now() + ahead },
});
afterEach(() => {
  ahead = 0;
  gate.open = true;
});

/** The order's window (orders.mjs), and a minute more. */
const PAST_THE_WINDOW = ORDER_WINDOW_MS + 60_000;

/** Pay £12.50 with Barclays from the checkout `page` shows, and approve at the bank. */
async function payAndApprove(page: Page) {
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await chooseBank(page, 'Barclays');
  await approveAndReturn(page);
}

/** The result page's level-1 heading once it shows `heading`, and the page's text. */
async function resultShows(page: Page, heading: string) {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return page.innerText('body');
}

describe('one order, paid once', () => {
  it('two tabs pay the same order: one "Payment received", the other "we need to check", the order paid once and one already-paid in the log', async () => {
    const first = shop.page;
    await first.goto(shop.checkout.url);
    await first.getByRole('button', { name: 'Pay £12.50' }).waitFor();
    const [order] = [...shop.checkout.orders.values()];
    // The second tab opens the order's own address (as a link in an e-mail would).
    const second = await shop.browser.newPage();
    const failures = watchFailures(second);
    try {
      await second.goto(`${shop.checkout.url}?order=${order!.orderId}`);
      await second.getByRole('button', { name: 'Pay £12.50' }).waitFor();
      expect(await second.getByTestId('reference').innerText()).toBe(order!.reference);
      expect(shop.checkout.orders.size).toBe(1);

      await payAndApprove(first);
      const received = await resultShows(first, R.received);
      expect(received).not.toContain(R.needsReview);
      expect(shop.checkout.orders.get(order!.orderId)?.status).toBe('paid');

      await payAndApprove(second);
      const checking = await resultShows(second, R.needsReview);
      expect(checking).not.toContain(R.received);
      expect(checking).toContain(R.needsReviewText);
      await shot(second, 'order-paid-twice-second-tab');

      // The bank took both payments; the shop counted one, and logged the other to refund.
      const payments = [...shop.sandbox.payments.values()];
      expect(payments.map((p) => [p.status, p.metadata])).toEqual([
        ['COMPLETED', { orderId: order!.orderId }],
        ['COMPLETED', { orderId: order!.orderId }],
      ]);
      const [paid, again] = payments;
      expect(shop.checkout.orders.get(order!.orderId)?.status).toBe('paid');
      expect(shop.checkout.reviews).toEqual([
        {
          paymentId: again!.paymentId,
          orderId: order!.orderId,
          reason: 'already-paid',
          paidBy: paid!.paymentId,
        },
      ]);
      // onNotification ran for the payment that paid, never for the second.
      expect([...shop.checkout.payments.keys()]).toEqual([paid!.paymentId]);
      expect([...shop.failures, ...failures]).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

describe('a confirmation after the first minute', () => {
  it('turns the result page to "Payment received" with no click', async () => {
    const { page } = shop;
    // The bank's confirmation held back at the gate until the page has given its first minute
    // (the page's clock runs ahead of the sandbox's).
    gate.open = false;
    await page.clock.install();
    await page.goto(shop.checkout.url);
    await payAndApprove(page);
    await page.getByRole('heading', { name: 'Waiting for your bank to confirm…' }).waitFor();
    await page.clock.runFor(NOT_HEARD_AFTER_MS);
    const confirming = await resultShows(page, 'Your bank is still confirming this payment');
    expect(confirming).toContain('We will email you as soon as your bank confirms the payment.');
    expect(confirming).not.toContain(R.received);
    expect([...shop.checkout.payments.values()]).toEqual([]);
    // The confirmation lands at the shop while the page is between two looks.
    gate.open = true;
    await expect
      .poll(() => [...shop.checkout.payments.values()].map((p) => p.paymentStatus), {
        timeout: 30_000,
      })
      .toEqual(['COMPLETED']);
    // Its next look is at most a minute away; nobody clicks anything. The minute passes at
    // once (fastForward: each look due fires once, its request then answered in real time; a
    // runFor would also run the look's own 10 s request timeout and abort it).
    await page.clock.fastForward(60_000);
    await resultShows(page, R.received);
    expect(shop.failures).toEqual([]);
  });
});

describe('an order that has closed', () => {
  it('a payment approved after the order closed is "we need to check", recorded order-closed', async () => {
    const { page } = shop;
    await page.goto(shop.checkout.url);
    await page.getByRole('button', { name: 'Pay £12.50' }).click();
    await chooseBank(page, 'Barclays');
    // The shopper dawdles at the bank past the order's window; then approves.
    ahead = PAST_THE_WINDOW;
    await approveAndReturn(page);
    const text = await resultShows(page, R.needsReview);
    expect(text).not.toContain(R.received);
    const [order] = [...shop.checkout.orders.values()];
    const [payment] = [...shop.sandbox.payments.values()];
    expect(payment!.status).toBe('COMPLETED');
    expect(order!.status).toBe('needs-review');
    expect(shop.checkout.reviews).toEqual([
      {
        paymentId: payment!.paymentId,
        orderId: order!.orderId,
        reason: 'order-closed',
        paidBy: null,
      },
    ]);
    expect(shop.checkout.payments.size).toBe(0);
    expect(shop.failures).toEqual([]);
  });

  it('the checkout stops offering to pay a closed order, and starts a fresh one', async () => {
    const { page } = shop;
    await page.clock.install();
    await page.goto(shop.checkout.url);
    await page.getByRole('button', { name: 'Pay £12.50' }).waitFor();
    const [closing] = [...shop.checkout.orders.values()];
    // The time it is held until, as the shopper reads it (their own time zone).
    const until = await page.evaluate(
      (iso) => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }),
      closing!.closesAt,
    );
    expect(await page.getByTestId('closes-at').innerText()).toBe(until);
    ahead = PAST_THE_WINDOW;
    await page.clock.runFor(PAST_THE_WINDOW);
    await page.getByRole('heading', { name: 'This order has closed' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay £12.50' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Start a new order' }).click();
    await page.getByRole('button', { name: 'Pay £12.50' }).waitFor();
    expect(await page.getByTestId('reference').innerText()).toBe('ORDER-1043');
    expect(shop.checkout.orders.size).toBe(2);
    expect(shop.failures).toEqual([]);
  });
});
