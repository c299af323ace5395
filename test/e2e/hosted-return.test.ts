// @vitest-environment node
// A bank that drops the return address's query, for a payment begun on servicepay/hosted
// (docs/going-live.md, "When the bank drops the query"), in a real Chromium on the sandbox:
// the example shop's /hosted checkout pays on the sandbox's own script, the bank sends the
// shopper back to /return with the payment's ids, and the test rewrites that redirect to the
// bare /return, as such a bank does, so the page never sees them. It finds the payment through
// the shopper's session on the shop's server, and shows its outcome from the receiver's
// records. The sandbox's webhooks reach the shop through a gate the test opens, so "the
// receiver has not heard yet" is a state the test holds, not a race.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PENDING_NOTICE } from '../../examples/checkout/result';
import {
  DEFAULT_RESULT_MESSAGES,
  NOT_HEARD_AFTER_MS,
  SAVED_PAYMENT_KEY,
} from '../../src/core/index';
import type { SandboxOptions } from '../../src/sandbox/index';
import {
  GATE_RETRY,
  axeViolations,
  bankButton,
  inBothSchemes,
  shopPerTest,
  startWebhookGate,
} from './support';

const R = DEFAULT_RESULT_MESSAGES;

// The sandbox's deliveries pass through a gate (support.ts) that the test closes and opens.
const gate = await startWebhookGate(() => shop.checkout.webhookUrl);
afterAll(() => gate.close());

const sandbox: SandboxOptions = { webhookUrl: gate.url, retry: GATE_RETRY };
const shop = shopPerTest({ sandbox });
beforeEach(() => void (gate.open = true));

/**
 * The sandbox's script is this package's window.Service, which saves the payment's ids in the
 * tab before the bank, as the root <ServicePay> does; the live service's script saves nothing
 * of ours. Taken out as each page of the shop starts, so the return page finds none, as it
 * would live.
 */
const asLive = (page: Page) =>
  page.addInitScript(
    (key) => origin === new URL(document.URL).origin && sessionStorage.removeItem(key),
    SAVED_PAYMENT_KEY,
  );
beforeEach(() => asLive(shop.page));
/** Contexts a test opened, closed after it. */
const contexts: BrowserContext[] = [];
afterEach(() => Promise.all(contexts.splice(0).map((context) => context.close())));

