// @vitest-environment node
// End to end in a real headless Chromium: the example checkout, the local sandbox of the
// service, and the example's webhook receiver and payment status endpoint, all on 127.0.0.1.
// The result page is the library's <PaymentResult>, listening to the status endpoint.
import { createServer, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCheckout } from '../../examples/checkout/server.mjs';
import { NOT_HEARD_AFTER_MS, STOP_LISTENING_AFTER_MS } from '../../src/core/index';
import {
  BANK_ERROR_DESCRIPTION,
  REJECTED_DESCRIPTION,
  startSandbox,
} from '../../src/sandbox/index';
import { createWebhookHandler } from '../../src/webhook/index';
import { launchChromium } from '../helpers/browser';
import {
  FAST_RETRY,
  SCHEMES,
  axeViolations,
  bankButton,
  chooseBank,
  inBothSchemes,
  prepareScreenshots,
  shot,
  startCheckoutWithSandbox,
} from './support';
import type { Checkout, Sandbox, Scheme } from './support';
import { freePort, listenOnFreePort } from '../helpers/free-port';
import { sandboxKeyFile } from '../helpers/sandbox-key';

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function payAtBank(page: Page, checkout: Checkout, bank = 'Barclays') {
  await page.goto(checkout.url);
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await chooseBank(page, bank);
}

/** Words for developers that a shopper must never read on the result page. */
const DEVELOPER_WORDS =
  /webhook|servicepay|payment ?id|errorDescription|rejected by the user|reported an error|[0-9a-f]{8}-[0-9a-f]{4}-/i;
/** The service's status names, in capitals ("Payment not completed" is fine). */
const STATUS_NAMES = /\b(?:COMPLETED|FAILED|PENDING)\b/;

function expectShopperWordsOnly(text: string) {
  expect(text).not.toMatch(DEVELOPER_WORDS);
  expect(text).not.toMatch(STATUS_NAMES);
}

/** The result page's heading, and the visible text of the page. */
async function resultPage(page: Page) {
  const heading = page.getByRole('heading', { level: 1 });
  return { heading: (await heading.textContent())?.trim(), text: await page.innerText('body') };
}

