// @vitest-environment node
// The desktop handoff end to end in a real headless Chromium: the example checkout (with the
// extras on), the local sandbox, and the example's webhook receiver and status endpoint. On a
// desktop (a mouse, 1280 px) choosing a bank shows "Scan with your phone"; the QR code, read
// back from a screenshot as a phone's camera would, is the sandbox's address for the payment;
// a second browser context that is a phone opens it and decides; the desktop page shows the
// outcome in place, in the same document. On a phone (touch, 390 px) the bank opens as before.
import { devices } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_HANDOFF_MESSAGES as H,
  DEFAULT_MESSAGES,
  DEFAULT_RESULT_MESSAGES as R,
  HANDOFF_MEDIA,
  REMEMBERED_BANK_KEY,
} from '../../src/core/index';
import { launchChromium } from '../helpers/browser';
import { decodeQrFromPng } from '../helpers/qr-decode';
import {
  axeViolations,
  inBothSchemes,
  prepareScreenshots,
  shot,
  startCheckoutWithSandbox,
} from './support';
import type { Checkout, Sandbox } from './support';

/** A laptop: a mouse (fine pointer, hover), wider than a phone. */
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
/** A phone: touch, 390 px wide (the iPhone 13's settings, in Chromium). */
const iPhone = devices['iPhone 13']!;
const PHONE: BrowserContextOptions = {
  userAgent: iPhone.userAgent,
  viewport: iPhone.viewport,
  deviceScaleFactor: iPhone.deviceScaleFactor,
  isMobile: true,
  hasTouch: true,
};

const PAY = { name: 'Pay £12.50' };
/** Not one of the example's featured banks: listed once, in the full list. */
const BANK = 'HSBC UK';

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

let checkout: Checkout;
let sandbox: Sandbox;
let stop: () => Promise<void>;
const contexts: BrowserContext[] = [];
beforeEach(async () => {
  ({ checkout, sandbox, stop } = await startCheckoutWithSandbox());
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await stop?.();
});

async function open(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context.newPage();
}

/** Errors the page reports (its console and uncaught), which must stay empty. */
function watchFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  return failures;
}

/** The developer panel's events list (the example logs onHandoffShown and onResult there too). */
const events = (page: Page) => page.getByTestId('events').locator('li').allTextContents();

/** The only payment the sandbox holds: its id. */
function onlyPaymentId(): string {
  const ids = [...sandbox.payments.keys()];
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/**
 * On the desktop: the checkout, Pay, a bank, and the handoff panel. Marks the document, and
 * counts the main frame's navigations from here on: the outcome must arrive in this document.
 */
async function handOff(page: Page) {
  await page.goto(checkout.url);
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  const navigations = { count: 0 };
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.count++);
  const checkoutUrl = page.url();
  await page.getByRole('button', PAY).click();
  await page.getByRole('button', { name: BANK }).click();
  const panel = page.getByRole('region', { name: H.handoffHeading });
  await panel.waitFor();
  const qr = panel.locator('svg[role=img]');
  await qr.waitFor();
  const sameDocument = async () => {
    expect(navigations.count).toBe(0);
    expect(page.url()).toBe(checkoutUrl);
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    );
  };
  return { panel, qr, sameDocument };
}

/** Reads the QR code as a phone would, checks it against the panel and the sandbox: its URL. */
async function scan(page: Page, panel: ReturnType<Page['getByRole']>) {
  const qr = panel.locator('svg[role=img]');
  expect(await qr.getAttribute('aria-label')).toBe(H.qrAlt(BANK));
  const decoded = decodeQrFromPng(await qr.screenshot());
  // The address as text under the code, for those who cannot scan: the same address.
  const shown = (await panel.locator('p[dir=ltr]').innerText()).trim();
  expect(decoded).toBe(shown);
  // The sandbox's authorisation address of this very payment.
  expect(decoded).toBe(`${new URL(sandbox.url).origin}/bank/${onlyPaymentId()}`);
  // The panel is the page's: handed off, the shopper is at the bank (on another device).
  await expect.poll(() => events(page)).toContain(`onHandoffShown: ${BANK}`);
  expect(await events(page)).toContain('awaiting_authorisation');
  return decoded!;
}

/** The phone opens the scanned address and decides there. */
async function decideOnPhone(url: string, decision: 'Approve' | 'Reject') {
  const phone = await open(PHONE);
  await phone.goto(url);
  await phone.getByRole('button', { name: decision }).tap();
  return phone;
}

