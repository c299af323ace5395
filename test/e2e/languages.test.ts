// @vitest-environment node
// The shopper's language (issue 49) in a real Chromium, on what ships: the plain page of
// examples/script-tag with `?lang=cy` (window.Service and window.ServiceResult from the
// sandbox's script host, `locale: 'cy'`), a whole payment on the sandbox in Welsh, with no
// English word in what the component and the result page draw, and axe clean (colour contrast
// included) at 1280 and 390 px, light and dark, at each step.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import cy from 'servicepay/locales/cy';
import { DEFAULT_INSTITUTIONS } from '../../src/sandbox/index';
import { englishWords } from '../helpers/shopper-text';
import {
  DESKTOP,
  PHONE,
  approveAndReturn,
  axeViolations,
  inBothSchemes,
  shopPerFile,
  shot,
  watchFailures,
} from './support';

/** The sandbox's banks: their names are the banks' own, in no language of ours. */
const BANKS = DEFAULT_INSTITUTIONS.map((bank) => bank.name);

// One shop for the file, returning shoppers to its plain page; each payment in a fresh context
// of its view (axe is injected by the test: the context lets it past the page's strict CSP).
const shop = shopPerFile({ plain: true });

/** What the shopper sees and hears in `selector`: its text and the read-out attributes. */
const shopperText = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((root) =>
      [
        root.textContent ?? '',
        ...[...root.querySelectorAll('[aria-label],[placeholder],[title],[alt]')].flatMap((e) =>
          ['aria-label', 'placeholder', 'title', 'alt'].map((a) => e.getAttribute(a) ?? ''),
        ),
      ].join('\n'),
    );

/** The English words in `selector` (the bank names aside), and axe in light and in dark. */
async function inWelsh(page: Page, selector: string) {
  expect(englishWords(await shopperText(page, selector), BANKS)).toEqual([]);
  expect(await page.locator(`${selector} [lang]`).first().getAttribute('lang')).toBe('cy');
  expect(await inBothSchemes(page, () => axeViolations(page))).toEqual({ light: [], dark: [] });
}

describe.each([
  ['1280', DESKTOP],
  ['390', PHONE],
])('the plain page in Welsh (locale: "cy") at %s px', { timeout: 120_000 }, (width, device) => {
  it('a whole payment on the sandbox: the Pay step, the bank step, the bank, the result page', async () => {
    const page = await shop.open(device);
    const failures = watchFailures(page);
    await page.goto(`${shop.checkout.scriptTagUrl}?lang=cy`);
    const pay = page.getByRole('button', { name: `${cy.pay.payLabel}12.50` });
    await pay.waitFor();
    await inWelsh(page, '#service-component');
    await shot(page, `languages-cy-1-pay-${width}`);

    await pay.click();
    await page.getByRole('region', { name: cy.pay.chooseBank }).waitFor();
    await page.getByRole('button', { name: 'Barclays' }).waitFor();
    await inWelsh(page, '#service-component');
    await shot(page, `languages-cy-2-banks-${width}`);

    await page.getByRole('button', { name: 'Barclays' }).click();
    await page.waitForURL(/\/bank\//);
    // The sandbox's bank page is the bank's, not ours; back on the shop's plain return page.
    await approveAndReturn(page);
    await page.getByRole('heading', { level: 1, name: cy.result.received }).waitFor();
    expect(await page.locator('#payment-result').innerText()).toContain(cy.result.receivedText);
    await inWelsh(page, '#payment-result');
    await shot(page, `languages-cy-3-received-${width}`);
    expect(failures).toEqual([]);
  });
});