/** Waits for the result page's final heading (the verified webhook has arrived). */
async function waitForResult(page: Page, heading: string) {
  // The return page, its address naming the payment (docs/after-the-bank.md).
  await page.waitForURL(/\/return(?:[?#]|$)/);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

/** What the page asked the status endpoint: an event stream, or a poll (fetch), and its query. */
interface StatusAsk {
  type: string;
  accept: string | undefined;
  query: URLSearchParams;
}

/** Records every request of `page` to the example's status endpoint. */
function watchStatusAsks(page: Page): StatusAsk[] {
  const asks: StatusAsk[] = [];
  page.on('request', (r: Request) => {
    const url = new URL(r.url());
    if (url.pathname !== '/api/payments/status') return;
    asks.push({ type: r.resourceType(), accept: r.headers().accept, query: url.searchParams });
  });
  return asks;
}

/** Only event streams, each asking with Accept: text/event-stream; no poll was needed. */
function expectStreamsOnly(asks: StatusAsk[]) {
  expect(asks.length).toBeGreaterThan(0);
  expect(asks.map(({ type, accept }) => ({ type, accept }))).toEqual(
    asks.map(() => ({ type: 'eventsource', accept: 'text/event-stream' })),
  );
}

describe('the example checkout against the sandbox', () => {
  let checkout: Checkout;
  let sandbox: Sandbox;
  let stop: () => Promise<void>;
  let page: Page;

  beforeEach(async () => {
    ({ checkout, sandbox, stop } = await startCheckoutWithSandbox());
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page?.close();
    await stop?.();
  });

  it('approves a payment: "Payment received" from the event stream once the verified webhook is in, processed once', async () => {
    const asks = watchStatusAsks(page);
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
    page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
    // allHeaders(): headers() leaves out the Sec-Fetch-* ones.
    const decisions: Promise<Record<string, string>>[] = [];
    page.on('request', (r) => r.url().endsWith('/decision') && decisions.push(r.allHeaders()));
    const bundle = page.waitForResponse((r) => r.url().endsWith('/app.js'));
    await page.goto(checkout.url);
    // The bundle comes compressed (brotli, as Chromium accepts it).
    expect((await bundle).headers()['content-encoding']).toBe('br');
    await page.getByRole('button', { name: 'Pay £12.50' }).waitFor();
    await shot(page, '1-checkout');
    await page.getByRole('button', { name: 'Pay £12.50' }).click();
    await bankButton(page, 'Barclays').waitFor();
    await shot(page, '2-bank-list');
    await chooseBank(page, 'Barclays');
    // The payee is the shop the shopper was on.
    expect(await page.locator('.lead').innerText()).toBe(
      'Pay £12.50 to Example Coffee Co. from your Barclays account.',
    );
    await expect.poll(() => page.getByText('ORDER-1042').count()).toBeGreaterThan(0);
    await shot(page, '3-bank-page');
    await page.getByRole('button', { name: 'Approve' }).click();
    await waitForResult(page, 'Payment received');
    await shot(page, '4-result-received');

    const { heading, text } = await resultPage(page);
    expect(heading).toBe('Payment received');
    expect(text).toContain('Your payment to Example Coffee Co. has gone through');
    expect(text).toMatch(/Item\s+Single-origin coffee beans, 1\s?kg/);
    expect(text).toMatch(/Amount\s+£12\.50/);
    expect(text).toMatch(/Reference\s+ORDER-1042/);
    expectShopperWordsOnly(text);
    // Announced: focus moved to the new heading.
    expect(await focusedText(page)).toBe('Payment received');
    expect(await page.title()).toBe('Payment received – Example Coffee Co.');

    const stored = [...checkout.payments.values()];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      paymentStatus: 'COMPLETED',
      amount: 12.5,
      reference: 'ORDER-1042',
      errorDescription: null,
      timesProcessed: 1,
    });
    // The order the server made is paid, and the payment named it by its id.
    const [order] = [...checkout.orders.values()];
    expect(order).toMatchObject({ amount: 12.5, reference: 'ORDER-1042', status: 'paid' });
    expect(sandbox.payments.get(stored[0]!.paymentId)?.metadata).toEqual({
      orderId: order!.orderId,
    });
    // The address still names the payment, so a reload or a bookmark finds it again.
    expect(new URL(page.url()).searchParams.get('paymentId')).toBe(stored[0]!.paymentId);
    // The result came from the status endpoint's event stream (EventSource), for this payment.
    expectStreamsOnly(asks);
    expect(asks[0]!.query.get('paymentId')).toBe(stored[0]!.paymentId);
    expect(asks[0]!.query.get('merchantPaymentId')).toBe(stored[0]!.merchantPaymentId);
    // The bank page's own form: same origin, and its Origin sent (not "null").
    expect(decisions).toHaveLength(1);
    expect(await decisions[0]).toMatchObject({
      origin: sandbox.url,
      'sec-fetch-site': 'same-origin',
    });
    expect(failures).toEqual([]);
  });

  it.each([
    ['Reject', REJECTED_DESCRIPTION],
    ['Bank error', BANK_ERROR_DESCRIPTION],
  ])(
    '%s: "Payment not completed", and Try again returns to the bank choice to pay with another bank',
    async (decision, errorDescription) => {
      await payAtBank(page, checkout, 'Monzo');
      await page.getByRole('button', { name: decision }).click();
      await waitForResult(page, 'Payment not completed');
      const { text } = await resultPage(page);
      expect(text).toContain('Your bank did not complete the payment, so no money has been taken.');
      expect(text).toMatch(/Reference\s+ORDER-1042/);
      expectShopperWordsOnly(text);
      expect(await focusedText(page)).toBe('Payment not completed');
      expect([...checkout.payments.values()]).toMatchObject([
        { paymentStatus: 'FAILED', errorDescription, timesProcessed: 1 },
      ]);
      if (decision === 'Reject') await shot(page, '5-result-not-completed');

      // The library's action is a button; the shop wired it back to the bank step.
      await page.getByRole('button', { name: 'Try again' }).click();
      // Back at the checkout with the banks open, the same order ready (the server's, open).
      await bankButton(page, 'Barclays').waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.getByTestId('reference').textContent()).toBe('ORDER-1042');
      await chooseBank(page, 'Barclays');
      await page.getByRole('button', { name: 'Approve' }).click();
      await waitForResult(page, 'Payment received');
      expect(sandbox.payments.size).toBe(2);
      expect([...checkout.orders.values()]).toMatchObject([
        { reference: 'ORDER-1042', status: 'paid' },
      ]);
    },
  );

  it('shows a validation error and creates no payment', async () => {
    // The example's one way to an invalid payment: the order's reference from the address,
    // stored by the server as given and shown read-only.
    await page.goto(`${checkout.url}?reference=ABCDEFGHIJKLMNOPQRS`);
    expect(await page.getByTestId('reference').textContent()).toBe('ABCDEFGHIJKLMNOPQRS');
    expect([...checkout.orders.values()]).toMatchObject([
      { reference: 'ABCDEFGHIJKLMNOPQRS', status: 'open' },
    ]);
    const message =
      'payWithBankInstitution: Input validation error: field=[paymentRequest.reference], value=[ABCDEFGHIJKLMNOPQRS], error=[must not be longer than 18 characters]';
    await expect.poll(() => page.getByTestId('errors').textContent()).toContain(message);
    // The developer's text is in the example's closed developer panel, not on the shop's page.
    expect(await page.getByTestId('errors').isVisible()).toBe(false);
    expect(await page.locator('main').innerText()).not.toContain('Input validation error');
    const panel = page.locator('details.developer > summary');
    expect(await panel.innerText()).toMatch(/^Developer panel: \d+ events?, 1 error$/);
    await panel.click();
    expect(await page.getByTestId('errors').isVisible()).toBe(true);
    await panel.click();
    // No dead button: Pay is disabled (no amount) and says why, in the shopper's words.
    await expect
      .poll(() => page.getByRole('button', { name: 'Pay', exact: true }).isDisabled())
      .toBe(true);
    await shot(page, '6-validation-error');
    expect(await page.getByRole('button', { name: 'Barclays' }).count()).toBe(0);
    expect(sandbox.payments.size).toBe(0);
  });

  it('turns live: a result page already waiting shows "Payment received" the moment the webhook is recorded', async () => {
    await payAtBank(page, checkout);
    const payment = [...sandbox.payments.values()][0]!;
    // Another tab on the result page for this payment before the bank has answered: waiting,
    // on an open event stream.
    const waiting = await browser.newPage();
    try {
      const asks = watchStatusAsks(waiting);
      await waiting.goto(
        `${checkout.returnUrl}?paymentId=${payment.paymentId}&merchantPaymentId=${payment.merchantPaymentId}`,
      );
      await waiting.getByRole('heading', { name: 'Waiting for your bank to confirm…' }).waitFor();
      await expect.poll(() => asks.length).toBe(1);
      expect(checkout.payments.size).toBe(0);

      await page.getByRole('button', { name: 'Approve' }).click();
      // No reload and no poll: the stream carried the recorded outcome.
      await waiting.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
      expect(await focusedText(waiting)).toBe('Payment received');
      expectStreamsOnly(asks);
      expect(asks).toHaveLength(1);
      expect(checkout.payments.size).toBe(1);
    } finally {
      await waiting.close();
    }
  });

  it('finds the payment when the shopper comes back with no query string (the ids saved in the tab)', async () => {
    await payAtBank(page, checkout);
    await page.getByRole('button', { name: 'Approve' }).click();
    await waitForResult(page, 'Payment received');
    const paymentId = [...checkout.payments.keys()][0]!;

    // As some bank apps return: the callback address, nothing appended.
    const asks = watchStatusAsks(page);
    await page.goto(checkout.returnUrl);
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
    // Found in the tab, then written into the address: a bookmark of it finds the payment.
    expect(new URL(page.url()).searchParams.get('paymentId')).toBe(paymentId);
    const { text } = await resultPage(page);
    expect(text).toMatch(/Reference\s+ORDER-1042/);
    expectShopperWordsOnly(text);
    expectStreamsOnly(asks);
    expect(asks[0]!.query.get('paymentId')).toBe(paymentId);
  });

  it('waits with words that explain, says the bank is still confirming after a minute, stops at the horizon with advice; Check again resumes', async () => {
    const asks = watchStatusAsks(page);
    await page.clock.install();
    // A payment whose confirmation never arrives.
    await page.goto(
      `${checkout.returnUrl}?paymentId=5e4d8a52-0000-4000-8000-000000000000&merchantPaymentId=5e4d8a52-0000-4000-8000-0000000000ff`,
    );
    await page.getByRole('heading', { name: 'Waiting for your bank to confirm…' }).waitFor();
    expect((await resultPage(page)).text).toContain('Please keep this page open.');
    await shot(page, '7-result-waiting');
    await expect.poll(() => asks.length).toBeGreaterThan(0);

    expectStreamsOnly(asks);

    // A minute in: still confirming, the shopper may close the page, and it polls from here.
    await page.clock.runFor(NOT_HEARD_AFTER_MS);
    await page
      .getByRole('heading', { name: 'Your bank is still confirming this payment' })
      .waitFor();
    expect((await resultPage(page)).text).toContain('You can close this page');
    expectShopperWordsOnly((await resultPage(page)).text);
    expect(await focusedText(page)).toBe('Your bank is still confirming this payment');
    await expect.poll(() => asks.filter(({ type }) => type !== 'eventsource').length).toBe(1);
    await shot(page, '8-result-still-confirming');

    // The horizon: it stops asking and gives advice.
    await page.clock.runFor(STOP_LISTENING_AFTER_MS);
    await page.getByRole('heading', { name: 'We haven’t heard from your bank yet' }).waitFor();
    const { text } = await resultPage(page);
    expect(text).toContain('Check your banking app.');
    expectShopperWordsOnly(text);
    expect(await focusedText(page)).toBe('We haven’t heard from your bank yet');
    await shot(page, '8-result-unconfirmed');
    // It has stopped asking: nothing streams, nothing polls.
    const count = asks.length;
    await page.clock.runFor(5 * 60_000);
    expect(asks.length).toBe(count);

    // "Check again" asks again, on a new stream, and the answer still counts.
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('heading', { name: 'Waiting for your bank to confirm…' }).waitFor();
    await expect.poll(() => asks.length).toBeGreaterThan(count);
    expectStreamsOnly(asks.slice(count));
    await checkout.store.recordOutcome(
      {
        paymentId: '5e4d8a52-0000-4000-8000-000000000000',
        merchantPaymentId: '5e4d8a52-0000-4000-8000-0000000000ff',
        status: 'COMPLETED',
        recordedAt: new Date().toISOString(),
      },
      60_000,
    );
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
  });

  it('refuses a cross-site text/plain form that tries to approve the payment', async () => {
    const { paymentId } = await (async () => {
      await payAtBank(page, checkout);
      return { paymentId: [...sandbox.payments.keys()][0]! };
    })();
    // A page elsewhere (another site: "localhost" is not "127.0.0.1") that posts on load.
    const action = `${sandbox.url.replace('127.0.0.1', 'localhost')}/bank/${paymentId}/decision`;
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><form method="post" enctype="text/plain" action="${action}">
<input name="decision" value="approve&amp;x="></form><script>document.forms[0].submit()</script>`);
    });
    const port = await listenOnFreePort(attacker);
    try {
      const answer = page.waitForResponse((r) => r.url() === action);
      await page.goto(`http://127.0.0.1:${port}/`);
      expect((await answer).status()).toBe(403);
      expect(sandbox.payments.get(paymentId)!.status).toBe('PENDING');
      expect(checkout.payments.size).toBe(0);
    } finally {
      await new Promise((resolve) => attacker.close(resolve));
    }
  });
});

