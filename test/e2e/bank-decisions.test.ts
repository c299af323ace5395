// @vitest-environment node
// The sandbox's slow decisions, in a real Chromium on `npm start`'s checkout (issue 45): a
// shopper who leaves the bank's page without deciding hears "not completed" once the
// authorisation window closes, and a bank that is still checking leaves the result page
// "still confirming" past its first minute, then "Payment received" with no click. The
// sandbox runs on a time scale of 6000: its 15-minute window passes in 0.15 s, its 2-minute
// check in 0.02 s. The check's COMPLETED reaches the shop through a gate the test opens once
// the page has passed its first minute, so the order of the two is the test's, not a race.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_MESSAGES, NOT_HEARD_AFTER_MS } from '../../src/core/index';
import { EXPIRED_DESCRIPTION } from '../../src/sandbox/index';
import { GATE_RETRY, chooseBank, shopPerTest, startWebhookGate } from './support';

const R = DEFAULT_RESULT_MESSAGES;
const TIME_SCALE = 6000;

const gate = await startWebhookGate(
  () => shop.checkout.webhookUrl,
  (notification) => notification.paymentStatus === 'COMPLETED',
);
afterAll(() => gate.close());
afterEach(() => void (gate.open = true));
const shop = shopPerTest({
  sandbox: { timeScale: TIME_SCALE, webhookUrl: gate.url, retry: GATE_RETRY },
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
    gate.open = false;
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
    // The bank's check ends at the sandbox: PENDING was told at once, COMPLETED is at the gate.
    await expect
      .poll(() => [...shop.sandbox.payments.values()].map((p) => p.status), { timeout: 30_000 })
      .toEqual(['COMPLETED']);
    expect([...shop.checkout.payments.values()].map((p) => p.paymentStatus)).toEqual(['PENDING']);
    gate.open = true;
    await expect
      .poll(() => [...shop.checkout.payments.values()].map((p) => p.paymentStatus), {
        timeout: 30_000,
      })
      .toEqual(['COMPLETED']);
    // The page's next look is at most a minute away (each look due fires once: see
    // order-lifecycle's confirmation after the first minute).
    await page.clock.fastForward(60_000);
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();
    expect([...shop.checkout.orders.values()].map((o) => o.status)).toEqual(['paid']);
    expect(shop.failures).toEqual([]);
  });
});
