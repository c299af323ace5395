// @vitest-environment node
// Issue 36's polish, as a shopper sees it, in Chromium at 1280 px (a mouse and a keyboard) and
// at a phone's 390 px (touch), light and dark, axe clean on every page looked at: the example
// shop's header the same on the checkout and the result page; the order made by the shop's
// server (its reference shown, nothing to type); the bank list scrolling with the page, not in
// a box of its own; "Forget this bank" a quiet text action beside a bank tile; no focus ring
// on a heading the page focused, a ring on the control a keyboard user Tabs to; and the shop's
// backend unreachable told as the shop's problem, not the shopper's connection.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HANDOFF_MESSAGES as H,
  DEFAULT_MESSAGES as M,
  DEFAULT_RESULT_MESSAGES as R,
  REMEMBERED_BANK_KEY,
} from '../../src/core/index';
import {
  DESKTOP,
  PHONE,
  SCHEMES,
  axeViolations,
  bankButton,
  inBothSchemes,
  shopPerFile,
} from './support';

const WIDTHS = [
  ['1280 px', DESKTOP],
  ['390 px', PHONE],
] as const;

const PAY = { name: 'Pay £12.50' };

// One shop for the file; each test's page in a fresh context of its view (axe is injected, so
// the page's CSP is bypassed).
const shop = shopPerFile();
const open = shop.open;

/** axe's violations in light and in dark: none in either, per scheme. */
const axeInBoth = (page: Page) => inBothSchemes(page, () => axeViolations(page));
const NONE = { light: [], dark: [] };

/** The result page of a payment whose outcome the receiver recorded. */
async function resultPage(page: Page, status: 'COMPLETED' | 'FAILED') {
  const paymentId = crypto.randomUUID();
  const merchantPaymentId = crypto.randomUUID();
  await shop.checkout.store.recordOutcome(
    { paymentId, merchantPaymentId, status, recordedAt: new Date().toISOString() },
    60 * 60_000,
  );
  await page.goto(
    `${shop.checkout.returnUrl}?paymentId=${paymentId}&merchantPaymentId=${merchantPaymentId}`,
  );
  const heading = status === 'COMPLETED' ? R.received : R.notCompleted;
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The header as the shopper sees it: its text, where it is, and how it is drawn. */
function header(page: Page) {
  return page.getByRole('banner').evaluate((banner: HTMLElement) => {
    const link = banner.querySelector('a')!;
    const { x, y, width, height } = banner.getBoundingClientRect();
    const looks = (e: Element) => {
      const s = getComputedStyle(e);
      return [s.backgroundColor, s.color, s.fontSize, s.fontWeight, s.borderBottom].join(' ');
    };
    return {
      text: banner.innerText,
      box: { x, y, width, height },
      banner: looks(banner),
      link: looks(link),
      home: link.getAttribute('href'),
    };
  });
}

/** The open bank step (its region), once its banks are listed. */
async function openBanks(page: Page, touch: boolean) {
  const pay = page.getByRole('button', PAY);
  await (touch ? pay.tap() : pay.click());
  const step = page.getByRole('region', { name: M.chooseBank });
  await step
    .getByRole('list', { name: M.banks, exact: true })
    .getByRole('button')
    .first()
    .waitFor();
  return step;
}

/** The focused element: its tag, its text, and the ring drawn around it (style and width). */
const focusRing = (page: Page) =>
  page.evaluate(() => {
    const focused = document.activeElement!;
    const s = getComputedStyle(focused);
    return {
      tag: focused.tagName,
      text: (focused.textContent ?? '').trim(),
      ring: s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth),
    };
  });

