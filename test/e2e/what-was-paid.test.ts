// @vitest-environment node
// What was paid on the result page (issue 47), in a real Chromium on `npm start`'s checkout and
// the local sandbox: after the bank, "Payment received" lists the amount, the payee and the
// reference, which the shop's status endpoint adds through `expose` from the order its server
// holds (examples/checkout/orders.mjs, `paid`), never from what the browser sent; a payment
// recorded for review shows only the order's reference to quote; the plain page's
// ServiceResult shows the same, in Welsh.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_MESSAGES as R } from '../../src/core/index';
import cy from '../../src/core/locales/cy/index';
import {
  approveAndReturn,
  axeViolations,
  chooseBank,
  inBothSchemes,
  shopPerTest,
  shot,
  tamperWithPayments,
} from './support';

const shop = shopPerTest();

/** The result page's list of what was paid, as the shopper reads it: each term and its value. */
const receipt = (page: Page) =>
  page
    .locator('dl.service-result-paid > div')
    .evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('dt')!.innerText, row.querySelector('dd')!.innerText]),
    );

/** Pays the checkout's order at the sandbox's bank and comes back to the React result page. */
async function payAndReturn(page: Page) {
  await page.goto(shop.checkout.url);
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await chooseBank(page, 'Barclays');
  await approveAndReturn(page);
}

describe('what was paid, after a sandbox payment', () => {
  it('"Payment received" lists the amount, the payee and the reference, from the order the server holds', async () => {
    const { page, checkout } = shop;
    await payAndReturn(page);
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    expect(await receipt(page)).toEqual([
      ['Amount', '£12.50'],
      ['Paid to', 'Example Coffee Co.'],
      ['Reference', 'ORDER-1042'],
    ]);
    // The terms and values as a screen reader meets them.
    expect(await page.locator('dl.service-result-paid').getByRole('term').allInnerTexts()).toEqual([
      'Amount',
      'Paid to',
      'Reference',
    ]);
    // The tab's own order summary leaves the amount and reference to the server's list.
    expect(await page.locator('dl.summary').innerText()).toMatch(/^Item\s+Single-origin coffee/);
    await shot(page, 'what-was-paid-received');

    // The status endpoint's answer carries it, from the order the server made.
    const url = new URL(page.url());
    const answer = await fetch(`${checkout.statusUrl}${url.search}`).then((r) => r.json());
    expect(answer).toEqual({
      paid: { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' },
      status: 'COMPLETED',
    });

    // A browser that holds nothing of the payment (another device, a link in an email) sees
    // the same list: it comes from the server, not from this tab.
    const elsewhere = await shop.browser.newContext();
    try {
      const other = await elsewhere.newPage();
      await other.goto(page.url());
      await other.getByRole('heading', { level: 1, name: R.received }).waitFor();
      expect(await receipt(other)).toEqual(await receipt(page));
      expect(await other.locator('dl.summary').count()).toBe(0);
    } finally {
      await elsewhere.close();
    }

    // Accessible in both colour schemes, contrast included.
    const context = await shop.browser.newContext({ bypassCSP: true });
    try {
      const checked = await context.newPage();
      await checked.goto(page.url());
      await checked.getByRole('heading', { level: 1, name: R.received }).waitFor();
      await checked.locator('dl.service-result-paid').waitFor();
      expect(await inBothSchemes(checked, () => axeViolations(checked))).toEqual({
        light: [],
        dark: [],
      });
    } finally {
      await context.close();
    }
    expect(shop.failures).toEqual([]);
  });

  it('a payment changed in flight to £0.01: "We need to check this payment" with the order’s reference only, never an amount', async () => {
    const { page, sandbox } = shop;
    await tamperWithPayments(page, sandbox, (payment) => {
      payment.paymentRequest.amount = 0.01;
    });
    await payAndReturn(page);
    await page.getByRole('heading', { level: 1, name: R.needsReview }).waitFor();
    expect(await receipt(page)).toEqual([['Reference', 'ORDER-1042']]);
    const result = await page.locator('[data-state]').innerText();
    expect(result).not.toContain('£');
    expect(result).not.toContain(R.received);
    expect(shop.failures).toEqual([]);
  });

  it('the plain page’s ServiceResult lists it too, in the shopper’s language (Welsh)', async () => {
    const { page } = shop;
    await payAndReturn(page);
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    // The plain return page, in the language the plain checkout remembers for the tab.
    await page.evaluate(() => sessionStorage.setItem('example-coffee:lang', 'cy'));
    await page.goto(shop.checkout.scriptTagReturnUrl);
    await page.getByRole('heading', { level: 1, name: cy.result.received }).waitFor();
    expect(await page.locator('[data-state]').getAttribute('lang')).toBe('cy');
    expect(await receipt(page)).toEqual([
      ['Swm', '£12.50'],
      ['Talwyd i', 'Example Coffee Co.'],
      ['Cyfeirnod', 'ORDER-1042'],
    ]);
    await shot(page, 'what-was-paid-plain-cy');
    expect(shop.failures).toEqual([]);
  });
});
