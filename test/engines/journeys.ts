// The shopper's journeys through the example checkout and the local sandbox, written once
// against the page interface (support/page.ts) and run in each engine by its own test file
// (firefox.test.ts, webkit.test.ts; Chromium runs the same journeys in test/e2e). A new journey
// is one `journey(...)` call below: it gets a fresh checkout, sandbox and page, all stopped
// afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_MEDIA } from '../../src/core/index';
import { startCheckoutWithSandbox } from '../e2e/support';
import { missingEngine } from './support/engines';
import {
  DESKTOP,
  PHONE,
  WAIT,
  axeViolations,
  focusedText,
  script,
  textOf,
  waitFor,
  waitForUrl,
} from './support/page';
import type { Control, Engine, EngineName, EnginePage, PageOptions } from './support/page';

type Shop = Awaited<ReturnType<typeof startCheckoutWithSandbox>>;

const PAY: Control = { role: 'button', name: 'Pay £12.50' };
const CLOSE: Control = { role: 'button', name: 'Close' };
const APPROVE: Control = { role: 'button', name: 'Approve' };
const CONTINUE_HERE: Control = { role: 'button', name: 'Continue on this computer' };
/**
 * The full list's name. The example also lists its popular banks above it (and, once paid,
 * the last bank used), so a bank's name can be on two buttons.
 */
const BANKS = 'Banks';
const POPULAR = 'Popular banks';
const bank = (name: string): Control => ({ role: 'button', name, within: BANKS });
const heading = (name: string): Control => ({ role: 'heading', name });

/** The checkout with the bank step open. */
async function openBanks(page: EnginePage, { checkout }: Shop) {
  await page.goto(checkout.url);
  await waitFor(page, PAY);
  await page.click(PAY);
  await waitFor(page, bank('Barclays'));
}

/**
 * Chooses `name` in the full list and goes on to the sandbox's bank page. Where the page is a
 * desktop by the component's own rule (HANDOFF_MEDIA: a fine pointer that can hover, wider
 * than 600 px) the example first offers "Scan with your phone", and the shopper continues on
 * this computer (the handoff itself is test/e2e/handoff.test.ts); elsewhere the bank page opens
 * at once. Asked of the page, not of the size it was opened at: headless Firefox does not
 * match the rule at any width, and the axe journey chooses at the phone's width.
 */