describe.each(WIDTHS)('at %s, light and dark', (_, device) => {
  const touch = device === PHONE;

  it('the shop’s header is the same on the checkout and the result page; the order is the server’s, nothing to type', async () => {
    const page = await open(device);
    await page.goto(shop.checkout.url);
    const reference = (await page.getByTestId('reference').textContent())?.trim();
    // The reference on screen is the one the shop's server made the order with.
    expect(reference).toMatch(/\S/);
    expect([...shop.checkout.orders.values()].map((order) => order.reference)).toContain(reference);
    expect(await page.getByRole('textbox').count()).toBe(0);
    const onCheckout = await inBothSchemes(page, () => header(page));
    for (const colorScheme of SCHEMES) {
      expect(onCheckout[colorScheme].text).toBe(shop.checkout.merchantName);
    }
    expect(await axeInBoth(page)).toEqual(NONE);

    await resultPage(page, 'COMPLETED');
    expect(await inBothSchemes(page, () => header(page))).toEqual(onCheckout);
    expect(await axeInBoth(page)).toEqual(NONE);
  });

  it('the bank list scrolls with the page, not inside a box of its own: every tile whole', async () => {
    const page = await open(device);
    await page.goto(shop.checkout.url);
    const step = await openBanks(page, touch);
    // No element from a bank tile up to the page scrolls its content (the page itself may).
    const boxes = await step
      .getByRole('list', { name: M.banks, exact: true })
      .getByRole('button')
      .first()
      .evaluate((tile) => {
        const found: string[] = [];
        for (let e = tile.parentElement; e && e !== document.body; e = e.parentElement) {
          const { overflowY } = getComputedStyle(e);
          if (/auto|scroll/.test(overflowY) && e.scrollHeight > e.clientHeight) {
            found.push(`${e.tagName}.${e.className} ${e.clientHeight}/${e.scrollHeight} px`);
          }
        }
        return found;
      });
    expect(boxes).toEqual([]);
    // The last bank, scrolled to, is whole on the screen.
    const last = step.getByRole('list', { name: M.banks, exact: true }).getByRole('button').last();
    await last.scrollIntoViewIfNeeded();
    const box = (await last.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(await last.evaluate((tile) => tile.scrollHeight <= tile.clientHeight)).toBe(true);
    expect(await axeInBoth(page)).toEqual(NONE);
  });

  it('"Forget this bank" is a quiet text action, lighter than the bank tile above it', async () => {
    const page = await open(device);
    await page.addInitScript((key) => localStorage.setItem(key, 'lloyds'), REMEMBERED_BANK_KEY);
    await page.goto(shop.checkout.url);
    const step = await openBanks(page, touch);
    const tile = step.getByRole('list', { name: H.lastUsed }).getByRole('button');
    const forget = step.getByRole('button', { name: H.forgetBank });
    await forget.waitFor();
    const looks = (button: typeof tile) =>
      button.evaluate((e) => {
        const s = getComputedStyle(e);
        return {
          height: e.getBoundingClientRect().height,
          width: e.getBoundingClientRect().width,
          border: parseFloat(s.borderTopWidth),
          // A background drawn at all (its alpha above 0).
          filled: !/rgba\(.*, 0\)|transparent/.test(s.backgroundColor),
          underlined: s.textDecorationLine.includes('underline'),
        };
      });
    const seen = await inBothSchemes(page, async () => ({
      bank: await looks(tile),
      action: await looks(forget),
    }));
    for (const { bank, action } of Object.values(seen)) {
      expect(bank).toMatchObject({ filled: true, underlined: false });
      expect(bank.border).toBeGreaterThan(0);
      expect(action).toMatchObject({ border: 0, filled: false, underlined: true });
      expect(action.height).toBeLessThan(bank.height);
      expect(action.width).toBeLessThan(bank.width);
      // Still a target a finger can hit (WCAG 2.2's 24 px).
      expect(action.height).toBeGreaterThanOrEqual(24);
    }
    expect(await axeInBoth(page)).toEqual(NONE);
  });

  it('a heading the page focuses has no ring; the control a keyboard user Tabs to has one', async () => {
    const page = await open(device);
    await resultPage(page, 'FAILED');
    for (const ring of Object.values(await inBothSchemes(page, () => focusRing(page)))) {
      expect(ring).toMatchObject({ tag: 'H1', text: R.notCompleted, ring: 0 });
    }
    expect(await axeInBoth(page)).toEqual(NONE);
    await page.keyboard.press('Tab');
    for (const next of Object.values(await inBothSchemes(page, () => focusRing(page)))) {
      expect(next.tag).toMatch(/^(A|BUTTON)$/);
      expect(next.ring).toBeGreaterThan(0);
    }

    if (touch) return; // The desktop handoff ("Scan with your phone") is for a laptop alone.
    await page.goto(shop.checkout.url);
    await openBanks(page, touch);
    await bankButton(page, 'Barclays').click();
    const handoff = page.getByRole('region', { name: H.handoffHeading });
    await handoff.waitFor();
    for (const ring of Object.values(await inBothSchemes(page, () => focusRing(page)))) {
      expect(ring).toMatchObject({ text: H.handoffHeading, ring: 0 });
    }
    expect(await axeInBoth(page)).toEqual(NONE);
  });

  it('the shop’s backend unreachable: the shopper is told the banks could not load, not to check their connection', async () => {
    const page = await open(device);
    // Refused once the shopper has pressed Pay (the component may ask for the banks before).
    let paid!: () => void;
    const pressed = new Promise<void>((resolve) => (paid = resolve));
    await page.route('**/v1/institutions**', async (route) => {
      await pressed;
      await route.abort('connectionrefused');
    });
    await page.goto(shop.checkout.url);
    const pay = page.getByRole('button', PAY);
    await (touch ? pay.tap() : pay.click());
    paid();
    await page.getByRole('alert').filter({ hasText: M.loadFailed }).waitFor();
    const text = await page.innerText('body');
    expect(text).not.toMatch(/connection|offline|internet/i);
    expect(await axeInBoth(page)).toEqual(NONE);
  });
});