describe('accessibility in a real browser', () => {
  it('has no axe violations, colour contrast included, on the checkout and the bank page', async () => {
    const { checkout, stop } = await startCheckoutWithSandbox();
    // axe is injected by the test, so this context lets it past the pages' strict CSP.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const violations = () => axeViolations(page);
    try {
      await page.goto(checkout.url);
      await page.getByRole('button', { name: 'Pay £12.50' }).waitFor();
      expect(await violations()).toEqual([]);
      await page.getByRole('button', { name: 'Pay £12.50' }).click();
      await bankButton(page, 'Barclays').waitFor();
      expect(await violations()).toEqual([]);
      await chooseBank(page, 'Barclays');
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
      await stop();
    }
  });

  it('has none on every result page, light and dark, at 1280 and 390 px', async () => {
    const { checkout, stop } = await startCheckoutWithSandbox();
    // The outcomes as the receiver records them, so each state is one page load away.
    const merchantPaymentId = '5e4d8a52-0000-4000-8000-0000000000ff';
    const record = (paymentId: string, status: 'COMPLETED' | 'FAILED') =>
      checkout.store.recordOutcome(
        { paymentId, merchantPaymentId, status, recordedAt: new Date().toISOString() },
        60 * 60_000,
      );
    const received = '5e4d8a52-0000-4000-8000-00000000000a';
    const failed = '5e4d8a52-0000-4000-8000-00000000000b';
    record(received, 'COMPLETED');
    record(failed, 'FAILED');
    const pending = '5e4d8a52-0000-4000-8000-00000000000c';
    try {
      for (const width of [1280, 390]) {
        const context = await browser.newContext({
          bypassCSP: true,
          viewport: { width, height: 800 },
        });
        const page = await context.newPage();
        await page.clock.install();
        // The order summary shows for a tab that sent the shopper to the bank.
        await page.addInitScript(() =>
          sessionStorage.setItem(
            'example-coffee:order',
            JSON.stringify({
              orderId: '5e4d8a52-0000-4000-8000-0000000000dd',
              item: 'Single-origin coffee beans, 1\u00a0kg',
              amount: 12.5,
              currency: 'GBP',
              reference: 'ORDER-1042',
            }),
          ),
        );
        const found = { light: {}, dark: {} } as Record<Scheme, Record<string, string[]>>;
        const rings = { light: [] as string[], dark: [] as string[] };
        // Each state loaded once, checked in light, then switched to dark.
        const check = (name: string, ring = false) =>
          inBothSchemes(page, async (colorScheme) => {
            found[colorScheme][name] = await axeViolations(page);
            // The heading has focus, to be read out, with no ring drawn for this shopper, who
            // has not touched the page yet.
            if (ring) {
              rings[colorScheme].push(
                await page.evaluate(() => {
                  const focused = document.activeElement!;
                  return `${focused.tagName} ${getComputedStyle(focused).outlineStyle}`;
                }),
              );
            }
          });
        for (const [id, heading] of [
          [received, 'Payment received'],
          [failed, 'Payment not completed'],
          [pending, 'Waiting for your bank to confirm…'],
        ] as const) {
          await page.goto(
            `${checkout.returnUrl}?paymentId=${id}&merchantPaymentId=${merchantPaymentId}`,
          );
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await check(heading, true);
        }
        await page.clock.runFor(NOT_HEARD_AFTER_MS);
        await page
          .getByRole('heading', { name: 'Your bank is still confirming this payment' })
          .waitFor();
        await check('still confirming');
        await page.clock.runFor(STOP_LISTENING_AFTER_MS);
        await page.getByRole('heading', { name: 'We haven’t heard from your bank yet' }).waitFor();
        await check('not heard');
        // A tab that keeps no payment (this one kept the last address's, for a reload).
        await page.evaluate(() => sessionStorage.clear());
        await page.goto(checkout.returnUrl);
        await page.getByRole('heading', { name: 'We can’t find your payment' }).waitFor();
        await check('not found');
        for (const colorScheme of SCHEMES) {
          expect(found[colorScheme], `${colorScheme} ${width}px`).toEqual({
            'Payment received': [],
            'Payment not completed': [],
            'Waiting for your bank to confirm…': [],
            'still confirming': [],
            'not heard': [],
            'not found': [],
          });
          // (Waiting is the first state shown: nothing moved focus yet.)
          expect(rings[colorScheme]).toEqual(['H1 none', 'H1 none', 'BODY none']);
        }
        await context.close();
      }
    } finally {
      await stop();
    }
  });
});