/** A page whose CSP lets the test inject axe (every other test runs under the shop's CSP). */
async function axePage() {
  const context = await shop.browser.newContext({ bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  await asLive(page);
  return page;
}

/**
 * From the hosted checkout (`/hosted`, or `?choose-bank` from Try again, where the banks are
 * open already): a bank, `decision` at the bank, and back at the bare return address. The bank
 * page's answer to the decision, a redirect to `/return?paymentId=…&merchantPaymentId=…`, is
 * passed on with the query taken off its Location, as such a bank sends the shopper back.
 */
async function payAndReturnWithoutQuery(page: Page, decision: 'Approve' | 'Reject') {
  const returnUrl = shop.checkout.returnUrl;
  await page.route(
    (url) => url.origin === new URL(shop.sandbox.url).origin,
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers()['location'];
      if (!location?.startsWith(`${returnUrl}?`)) return route.fulfill({ response });
      await route.fulfill({ response, headers: { ...response.headers(), location: returnUrl } });
    },
  );
  const list = page.getByRole('list', { name: 'Banks', exact: true });
  if (!(await list.isVisible())) {
    await page.getByRole('button', { name: 'Pay £12.50', disabled: false }).click();
  }
  await bankButton(page, 'Barclays').click();
  await page.waitForURL(/\/bank\//);
  await Promise.all([
    page.waitForURL((url) => url.href === returnUrl),
    page.getByRole('button', { name: decision }).click(),
  ]);
  await page.unrouteAll();
}

const order = () => [...shop.checkout.orders.values()][0]!;

describe('servicepay/hosted, back from a bank that drops the query', () => {
  it('shows the outcome of the session’s order from the receiver’s records, the address still naming no payment', async () => {
    const { page } = shop;
    await page.goto(shop.checkout.hostedUrl);
    // The server's answer that names the payment (an earlier one may say it is waiting).
    const asked = page.waitForResponse(
      async (response) =>
        response.url().endsWith('/api/checkout/payment') &&
        (await response.json()).payment !== null,
    );
    await payAndReturnWithoutQuery(page, 'Approve');
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    expect(order().status).toBe('paid');
    // Found through the session: the server named the order's payment, as the receiver heard it.
    expect(await (await asked).json()).toEqual({ payment: order().payments[0], waiting: false });
    // The order the shopper paid, under the outcome; no ids were written into the address.
    expect(await page.innerText('main')).toContain(order().reference);
    expect(page.url()).toBe(shop.checkout.returnUrl);
    expect(shop.failures).toEqual([]);
  });

  it('says it is waiting until the receiver has heard of the payment, then shows it', async () => {
    const page = await axePage();
    gate.open = false;
    await page.goto(shop.checkout.hostedUrl);
    const asked = page.waitForResponse(
      async (response) =>
        response.url().endsWith('/api/checkout/payment') &&
        (await response.text()) === '{"payment":null,"waiting":true}',
    );
    await payAndReturnWithoutQuery(page, 'Approve');
    // The server knows the session's order and its attempt, and not yet the payment.
    await asked;
    await page.getByRole('heading', { level: 1, name: R.waiting }).waitFor();
    expect(await page.getByRole('status').innerText()).toBe(R.waitingText);
    expect(order().status).toBe('open');
    expect(await inBothSchemes(page, () => axeViolations(page))).toEqual({ light: [], dark: [] });
    gate.open = true;
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    expect(order().status).toBe('paid');
  });

  it('stops asking after notHeardAfterMs with the words for not heard, and Check again asks once more', async () => {
    const page = await axePage();
    gate.open = false;
    await page.clock.install();
    await page.goto(shop.checkout.hostedUrl);
    await payAndReturnWithoutQuery(page, 'Approve');
    await page.getByRole('heading', { level: 1, name: R.waiting }).waitFor();
    await page.clock.runFor(NOT_HEARD_AFTER_MS);
    const heading = page.getByRole('heading', { level: 1, name: R.notHeard });
    // A look the page had in flight at that moment is answered in real time, after the clock
    // stopped, and the page's next timer is then ahead of the clock: it moves on in steps until
    // the page has given up (no more time makes it say anything else while the gate is shut).
    await expect
      .poll(async () => (await heading.isVisible()) || void (await page.clock.runFor(10_000)), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(await page.getByRole('status').innerText()).toBe(R.notHeardText);
    // The shop's own words for a shopper who may leave, as <PaymentResult> shows them.
    expect(await page.innerText('main')).toContain(PENDING_NOTICE);
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    // Time flows again for axe, which waits on timers; the page asks nothing more meanwhile.
    await page.clock.resume();
    expect(await inBothSchemes(page, () => axeViolations(page))).toEqual({ light: [], dark: [] });
    // The receiver hears of it meanwhile: Check again's first question finds it.
    gate.open = true;
    await expect.poll(() => order().status).toBe('paid');
    await page.getByRole('button', { name: R.checkAgain }).click();
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
  });

  it('follows the shopper’s latest attempt, not an earlier one that failed', async () => {
    const { page } = shop;
    await page.goto(shop.checkout.hostedUrl);
    await payAndReturnWithoutQuery(page, 'Reject');
    await page.getByRole('heading', { level: 1, name: R.notCompleted }).waitFor();
    // Try again: back to the hosted checkout, the banks open, the same order.
    await Promise.all([
      page.waitForURL(`${shop.checkout.hostedUrl}?choose-bank`),
      page.getByRole('button', { name: R.tryAgain }).click(),
    ]);
    await page.getByRole('list', { name: 'Banks', exact: true }).waitFor();
    // The second payment's COMPLETED is held: the first one's FAILED is all the receiver has.
    gate.open = false;
    await payAndReturnWithoutQuery(page, 'Approve');
    await page.getByRole('heading', { level: 1, name: R.waiting }).waitFor();
    expect(await page.innerText('main')).not.toContain(R.notCompleted);
    gate.open = true;
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    expect(shop.checkout.orders.size).toBe(1);
    expect(order()).toMatchObject({
      status: 'paid',
      attempts: [expect.any(String), expect.any(String)],
    });
  });

  it('tells a shopper with no order in their session that it cannot find the payment, and answers only the session’s own', async () => {
    const { page, browser } = shop;
    await page.goto(shop.checkout.hostedUrl);
    await payAndReturnWithoutQuery(page, 'Approve');
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    const [cookie] = await page.context().cookies(shop.checkout.url);
    // Only a random id, out of scripts' reach, sent cross-site on top-level navigations only.
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie!.value).not.toContain(order().orderId);

    const ask = (headers: Record<string, string> = {}) =>
      fetch(`${shop.checkout.url}api/checkout/payment`, { headers });
    const own = await ask({ cookie: `${cookie!.name}=${cookie!.value}` });
    const [payment] = order().payments;
    expect(await own.json()).toEqual({ payment, waiting: false });
    const strangers: Record<string, string>[] = [
      {},
      { cookie: `${cookie!.name}=${'A'.repeat(43)}` },
    ];
    for (const headers of strangers) {
      expect(await (await ask(headers)).json()).toEqual({ payment: null, waiting: false });
    }

    // Another browser, no session: the result page's own "we can't find your payment".
    const context = await browser.newContext();
    try {
      const other = await context.newPage();
      await other.goto(shop.checkout.returnUrl);
      await other.getByRole('heading', { level: 1, name: R.notFound }).waitFor();
    } finally {
      await context.close();
    }
  });
});
