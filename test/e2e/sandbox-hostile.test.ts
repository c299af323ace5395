// @vitest-environment node
// The sandbox's pages are safe by construction (src/sandbox/html.ts): a receiver's answer, a
// payment's reference and metadata, and an id in the address are shown as text on every page
// that shows them, by the html tag alone. The browser runs with the pages' CSP bypassed, so the
// CSP (which forbids inline script anyway) cannot be what stops them; the live deliveries page
// gets the hostile attempt through its event stream too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startReceiver } from '../sandbox/support/receiver';
import { createPayment, testSandbox } from '../sandbox/support/sandbox';

const SCRIPT = '<script>alert(1)</script>';
const ATTRIBUTE = '"><img src=x onerror=alert(1)>';
/** At most 18 characters, as a reference must be. */
const REFERENCE = '"><svg onload=f()>';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** What ran or was injected on the page: dialogs, errors, elements no page of the sandbox has. */
async function injected(page: Page, dialogs: string[], errors: string[]): Promise<string[]> {
  const found = await page.evaluate(() =>
    [
      ...document.querySelectorAll('img:not([src^="/icons/"]), svg, script:not([src])'),
      ...document.querySelectorAll('script[src]:not([src="/assets/deliveries.js"])'),
    ].map((element) => element.outerHTML),
  );
  return [...found, ...dialogs.map((d) => `dialog: ${d}`), ...errors];
}

describe('hostile text on the sandbox pages', () => {
  it('is rendered as text on every page, served and live, by the html tag alone', async () => {
    // The receiver's answer to each delivery: a 500 is shown at once, a 401 folded away.
    let answers = 0;
    const receiver = await startReceiver(() => {
      answers += 1;
      return answers === 1 ? { status: 500, body: SCRIPT } : { status: 401, body: ATTRIBUTE };
    });
    const sandbox = await testSandbox({
      webhookUrl: receiver.url,
      retry: { initialDelayMs: 5, factor: 1, maxDelayMs: 5, maxAttempts: 2 },
    });
    const hostile = { paymentRequest: { amount: 1, currency: 'GBP', reference: REFERENCE } };
    const settled = await createPayment(sandbox, {
      ...hostile,
      paymentMetadata: { note: SCRIPT, other: ATTRIBUTE },
    });
    const pending = await createPayment(sandbox, hostile);

    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const dialogs: string[] = [];
    const errors: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => errors.push(error.message));

    // The deliveries page open while the hostile delivery is made: it arrives live.
    await page.goto(`${sandbox.url}/deliveries`);
    const gaveUp = sandbox.attempt((a) => a.outcome === 'gave-up');
    sandbox.settlePayment(settled.paymentId, { status: 'COMPLETED' });
    await gaveUp;
    const section = page.locator(`section[id="n-${settled.paymentId}"]`);
    await section.getByText(SCRIPT, { exact: true }).first().waitFor({ state: 'attached' });
    await page.evaluate(() =>
      document.querySelectorAll('details').forEach((details) => (details.open = true)),
    );
    await expect(section.getByText(ATTRIBUTE, { exact: true }).count()).resolves.toBe(1);
    expect(await section.locator('pre.raw').first().textContent()).toContain(
      `"note":"${SCRIPT}","other":"${ATTRIBUTE.replaceAll('"', '\\"')}"`,
    );
    expect(await injected(page, dialogs, errors), 'deliveries, live').toEqual([]);

    const pages: [name: string, url: string, text: string][] = [
      ['deliveries, served', `${sandbox.url}/deliveries`, SCRIPT],
      ['index', `${sandbox.url}/`, REFERENCE],
      ['bank page', pending.authorisationUrl, REFERENCE],
      ['bank result', settled.authorisationUrl, REFERENCE],
      ['not found', `${sandbox.url}/bank/${encodeURIComponent(ATTRIBUTE)}`, ATTRIBUTE],
    ];
    for (const [name, url, text] of pages) {
      const response = await fetch(url);
      const markup = await response.text();
      // Nothing of it as markup in what was served...
      for (const tag of ['<script>alert', '<img src=x', '<svg onload']) {
        expect(markup, `${name}: ${tag}`).not.toContain(tag);
      }
      // ...and in the browser, the text as written, and nothing run or added.
      await page.goto(url);
      await page.evaluate(() =>
        document.querySelectorAll('details').forEach((details) => (details.open = true)),
      );
      expect(await page.locator('body').innerText(), name).toContain(text);
      expect(await injected(page, dialogs, errors), name).toEqual([]);
    }
    await context.close();
    await receiver.stop();
  });
});
