// @vitest-environment node
// The bank step's extras and unavailable banks end to end in a real headless Chromium, on the
// example checkout and the local sandbox: the bank a shopper paid with comes back first ("Last
// used") until they forget it; a bank the service marks unavailable (the sandbox's
// `unavailableInstitutions`, as `npm start` runs it) is shown but cannot be paid with, by
// pointer, keyboard or the ref handle's payWithInstitution.
import { devices } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_HANDOFF_MESSAGES as H,
  DEFAULT_MESSAGES as M,
  DEFAULT_RESULT_MESSAGES as R,
  REMEMBERED_BANK_KEY,
} from '../../src/core/index';
import { launchChromium } from '../helpers/browser';
import { prepareScreenshots, shot, startCheckoutWithSandbox } from './support';
import type { Sandbox } from './support';

/** A phone (touch, 390 px): the bank opens here, as the desktop handoff is not offered. */
const iPhone = devices['iPhone 13']!;
const PHONE: BrowserContextOptions = {
  userAgent: iPhone.userAgent,
  viewport: iPhone.viewport,
  deviceScaleFactor: iPhone.deviceScaleFactor,
  isMobile: true,
  hasTouch: true,
};
/** A laptop: a mouse and a keyboard. */
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

const PAY = { name: 'Pay £12.50' };

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

let stop: (() => Promise<void>) | undefined;
let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  await stop?.();
  context = stop = undefined;
});

async function open(options: BrowserContextOptions): Promise<Page> {
  context = await browser.newContext(options);
  return context.newPage();
}

/** The open bank step, and its lists by their accessible names. */
function bankStep(page: Page) {
  const step = page.getByRole('region', { name: M.chooseBank });
  return {
    step,
    lastUsed: step.getByRole('list', { name: H.lastUsed }),
    featured: step.getByRole('list', { name: H.featured }),
    all: step.getByRole('list', { name: M.banks }),
  };
}

const remembered = (page: Page) =>
  page.evaluate((key) => localStorage.getItem(key), REMEMBERED_BANK_KEY);

describe('the remembered bank', () => {
  it('paid with once, it comes first as "Last used"; "Forget this bank" forgets it for good', async () => {
    let checkout;
    ({ checkout, stop } = await startCheckoutWithSandbox());
    const page = await open(PHONE);
    await page.goto(checkout.url);
    await page.getByRole('button', PAY).tap();
    // The featured banks are there from the first visit; nothing is remembered yet.
    const first = bankStep(page);
    await first.featured.waitFor();
    expect(await first.lastUsed.count()).toBe(0);
    await first.all.getByRole('button', { name: 'Lloyds Bank' }).tap();
    await page.waitForURL(/\/bank\//);
    await page.getByRole('button', { name: 'Approve' }).tap();
    await page.getByRole('heading', { level: 1, name: R.received }).waitFor();

    // Back at the shop for another order.
    await page.goto(checkout.url);
    expect(await remembered(page)).toBe('lloyds');
    await page.getByRole('button', PAY).tap();
    const { step, lastUsed, featured } = bankStep(page);
    await lastUsed.waitFor();
    expect(await lastUsed.getByRole('button').allTextContents()).toEqual(['Lloyds Bank']);
    // The step's first bank: before the popular banks and the full list.
    expect(await step.getByRole('listitem').first().textContent()).toBe('Lloyds Bank');
    expect(await featured.getByRole('button').allTextContents()).toEqual(['Barclays', 'Monzo']);
    await shot(page, 'bank-step-last-used');

    await step.getByRole('button', { name: H.forgetBank }).tap();
    await step.getByText(H.bankForgotten).waitFor();
    expect(await lastUsed.count()).toBe(0);
    expect(await step.getByRole('button', { name: H.forgetBank }).count()).toBe(0);
    // Focus went to the step's heading, not to nothing.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(M.chooseBank);
    expect(await remembered(page)).toBeNull();

    await page.reload();
    await page.getByRole('button', PAY).tap();
    const again = bankStep(page);
    // The step's extras are drawn (the popular banks), and no remembered bank among them.
    await again.featured.waitFor();
    expect(await again.lastUsed.count()).toBe(0);
    expect(await remembered(page)).toBeNull();
  });
});

describe('an unavailable bank (Santander UK)', () => {
  let sandbox: Sandbox;

  /** The example checkout on a sandbox that marks Santander UK unavailable, as `npm start` does. */
  async function start() {
    const shop = await startCheckoutWithSandbox({ unavailableInstitutions: ['santander'] });
    ({ sandbox, stop } = shop);
    return shop.checkout;
  }

  it('is shown, disabled, "Unavailable right now"; a click and the arrow keys pass it by', async () => {
    const checkout = await start();
    const page = await open(DESKTOP);
    const opened: string[] = [];
    context!.on('page', (p) => opened.push(p.url()));
    await page.goto(checkout.url);
    await page.getByRole('button', PAY).click();
    const { all } = bankStep(page);
    const santander = all.getByRole('button', { name: /^Santander UK/ });
    await santander.waitFor();
    expect(await santander.isVisible()).toBe(true);
    expect(await santander.isDisabled()).toBe(true);
    expect(await santander.innerText()).toContain(M.bankUnavailable);
    await shot(page, 'bank-step-unavailable');

    // A click does nothing: no payment, no page, no panel, the step still open.
    await santander.click({ force: true });
    await all.getByRole('button', { name: 'NatWest' }).focus();
    expect(sandbox.payments.size).toBe(0);
    expect(opened).toEqual([]);
    expect(page.url()).toBe(checkout.url);
    expect(await page.getByRole('region', { name: H.handoffHeading }).count()).toBe(0);
    expect(await page.getByRole('button', PAY).getAttribute('aria-expanded')).toBe('true');

    // The arrow keys skip it, both ways (NatWest and Nationwide are its neighbours).
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('Nationwide');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('NatWest');
    expect(sandbox.payments.size).toBe(0);
  });

  it('payWithInstitution("santander") on the ref handle reports an error and opens nothing', async () => {
    const checkout = await start();
    const page = await open(DESKTOP);
    const opened: string[] = [];
    context!.on('page', (p) => opened.push(p.url()));
    await page.goto(checkout.url);
    const events = page.getByTestId('events').locator('li');
    // The list is here: the component knows the bank is unavailable.
    await events.filter({ hasText: 'institutions_fetched' }).waitFor({ state: 'attached' });
    // The developer panel's control calls the handle, as a shop's own bank buttons would.
    await page.getByText(/^Developer panel/).click();
    await page.getByLabel('Institution id').fill('santander');
    await page.getByRole('button', { name: 'payWithInstitution' }).click();

    const errors = page.getByTestId('errors').locator('li');
    await errors.first().waitFor();
    expect(await errors.allTextContents()).toEqual([
      'payWithBankInstitution: servicepay: unavailable institution "santander"',
    ]);
    expect(await events.allTextContents()).not.toContain('payment_initiated');
    expect(sandbox.payments.size).toBe(0);
    expect(opened).toEqual([]);
    expect(page.url()).toBe(checkout.url);
    expect(await page.getByRole('region', { name: H.handoffHeading }).count()).toBe(0);
    await shot(page, 'developer-panel-unavailable-bank');
  });
});
