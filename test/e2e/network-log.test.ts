// @vitest-environment node
// What a merchant's engineer sees in Chromium's network panel while a shopper pays in the example
// checkout: no failed or cancelled row for a request that completed. Chromium used to list the
// bank list's GET, and the payment's POST, as "(canceled)" after their 200 in a third to half of
// the loads (an answer marked no-store read through a stream reader): hence many loads, each of
// which would have a fair chance to show it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { chooseBank, startCheckoutWithSandbox } from './support';
import type { Checkout } from './support';

let browser: Browser;
let checkout: Checkout;
let stop: () => Promise<void>;
beforeAll(async () => {
  browser = await launchChromium();
  ({ checkout, stop } = await startCheckoutWithSandbox());
});
afterAll(async () => {
  await stop?.();
  await browser?.close();
});

/** Every request of the page that failed or was cancelled, event streams aside (see below). */
function watchNetwork(page: Page): string[] {
  const failed: string[] = [];
  page.on('requestfailed', (request) => {
    // The result page closes its event stream once the outcome is in: a stream, not a request
    // that completes.
    if (request.resourceType() === 'eventsource') return;
    failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
  });
  return failed;
}

describe('the network log of a payment in Chromium', () => {
  it('has no failed or cancelled request, in any of twelve loads and a payment', async () => {
    const failed: string[] = [];
    for (let load = 0; load < 12; load++) {
      const page = await browser.newPage();
      const seen = watchNetwork(page);
      const banks = page.waitForResponse((r) => r.url().includes('/v1/institutions'));
      await page.goto(checkout.url);
      await (await banks).finished();
      // The page goes on (the bank list is drawn) while the row could still turn "(canceled)".
      await page.getByRole('button', { name: 'Pay £12.50' }).click();
      await page.getByRole('list', { name: 'Banks' }).first().waitFor();
      await page.close();
      failed.push(...seen);
    }

    const page = await browser.newPage();
    const seen = watchNetwork(page);
    await page.goto(checkout.url);
    await page.getByRole('button', { name: 'Pay £12.50' }).click();
    await chooseBank(page, 'Barclays');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
    await page.close();
    failed.push(...seen);

    expect(failed).toEqual([]);
  });
});