describe('the desktop handoff in the example checkout', () => {
  it('scan, approve on the phone: "Payment received" on the desktop, in the same document', async () => {
    const page = await open(DESKTOP);
    const failures = watchFailures(page);
    const { panel, qr, sameDocument } = await handOff(page);
    expect(await page.evaluate((media) => matchMedia(media).matches, HANDOFF_MEDIA)).toBe(true);
    // Focus on the panel's heading, which replaced the bank step.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(H.handoffHeading);
    // The sandbox is on 127.0.0.1, as with `npm start`: the code is there, and the panel says
    // that no phone can open the address and how to make it reachable. "Continue on this
    // computer", the way on from here, is in view on a 1280 × 800 screen, from the page's top.
    expect(await panel.getByText(H.loopbackNote).count()).toBe(1);
    const onward = await panel.getByRole('button', { name: H.continueHere }).boundingBox();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled + onward!.y + onward!.height).toBeLessThanOrEqual(800);
    const url = await scan(page, panel);
    await shot(page, 'handoff-e2e-waiting');

    const phone = await decideOnPhone(url, 'Approve');
    // The phone comes back to the shop's result page, which knows the outcome too.
    await phone.getByRole('heading', { level: 1, name: R.received }).waitFor();

    await page.getByRole('heading', { name: R.received }).waitFor();
    await sameDocument();
    expect(await qr.count()).toBe(0);
    // The shop's onResult: the order confirmed and the title, as its result page does.
    await page.getByText('Your order is confirmed').waitFor();
    expect(await page.title()).toBe(`${R.received} – ${checkout.merchantName}`);
    expect(await events(page)).toContain('onResult: COMPLETED');
    expect([...checkout.payments.values()]).toMatchObject([
      { paymentStatus: 'COMPLETED', timesProcessed: 1 },
    ]);
    await shot(page, 'handoff-e2e-received');
    expect(failures).toEqual([]);
  });

  it('scan, reject on the phone: "Payment not completed", and Try again reopens the bank step', async () => {
    const page = await open(DESKTOP);
    const failures = watchFailures(page);
    const { panel, qr, sameDocument } = await handOff(page);
    const url = await scan(page, panel);

    await decideOnPhone(url, 'Reject');
    await page.getByRole('heading', { name: R.notCompleted }).waitFor();
    await sameDocument();
    expect(await qr.count()).toBe(0);
    expect(await events(page)).toContain('onResult: FAILED');
    expect(await page.getByText('Your order is confirmed').count()).toBe(0);
    await shot(page, 'handoff-e2e-not-completed');

    await page.getByRole('button', { name: R.tryAgain }).click();
    // The bank step again, the handoff gone; the bank just tried comes first (rememberBank).
    const step = page.getByRole('region', { name: DEFAULT_MESSAGES.chooseBank });
    await step.waitFor();
    expect(await page.getByRole('button', PAY).getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('heading', { name: R.notCompleted }).count()).toBe(0);
    expect(
      await step.getByRole('list', { name: H.lastUsed }).getByRole('button').allTextContents(),
    ).toEqual([BANK]);
    await sameDocument();
    // Another payment from the same step is handed off again.
    await step.getByRole('list', { name: H.lastUsed }).getByRole('button', { name: BANK }).click();
    await page.getByRole('region', { name: H.handoffHeading }).locator('svg[role=img]').waitFor();
    expect(sandbox.payments.size).toBe(2);
    expect(failures).toEqual([]);
  });

  it('on a phone, choosing a bank opens the bank: no QR panel, ever', async () => {
    const page = await open(PHONE);
    const failures = watchFailures(page);
    // Reports any handoff panel or QR code the checkout ever puts in its document.
    const seen: string[] = [];
    await page.exposeFunction('reportHandoff', (what: string) => seen.push(what));
    await page.addInitScript(() => {
      const report = (window as unknown as { reportHandoff(what: string): void }).reportHandoff;
      new MutationObserver(() => {
        const found = document.querySelector('svg[role=img], .service-handoff');
        if (found) report(found.outerHTML.slice(0, 80));
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(checkout.url);
    expect(await page.evaluate((media) => matchMedia(media).matches, HANDOFF_MEDIA)).toBe(false);
    await page.getByRole('button', PAY).tap();
    await page.getByRole('button', { name: BANK }).tap();
    await page.waitForURL(/\/bank\//);
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect(page.url()).toBe(`${new URL(sandbox.url).origin}/bank/${onlyPaymentId()}`);
    expect(seen).toEqual([]);
    expect(failures).toEqual([]);
  });
});

describe('axe, colour contrast included, light and dark', () => {
  // Each view reached once, checked in light, then switched to dark.
  it('the handoff panel at 1280 px', async () => {
    // axe is injected by the test, so this context lets it past the page's strict CSP.
    const page = await open({ ...DESKTOP, bypassCSP: true });
    await handOff(page);
    await inBothSchemes(page, async (colorScheme) => {
      expect(await axeViolations(page), colorScheme).toEqual([]);
      await shot(page, `handoff-e2e-axe-${colorScheme}`);
    });
  });

  it('the bank step with Last used and Popular banks at 390 px', async () => {
    const page = await open({ ...PHONE, bypassCSP: true });
    await page.goto(checkout.url);
    // A bank paid with before, on this device (bank-step.test.ts pays for it for real).
    await page.evaluate(([key]) => localStorage.setItem(key!, 'hsbc'), [REMEMBERED_BANK_KEY]);
    await page.reload();
    await page.getByRole('button', PAY).tap();
    const step = page.getByRole('region', { name: DEFAULT_MESSAGES.chooseBank });
    await step
      .getByRole('list', { name: H.lastUsed })
      .getByRole('button', { name: BANK })
      .waitFor();
    expect(
      await step.getByRole('list', { name: H.featured }).getByRole('button').allTextContents(),
    ).toEqual(['Barclays', 'Monzo']);
    expect(await step.getByRole('button', { name: H.forgetBank }).isVisible()).toBe(true);
    await inBothSchemes(page, async (colorScheme) => {
      expect(await axeViolations(page), colorScheme).toEqual([]);
      await shot(page, `bank-step-extras-390-${colorScheme}`);
    });
  });
});