describe('the example server', () => {
  it('serves the assets compressed by what the client accepts, with Vary: Accept-Encoding', async () => {
    const checkout = await startCheckout({ port: 0 });
    try {
      const get = (acceptEncoding: string) =>
        new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
          request(
            `${checkout.url}app.js`,
            { headers: { 'Accept-Encoding': acceptEncoding } },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          )
            .on('error', reject)
            .end();
        });
      const plain = await get('identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      const br = await get('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      // About a quarter of the bundle's size goes over the wire.
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      const gzip = await get('gzip;q=0.8, br;q=0');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      expect((await get('br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
      const css = await get('br');
      expect(css.headers['content-encoding']).toBe('br');
    } finally {
      await checkout.stop();
    }
  });

  it('answers 400 to a payment id outside the component’s rule at the status endpoint and keeps serving', async () => {
    const checkout = await startCheckout({ port: 0 });
    const ask = (query: string, accept = 'application/json') =>
      fetch(`${checkout.statusUrl}?${query}`, { headers: { accept } });
    const good = 'merchantPaymentId=5e4d8a52-0000-4000-8000-0000000000ff';
    try {
      // A control character, 201 characters, a blank id, a missing id (core/protocol.ts's rule,
      // which createPayment applies too): 400, as JSON and as a stream.
      for (const query of [
        `paymentId=a%00b&${good}`,
        `paymentId=${'a'.repeat(201)}&${good}`,
        `paymentId=%20&${good}`,
        good,
      ]) {
        for (const accept of ['application/json', 'text/event-stream']) {
          const bad = await ask(query, accept);
          expect(bad.status, `${query} ${accept}`).toBe(400);
          expect(await bad.text()).toContain('give paymentId and merchantPaymentId');
        }
      }
      expect((await fetch(checkout.statusUrl, { method: 'POST' })).status).toBe(405);
      // Still serving: a well-formed question gets the pending answer, and the shop its page.
      const next = await ask(`paymentId=5e4d8a52-0000-4000-8000-000000000000&${good}`);
      expect(next.status).toBe(200);
      expect(await next.text()).toBe('{"status":"PENDING"}');
      expect((await fetch(checkout.url)).status).toBe(200);
    } finally {
      await checkout.stop();
    }
  });
});

describe('a receiver that is down at first', () => {
  it('gets the notification once it is up: nothing is lost, processed once', async () => {
    const checkout = await startCheckout({ port: 0 });
    const port = await freePort();
    const sandbox = await startSandbox({
      port: 0,
      webhookUrl: `http://127.0.0.1:${port}/webhooks`,
      webCallbackUrl: checkout.returnUrl,
      mobileCallbackUrl: checkout.returnUrl,
      retry: FAST_RETRY,
      keyFile: sandboxKeyFile,
    });
    checkout.useSandbox(sandbox);
    const page = await browser.newPage();
    const received: string[] = [];
    let receiver: ReturnType<typeof createServer> | undefined;
    try {
      await payAtBank(page, checkout);
      await page.getByRole('button', { name: 'Approve' }).click();
      // The return page, its address naming the payment (docs/after-the-bank.md).
      await page.waitForURL(/\/return(?:[?#]|$)/);
      // No verified webhook reaches the shop: its page waits, and says so.
      await page.getByRole('heading', { name: 'Waiting for your bank to confirm…' }).waitFor();
      // The service keeps trying while the receiver is down.
      await expect.poll(() => sandbox.deliveries.length).toBeGreaterThanOrEqual(2);
      expect(received).toEqual([]);

      const handler = createWebhookHandler({
        publicKey: sandbox.publicKey,
        expectedPayment: 'unreconciled',
        onNotification: (n) => void received.push(`${n.paymentId}:${n.paymentStatus}`),
      });
      receiver = createServer((req, res) => void handler(req, res)).listen(port, '127.0.0.1');
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      // The payment, from the sandbox's own record.
      const paymentId = [...sandbox.payments.keys()][0];
      expect(received).toEqual([`${paymentId}:COMPLETED`]);
      const attempts = () => sandbox.deliveries.filter((d) => d.paymentId === paymentId);
      // onNotification runs before the receiver answers: the 200 is recorded a moment later.
      await expect.poll(() => attempts().at(-1)?.status).toBe(200);
      expect(
        attempts()
          .slice(0, -1)
          .every((d) => d.status !== 200),
      ).toBe(true);
    } finally {
      await page.close();
      await sandbox.stop();
      await checkout.stop();
      await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    }
  });
});
