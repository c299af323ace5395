// @vitest-environment node
// The money matches the order, proven in a real Chromium on `npm start`'s checkouts (React and
// the plain page): the payment is made in the shopper's browser, so a shopper with developer
// tools can change its amount, reference or metadata on the way to the service. Here the POST
// to the sandbox's payments endpoint is rewritten in flight, the bank approves the changed
// payment, and the shop neither says "Payment received" nor marks the order paid: its receiver
// compares the payment with the order its server made (expectedPayment).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REVIEW_CONTACT } from '../../examples/checkout/result';
import { DEFAULT_RESULT_MESSAGES } from '../../src/core/index';
import type { PaymentInitiation } from '../../src/core/transport';
import { approveAndReturn, chooseBank, shopPerTest, shot, tamperWithPayments } from './support';
import type { Checkout } from './support';

const R = DEFAULT_RESULT_MESSAGES;

const shop = shopPerTest();

/** The two checkouts `npm start` serves: the React one (with the handoff) and the plain page. */
const CHECKOUTS = [
  { name: 'the React checkout', address: (c: Checkout) => c.url, handoff: true },
  { name: 'the plain page', address: (c: Checkout) => c.scriptTagUrl, handoff: false },
] as const;

/** The only order the shop made, as it keeps it. */
function onlyOrder() {
  const orders = [...shop.checkout.orders.values()];
  expect(orders).toHaveLength(1);
  return orders[0]!;
}

/** The result page's level-1 heading once the outcome is final, and the page's text. */
async function finalResult(target: Page, heading: string) {
  await target.getByRole('heading', { level: 1, name: heading }).waitFor();
  return target.innerText('body');
}

/** How each change reaches the service; `lead` is what the bank page then asks to pay. */
const CHANGES: [string, (payment: PaymentInitiation) => void, string][] = [
  [
    'to another amount (£0.01 for the £12.50 order)',
    (payment) => void (payment.paymentRequest.amount = 0.01),
    'Pay £0.01 to Example Coffee Co. from your Barclays account.',
  ],
  [
    'to another reference (the order’s before)',
    (payment) => void (payment.paymentRequest.reference = 'ORDER-1041'),
    'Pay £12.50 to Example Coffee Co. from your Barclays account.',
  ],
];

describe.each(CHECKOUTS)('$name', ({ name, address, handoff }) => {
  /** Pay, Barclays, and the sandbox's bank page (where the payment already exists). */
  async function toTheBank() {
    await shop.page.goto(address(shop.checkout));
    await shop.page.getByRole('button', { name: 'Pay £12.50' }).click();
    await chooseBank(shop.page, 'Barclays', { handoff });
  }

  it.each(CHANGES)(
    'a payment changed in flight %s and approved: "needs checking", the order not paid',
    async (what, change, lead) => {
      await tamperWithPayments(shop.page, shop.sandbox, change);
      await toTheBank();
      // The change reached the service: the bank asks the shopper for the changed payment.
      expect(await shop.page.locator('.lead').innerText()).toBe(lead);
      await approveAndReturn(shop.page);
      const text = await finalResult(shop.page, R.needsReview);
      expect(text).not.toContain(R.received);
      // The shopper is told the shop will check it, and how to reach the shop.
      expect(text).toContain(R.needsReviewText);
      expect(text).toContain(REVIEW_CONTACT);
      expect(await shop.page.title()).toBe(`${R.needsReview} – Example Coffee Co.`);
      const order = onlyOrder();
      expect(order).toMatchObject({ amount: 12.5, reference: 'ORDER-1042' });
      expect(order.status).toBe('needs-review');
      // The bank did pay: the sandbox holds the changed payment, approved.
      expect([...shop.sandbox.payments.values()]).toMatchObject([
        { status: 'COMPLETED', metadata: { orderId: order.orderId } },
      ]);
      if (handoff) await shot(shop.page, `order-match-needs-review-${what.split(' ')[2]}`);
      else {
        // The plain return page (window.ServiceResult) says the same, found from the tab.
        await shop.page.goto(shop.checkout.scriptTagReturnUrl);
        const plain = await finalResult(shop.page, R.needsReview);
        expect(plain).not.toContain(R.received);
        expect(plain).toContain(REVIEW_CONTACT);
      }
      expect(shop.failures).toEqual([]);
    },
  );

  it('an unchanged payment still reaches "Payment received", and the order is paid', async () => {
    await toTheBank();
    await approveAndReturn(shop.page);
    await finalResult(shop.page, R.received);
    expect(onlyOrder().status).toBe('paid');
    if (!handoff) {
      await shop.page.goto(shop.checkout.scriptTagReturnUrl);
      await finalResult(shop.page, R.received);
    }
    expect(shop.failures, name).toEqual([]);
  });
});

