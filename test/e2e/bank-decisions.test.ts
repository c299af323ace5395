// @vitest-environment node
// The sandbox's slow decisions, in a real Chromium on `npm start`'s checkout (issue 45): a
// shopper who leaves the bank's page without deciding hears "not completed" once the
// authorisation window closes, and a bank that is still checking leaves the result page
// "still confirming" past its first minute, then "Payment received" with no click. The
// sandbox runs on a time scale of 600: its 15-minute window passes in 1.5 s.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_MESSAGES, NOT_HEARD_AFTER_MS } from '../../src/core/index';
import { EXPIRED_DESCRIPTION } from '../../src/sandbox/index';
import { chooseBank, shopPerTest } from './support';

const R = DEFAULT_RESULT_MESSAGES;
const TIME_SCALE = 600;
/** The bank's check: 8 s here, long enough for the page to pass its first minute before it. */
const BANK_CHECK_REAL_MS = 8_000;

const shop = shopPerTest({
  sandbox: { timeScale: TIME_SCALE, bankCheckMs: BANK_CHECK_REAL_MS * TIME_SCALE },
});

/** Pay £12.50 with Barclays, to the sandbox's bank page. */
async function toTheBank() {
  await shop.page.goto(shop.checkout.url);
  await shop.page.getByRole('button', { name: 'Pay £12.50' }).click();
  await chooseBank(shop.page, 'Barclays');
}

describe('the sandbox bank’s slow decisions', () => {
  it('leave without deciding: nothing until the window closes, then "Payment not completed"', async () => {
    const { page } = shop;
    await toTheBank();
    await page.getByRole('button', { name: 'Leave without deciding' }).click();
    await page.getByRole('heading', { name: 'You left without deciding' }).waitFor();
    // The shopper comes back to the shop's result page on their own (the tab's payment).
    await page.goto(shop.checkout.returnUrl);
    await page.getByRole('heading', { level: 1, name: R.notCompleted }).waitFor();
    const [payment] = [...shop.sandbox.payments.values()];
    expect(payment).toMatchObject({ status: 'FAILED', errorDescription: EXPIRED_DESCRIPTION });
    expect([...shop.checkout.payments.values()].map((p) => p.paymentStatus)).toEqual(['FAILED']);
    expect([...shop.checkout.orders.values()].map((o) => o.status)).toEqual(['open']);
    expect(shop.failures).toEqual([]);
  });

  it('authorise, bank still checking: still confirming past the first minute, then "Payment received"', async () => {
    const { page } = shop;
    await page.clock.install();
    await toTheBank();
    await Promise.all([
      page.waitForURL(/\/return\?/, { waitUntil: 'commit' }),
      page.getByRole('button', { name: 'Authorise, bank still checking' }).click(),
    ]);
    await page.getByRole('heading', { name: 'Waiting for your bank to confirm…' }).waitFor();
    await page.clock.runFor(NOT_HEARD_AFTER_MS);
    await page
      .getByRole('heading', { name: 'Your bank is still confirming this payment' })
      .waitFor();
    expect(await page.innerText('body')).not.toContain(R.received);
    // The bank's check ends at the sandbox: PENDING was told at once, COMPLETED now.
    await expect
      .poll(() => [...shop.checkout.payments.values()].map((p) => p.paymentStatus), {
        timeout: 60_000,
      })
      .toEqual(['COMPLETED']);
    await page.clock.runFor(60_000);
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    expect([...shop.checkout.orders.values()].map((o) => o.status)).toEqual(['paid']);
    expect(shop.failures).toEqual([]);
  });
});
