// @vitest-environment node
// servicepay/hosted end to end in a real headless Chromium, on this project's own
// implementation of window.Service: the standalone script as the sandbox's script host serves
// it (spec 4.3), which talks to that sandbox wherever it listens. Pay, a bank, Approve, the
// verified webhook at the example checkout, and its result page.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { SANDBOX_APPLICATION_ID } from '../../src/sandbox/index';
import { launchHosted } from './hosted/support';
import type { HostedServer } from './hosted/support';
import { startCheckoutWithSandbox } from './support';
import type { Checkout, Sandbox } from './support';

const { componentVersion: version } = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as { componentVersion: string };
/** The build's SRI manifest (dist/standalone/integrity.json), as a page pinning the version reads it. */
const integrity = JSON.parse(
  await readFile(new URL('../../dist/standalone/integrity.json', import.meta.url), 'utf8'),
) as Record<string, string>;

let browser: Browser;
let server: HostedServer;
let stopHosted: () => Promise<void>;
beforeAll(async () => {
  ({ browser, server, stop: stopHosted } = await launchHosted());
});
afterAll(() => stopHosted?.());

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

it('pays end to end on the script the sandbox serves, pinned by its SRI hash: one script request, the verified webhook, the result page', async () => {
  const script = `/js/Service-${version}.min.js`;
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  // The order comes from the shop's server, as for the reimplemented component: its receiver
  // reconciles every COMPLETED against it (expectedPayment), so the payment names it.
  const created = await fetch(`${checkout.url}api/orders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const order = (await created.json()) as { orderId: string; amount: number; reference: string };
  server.page({});
  await page.goto(`${server.url}/page`);
  await page.waitForFunction(() => 'harness' in window);
  await page.evaluate(
    (props) => (window as unknown as { harness: { mount(p: object): void } }).harness.mount(props),
    {
      scriptSrc: `${sandbox.url}${script}`,
      integrity: integrity[`Service-${version}.min.js`],
      environment: 'SANDBOX',
      applicationId: SANDBOX_APPLICATION_ID,
      payment: {
        amount: order.amount,
        paymentReference: order.reference,
        metadata: { orderId: order.orderId },
      },
    },
  );
  await page.getByRole('button', { name: 'Pay £12.50', disabled: false }).click();
  await page
    .getByRole('list', { name: 'Banks', exact: true })
    .getByRole('button', { name: 'Barclays' })
    .click();
  await page.waitForURL(/\/bank\//);
  // The bank list came from the sandbox that served the script (not 127.0.0.1:4010).
  expect(requests.filter((url) => url.startsWith(`${sandbox.url}/v1/institutions`))).toHaveLength(
    1,
  );
  expect(requests.filter((url) => url == `${sandbox.url}${script}`)).toHaveLength(1);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL((url) => url.href.startsWith(checkout.returnUrl));
  await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
  expect(checkout.orders.get(order.orderId)?.status).toBe('paid');
});