describe('the order a payment names', () => {
  it('pointed at another open order, with less money: neither order is paid', async () => {
    // Another tab's order (ORDER-1043), the target of the forged metadata.
    await shop.page.goto(shop.checkout.url);
    await shop.page.getByRole('button', { name: 'Pay £12.50' }).waitFor();
    const other = await shop.page.evaluate(async () => {
      const response = await fetch('/api/orders', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      return (await response.json()) as { orderId: string; reference: string };
    });
    expect(other.reference).toBe('ORDER-1043');
    await tamperWithPayments(shop.page, shop.sandbox, (payment) => {
      payment.paymentMetadata = { orderId: other.orderId };
      payment.paymentRequest.reference = other.reference;
      payment.paymentRequest.amount = 0.01;
    });
    await shop.page.getByRole('button', { name: 'Pay £12.50' }).click();
    await chooseBank(shop.page, 'Barclays');
    await approveAndReturn(shop.page);
    expect(await finalResult(shop.page, R.needsReview)).not.toContain(R.received);
    const statuses = Object.fromEntries(
      [...shop.checkout.orders.values()].map((o) => [o.reference, o.status]),
    );
    expect(statuses).toEqual({ 'ORDER-1042': 'open', 'ORDER-1043': 'needs-review' });
  });

  it('naming no order of the shop: "needs checking", nothing paid', async () => {
    await tamperWithPayments(
      shop.page,
      shop.sandbox,
      (payment) => void delete payment.paymentMetadata,
    );
    await shop.page.goto(shop.checkout.url);
    await shop.page.getByRole('button', { name: 'Pay £12.50' }).click();
    await chooseBank(shop.page, 'Barclays');
    await approveAndReturn(shop.page);
    expect(await finalResult(shop.page, R.needsReview)).not.toContain(R.received);
    expect(onlyOrder().status).toBe('open');
  });
});

describe('POST /api/orders', () => {
  const post = (body: string, type = 'application/json') =>
    fetch(`${shop.checkout.url}api/orders`, {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
    });

  it('makes the order on the server: its amount always, a reference only as the example’s invalid-payment switch', async () => {
    const first = await post('{"amount":0.01}');
    expect(first.status).toBe(201);
    const order = (await first.json()) as { orderId: string };
    expect(order).toEqual({
      orderId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4/),
      item: 'Single-origin coffee beans, 1\u00a0kg',
      amount: 12.5,
      currency: 'GBP',
      reference: 'ORDER-1042',
      // Held for 15 minutes (orders.mjs), the time shown on the order.
      closesAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    // The tab's open order again (a reload, Try again); a new one for an unknown id.
    const again = await post(JSON.stringify({ orderId: order.orderId }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(order);
    expect((await post('{"orderId":"nope"}')).status).toBe(201);
    // The reference as given, too long included: the component is what refuses it.
    const long = await post('{"reference":"ABCDEFGHIJKLMNOPQRS"}');
    expect(await long.json()).toMatchObject({ amount: 12.5, reference: 'ABCDEFGHIJKLMNOPQRS' });
    expect(shop.checkout.orders.size).toBe(3);
  });

  it('reads only a small JSON object, POSTed', async () => {
    expect((await fetch(`${shop.checkout.url}api/orders`)).status).toBe(405);
    expect((await post('{}', 'text/plain')).status).toBe(415);
    expect((await post('[1]')).status).toBe(400);
    expect((await post('{')).status).toBe(400);
    expect((await post(JSON.stringify({ reference: 'x'.repeat(2000) }))).status).toBe(413);
    expect(shop.checkout.orders.size).toBe(0);
  });
});
