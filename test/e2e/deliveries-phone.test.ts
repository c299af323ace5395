// @vitest-environment node
// The deliveries page after `servicepay-sandbox check-receiver` against a receiver that verifies
// (issue 36): the check's deliveries read as the check's cases with their verdicts, the forged
// one's 401 as the answer wanted, at 1280 and 390 px, light and dark, axe clean; on a phone the
// attempts and the check's report stack (each row a block of "label: value" lines) instead of
// scrolling sideways. Screenshots go to artifacts/screenshots/deliveries-check-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/webhook/index';
import { launchChromium } from '../helpers/browser';
import { startReceiver } from '../sandbox/support/receiver';
import { createPayment, testSandbox } from '../sandbox/support/sandbox';
import { axeViolations, prepareScreenshots, shot } from './support';

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('the receiver check’s cases on the deliveries page', () => {
  it('shows them as cases with verdicts, and stacks the tables on a phone', async () => {
    // A receiver that verifies the exact bytes: 401 for the forged case, 200 for the others.
    const receiver = await startReceiver((q) =>
      verifyWebhookSignature(q.body, String(q.headers.authorization), sandbox.publicKey)
        ? 200
        : 401,
    );
    const sandbox = await testSandbox({ webhookUrl: receiver.url });
    const paid = await createPayment(sandbox);
    const delivered = sandbox.attempt((a) => a.paymentId === paid.paymentId);
    sandbox.settlePayment(paid.paymentId, { status: 'COMPLETED' });
    await delivered;
    const report = await sandbox.checkReceiver();
    expect(report.passed).toBe(true);
    const forged = report.cases.find((c) => c.name === 'forged-signature')!.paymentId;

    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 390]) {
        const where = `${colorScheme} ${width}px`;
        // axe is injected by the test, so this context lets it past the page's strict CSP.
        const context = await browser.newContext({
          bypassCSP: true,
          colorScheme,
          viewport: { width, height: 800 },
        });
        const page = await context.newPage();
        await page.goto(`${sandbox.url}/deliveries`);
        await page.evaluate(() =>
          document.querySelectorAll('details').forEach((details) => (details.open = true)),
        );
        // The forged case: a case with its verdict, its 401 hinted as the answer wanted.
        const section = page.locator(`section[id="n-${forged}"]`);
        const state = section.locator('.state');
        await expect(state.innerText(), where).resolves.toContain(
          'Receiver check case “Forged signature”',
        );
        await expect(state.locator('.verdict').innerText()).resolves.toBe('As expected');
        await expect(section.innerText(), where).resolves.not.toMatch(/Gave up|body was parsed/);
        await expect(section.innerText()).resolves.toContain(
          'Forged on purpose by the receiver check',
        );
        await expect(section.locator('tbody td:nth-child(2)').innerText(), where).resolves.toBe(
          'refused, as the case expects',
        );

        // Nothing wider than the screen, and no table scrolling sideways inside it.
        const layout = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          scrolling: [...document.querySelectorAll('.stack')]
            .filter((region) => region.scrollWidth > region.clientWidth)
            .map((region) => region.getAttribute('data-part')),
          rows: [...document.querySelectorAll('.stack tbody tr')].map(
            (row) => getComputedStyle(row).display,
          ),
          label: getComputedStyle(
            document.querySelector('.stack-attempts tbody td:nth-child(2)')!,
            '::before',
          ).content,
        }));
        expect(layout.page, where).toBeLessThanOrEqual(width);
        expect(layout.scrolling, where).toEqual([]);
        if (width === 390) {
          // Each attempt and each case a block, its cells labelled.
          expect(new Set(layout.rows), where).toEqual(new Set(['block']));
          expect(layout.label, where).toBe('"Outcome: "');
          // Still a table to assistive technology, its cells under their column headers.
          const table = page.getByRole('table', { name: `Attempts for ${forged}, newest first` });
          await expect(table.getByRole('columnheader', { name: 'Outcome' }).count()).resolves.toBe(
            1,
          );
          await expect(table.getByRole('cell').count()).resolves.toBeGreaterThan(0);
        } else {
          expect(new Set(layout.rows), where).toEqual(new Set(['table-row']));
        }
        expect(await axeViolations(page), where).toEqual([]);
        await shot(page, `deliveries-check-${colorScheme}-${width}`);
        await context.close();
      }
    }
    await receiver.stop();
  });
});
