// @vitest-environment node
// End to end in a real headless Chromium: the example checkout, the local sandbox of the
// service, and the example's webhook receiver, all on 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCheckout } from '../../examples/checkout/server.mjs';
import { startSandbox } from '../../src/sandbox/index';
import { createWebhookHandler } from '../../src/webhook/index';
import { launchChromium } from '../helpers/browser';
import {
  FAST_RETRY,
  axeViolations,
  prepareScreenshots,
  shot,
  startCheckoutWithSandbox,
} from './support';
import type { Checkout, Sandbox } from './support';

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** A port that nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function payAtBank(page: Page, checkout: Checkout, bank = 'Barclays') {
  await page.goto(checkout.url);
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await page.getByRole('button', { name: bank }).click();
  await page.waitForURL(/\/bank\//);
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

  it('approves a payment: COMPLETED, confirmed by a verified webhook processed once', async () => {
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
    page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
    await page.goto(checkout.url);
    await page.getByRole('button', { name: 'Pay £12.50' }).waitFor();
    await shot(page, '1-checkout');
    await page.getByRole('button', { name: 'Pay £12.50' }).click();
    await page.getByRole('button', { name: 'Barclays' }).waitFor();
    await shot(page, '2-bank-list');
    await page.getByRole('button', { name: 'Barclays' }).click();
    await page.waitForURL(/\/bank\//);
    await expect.poll(() => page.getByText('£12.50').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('ORDER-1042').count()).toBeGreaterThan(0);
    await shot(page, '3-bank-page');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/\/return\?/);
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('COMPLETED');
    await shot(page, '4-result-completed');

    const stored = [...checkout.payments.values()];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      paymentStatus: 'COMPLETED',
      amount: 12.5,
      reference: 'ORDER-1042',
      errorDescription: null,
      timesProcessed: 1,
    });
    expect(new URL(page.url()).searchParams.get('paymentId')).toBe(stored[0]!.paymentId);
    expect(failures).toEqual([]);
  });

  it('rejects a payment: FAILED with the errorDescription', async () => {
    await payAtBank(page, checkout, 'Monzo');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.waitForURL(/\/return\?/);
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('FAILED');
    const description = await page.getByTestId('error-description').textContent();
    expect(description).toBeTruthy();
    expect([...checkout.payments.values()][0]).toMatchObject({
      paymentStatus: 'FAILED',
      errorDescription: description,
      timesProcessed: 1,
    });
    await shot(page, '5-result-failed');
  });

  it('shows a validation error and creates no payment', async () => {
    await page.goto(checkout.url);
    await page.getByLabel('Payment reference').fill('ABCDEFGHIJKLMNOPQRS');
    const message =
      'payWithBankInstitution: Input validation error: field=[paymentRequest.reference], value=[ABCDEFGHIJKLMNOPQRS], error=[must not be longer than 18 characters]';
    await expect.poll(() => page.getByTestId('errors').textContent()).toContain(message);
    // No dead button: Pay is disabled (no amount) and says why, in the shopper's words.
    await expect
      .poll(() => page.getByRole('button', { name: 'Pay', exact: true }).isDisabled())
      .toBe(true);
    await shot(page, '6-validation-error');
    expect(await page.getByRole('button', { name: 'Barclays' }).count()).toBe(0);
    expect(sandbox.payments.size).toBe(0);
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
      await page.getByRole('button', { name: 'Barclays' }).waitFor();
      expect(await violations()).toEqual([]);
      await page.getByRole('button', { name: 'Barclays' }).click();
      await page.waitForURL(/\/bank\//);
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
      await stop();
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
    });
    checkout.useSandbox(sandbox);
    const page = await browser.newPage();
    const received: string[] = [];
    let receiver: ReturnType<typeof createServer> | undefined;
    try {
      await payAtBank(page, checkout);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/return\?/);
      // The service keeps trying while the receiver is down.
      await expect.poll(() => sandbox.deliveries.length).toBeGreaterThanOrEqual(2);
      expect(received).toEqual([]);

      const handler = createWebhookHandler({
        publicKey: sandbox.publicKey,
        onNotification: (n) => void received.push(`${n.paymentId}:${n.paymentStatus}`),
      });
      receiver = createServer((req, res) => void handler(req, res)).listen(port, '127.0.0.1');
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      const paymentId = new URL(page.url()).searchParams.get('paymentId');
      expect(received).toEqual([`${paymentId}:COMPLETED`]);
      const attempts = sandbox.deliveries.filter((d) => d.paymentId === paymentId);
      expect(attempts.at(-1)).toMatchObject({ status: 200 });
      expect(attempts.slice(0, -1).every((d) => d.status !== 200)).toBe(true);
    } finally {
      await page.close();
      await sandbox.stop();
      await checkout.stop();
      await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    }
  });
});