async function chooseBank(page: EnginePage, name: string) {
  const handoff = await page.evaluate<boolean>(
    script((media: string) => matchMedia(media).matches, HANDOFF_MEDIA),
  );
  await page.click(bank(name));
  if (handoff) {
    await waitFor(page, CONTINUE_HERE);
    await page.click(CONTINUE_HERE);
  }
  await waitForUrl(page, /\/bank\//);
  await waitFor(page, APPROVE);
}

/** At the sandbox's bank page, having chosen `name`. */
async function atBank(page: EnginePage, shop: Shop, name = 'Barclays') {
  await openBanks(page, shop);
  await chooseBank(page, name);
}

/** Back at the shop's result page, once it shows `title` (the verified webhook is in). */
async function result(page: EnginePage, title: string) {
  // The return page, its address naming the payment (docs/after-the-bank.md).
  await waitForUrl(page, /\/return(?:[?#]|$)/);
  await waitFor(page, heading(title));
}

/**
 * Where focus is in a list of the bank step (the full list unless named): the bank's name, its
 * place in the list and on screen.
 */
const focusInList = (page: EnginePage, list = BANKS) =>
  page.evaluate<{ name: string; index: number; last: number; x: number; y: number } | null>(
    script((list: string) => {
      const ul = [...document.querySelectorAll('ul[aria-label]')].find(
        (e) => e.getAttribute('aria-label') === list,
      );
      const banks: Element[] = [...(ul?.querySelectorAll('button') ?? [])];
      const index = banks.indexOf(document.activeElement!);
      if (index < 0) return null;
      const { left, top } = banks[index]!.getBoundingClientRect();
      const name = banks[index]!.textContent!.trim();
      return { name, index, last: banks.length - 1, x: left, y: top };
    }, list),
  );

/** The focused element's type attribute ("search" for the bank search field). */
const focusedType = (page: EnginePage) =>
  page.evaluate<string | null>(script(() => document.activeElement?.getAttribute('type') ?? null));

/** The Pay button's aria-expanded: whether the bank step is open. */
const stepOpen = (page: EnginePage) =>
  page.evaluate<string | null>(
    script(() => document.querySelector('button[aria-expanded]')!.getAttribute('aria-expanded')),
  );

export function journeys(name: EngineName, start: () => Promise<Engine>): void {
  // One line from the engines project's globalSetup says why (support/engine-check.ts).
  describe.skipIf(missingEngine(name) !== null)(`the shopper in ${name}`, () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await start();
    });
    afterAll(() => engine?.stop());

    const journey = (
      title: string,
      options: PageOptions,
      run: (page: EnginePage, shop: Shop) => Promise<void>,
    ) =>
      it(title, async () => {
        const shop = await startCheckoutWithSandbox();
        let page: EnginePage | undefined;
        try {
          page = await engine.open(options);
          await run(page, shop);
        } finally {
          await page?.close();
          await shop.stop();
        }
      });

    journey(
      'pays and approves: the checkout shows "Payment received"',
      DESKTOP,
      async (page, shop) => {
        await atBank(page, shop);
        // The payee is the shop the shopper was on.
        expect(await textOf(page, '.lead')).toBe(
          'Pay £12.50 to Example Coffee Co. from your Barclays account.',
        );
        await page.click(APPROVE);
        await result(page, 'Payment received');
        expect(await textOf(page)).toContain('Your payment to Example Coffee Co. has gone through');
        // Announced: focus moves to the new heading, after the navigation back from
        // the bank's origin.
        await expect.poll(() => focusedText(page), WAIT).toBe('Payment received');
        await page.screenshot('paid');
        expect([...shop.checkout.payments.values()]).toMatchObject([
          { paymentStatus: 'COMPLETED', amount: 12.5, reference: 'ORDER-1042', timesProcessed: 1 },
        ]);
      },
    );

    journey('rejects, then tries again with another bank and pays', DESKTOP, async (page, shop) => {
      await atBank(page, shop, 'Monzo');
      await page.click({ role: 'button', name: 'Reject' });
      await result(page, 'Payment not completed');
      expect(await textOf(page)).toContain(
        'Your bank did not complete the payment, so no money has been taken.',
      );
      await page.click({ role: 'button', name: 'Try again' });
      // Back at the checkout with the banks open, the same order kept (its id in
      // sessionStorage across the bank's redirect, the order still open on the server).
      await waitFor(page, bank('Barclays'));
      expect(
        await page.evaluate(
          script(() => document.querySelector('[data-testid="reference"]')?.textContent),
        ),
      ).toBe('ORDER-1042');
      await chooseBank(page, 'Barclays');
      await page.click(APPROVE);
      await result(page, 'Payment received');
      expect(shop.sandbox.payments.size).toBe(2);
      expect([...shop.checkout.payments.values()].map((p) => p.paymentStatus)).toEqual([
        'FAILED',
        'COMPLETED',
      ]);
    });

    journey(
      'the bank step by keyboard: Close, one Tab stop, arrows, Home/End, Escape closes',
      DESKTOP,
      async (page, { checkout }) => {
        await page.goto(checkout.url);
        await waitFor(page, PAY);
        // From the page's start, the Tab stops are the shop's name (a link home, the same header
        // as the result page's), then Pay (the order between them is text, the server's); Enter
        // opens the step.
        await page.evaluate(script(() => (document.activeElement as HTMLElement | null)?.blur()));
        await page.press('Tab');
        expect(await focusedText(page)).toBe('Example Coffee Co.');
        await page.press('Tab');
        expect(await focusedText(page)).toBe(PAY.name);
        await page.press('Enter');
        // Focus goes into the step, on its first Tab stop: the example's popular banks, above
        // the full list, the first of them.
        const popular = { name: 'Barclays', index: 0 };
        await expect.poll(() => focusInList(page, POPULAR), WAIT).toMatchObject(popular);
        // Before them, the Close control: Enter on it closes the step, focus on Pay.
        await page.press('Shift+Tab');
        expect(await focusedText(page)).toBe('Close');
        await page.press('Enter');
        await expect.poll(() => stepOpen(page), WAIT).toBe('false');
        expect(await focusedText(page)).toBe(PAY.name);

        await page.press('Enter');
        await expect.poll(() => focusInList(page, POPULAR), WAIT).toMatchObject(popular);
        // The popular banks are one Tab stop; the next is the full list's search field (the
        // sandbox lists 20 banks).
        await page.press('Tab');
        expect(await focusedType(page)).toBe('search');
        // ArrowDown from the search into the full list, then by row and column.
        await page.press('ArrowDown');
        const first = await focusInList(page);
        expect(first).toMatchObject({ name: 'Barclays', index: 0 });
        await page.press('ArrowRight');
        expect(await focusInList(page)).toMatchObject({ index: 1 });
        await page.press('ArrowLeft');
        expect(await focusInList(page)).toMatchObject({ index: 0 });
        await page.press('ArrowDown');
        // The bank straight below the first one.
        const below = (await focusInList(page))!;
        expect(below.x).toBe(first!.x);
        expect(below.y).toBeGreaterThan(first!.y);
        await page.press('ArrowUp');
        expect(await focusInList(page)).toMatchObject({ index: 0 });
        await page.press('End');
        const end = (await focusInList(page))!;
        expect(end.index).toBe(end.last);
        await page.press('Home');
        expect(await focusInList(page)).toMatchObject({ index: 0 });
        await page.press('ArrowDown');
        const chosen = (await focusInList(page))!;
        // One Tab stop a list: Tab leaves the banks, Shift+Tab comes back to the same bank.
        expect(
          await page.evaluate(
            script(() =>
              [...document.querySelectorAll('[role="group"][data-state] ul')].map((ul) => [
                ul.getAttribute('aria-label'),
                [...ul.querySelectorAll<HTMLElement>('button')].filter((b) => b.tabIndex === 0)
                  .length,
              ]),
            ),
          ),
        ).toEqual([
          [POPULAR, 1],
          [BANKS, 1],
        ]);
        await page.press('Tab');
        expect(await focusInList(page)).toBeNull();
        await page.press('Shift+Tab');
        expect(await focusInList(page)).toMatchObject({ index: chosen.index });
        // Escape closes the step and gives focus back to Pay.
        await page.press('Escape');
        await expect.poll(() => stepOpen(page), WAIT).toBe('false');
        expect(await focusedText(page)).toBe(PAY.name);
      },
    );

    journey(
      'the phone at 390 px: one column of banks, nothing wider than the screen, Close at hand',
      PHONE,
      async (page, shop) => {
        await openBanks(page, shop);
        const layout = await page.evaluate<{
          width: number;
          scrollWidth: number;
          banks: { left: number; right: number; height: number; lines: number }[];
        }>(
          script(() => ({
            width: innerWidth,
            scrollWidth: document.documentElement.scrollWidth,
            banks: [...document.querySelectorAll('ul[aria-label] button')].map((b) => {
              const name = b.querySelector<HTMLElement>('[title]')!;
              const { left, right, height } = b.getBoundingClientRect();
              const line = parseFloat(getComputedStyle(name).lineHeight);
              return { left, right, height, lines: Math.round(name.offsetHeight / line) };
            }),
          })),
        );
        expect(layout.width).toBe(PHONE.width);
        expect(layout.scrollWidth).toBeLessThanOrEqual(PHONE.width);
        expect(layout.banks.length).toBeGreaterThan(1);
        expect(new Set(layout.banks.map((b) => b.left)).size).toBe(1);
        expect(new Set(layout.banks.map((b) => b.height)).size).toBe(1);
        expect(Math.max(...layout.banks.map((b) => b.right))).toBeLessThanOrEqual(PHONE.width);
        expect(Math.max(...layout.banks.map((b) => b.lines))).toBeLessThanOrEqual(2);
        await page.screenshot('banks-390');
        await page.click(CLOSE);
        await expect.poll(() => stepOpen(page), WAIT).toBe('false');
      },
    );

    // Each state at the desktop width, then at the phone's: the same page, resized.
    describe.each([
      ['light', false],
      ['dark', true],
    ] as const)('axe, %s', (scheme, dark) => {
      journey(
        `no violations with the banks open, on the bank page and on the result, at ${DESKTOP.width} and ${PHONE.width} px`,
        { ...DESKTOP, dark },
        async (page, shop) => {
          const found: Record<string, string[]> = {};
          const check = async (state: string) => {
            for (const { width, height } of [DESKTOP, PHONE]) {
              await page.setViewport(width, height);
              await expect.poll(() => page.evaluate('innerWidth'), WAIT).toBe(width);
              found[`${state} ${width}`] = await axeViolations(page);
            }
            await page.screenshot(`${state}-${scheme}-${PHONE.width}`);
          };
          await openBanks(page, shop);
          expect(
            await page.evaluate(script(() => matchMedia('(prefers-color-scheme: dark)').matches)),
            'the colour scheme the engine reports',
          ).toBe(dark);
          await check('banks');
          await chooseBank(page, 'Barclays');
          await check('bank-page');
          await page.click(APPROVE);
          await result(page, 'Payment received');
          await check('result');
          expect(found).toEqual({
            'banks 1280': [],
            'banks 390': [],
            'bank-page 1280': [],
            'bank-page 390': [],
            'result 1280': [],
            'result 390': [],
          });
        },
      );
    });
  });
}
