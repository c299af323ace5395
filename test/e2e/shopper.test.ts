// @vitest-environment node
// The shopper's side in a real headless Chromium (issue 12): the built standalone script
// (dist/, `npm run build` first) on a plain page, with an in-page fake backend, at a laptop's
// 1280 px and a phone's 390 px (touch: `hasTouch`, a coarse pointer), light and dark. Checks
// what only a real layout engine can: the keyboard model's rows and columns, bank names at most
// two lines, no text field focused on a touch screen, broken logos, no developer text in any
// failure, the pseudo-locale, axe (colour contrast included) in every state; and takes the
// screenshots for review (artifacts/screenshots/shopper-*.png).
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGES } from '../../src/core/messages';
import { launchChromium } from '../helpers/browser';
import { APP_ID } from '../helpers/merchant';
import { axeViolations, inBothSchemes, prepareScreenshots, shot } from './support';

// The script's file name carries the component version (package.json componentVersion).
const { componentVersion: version } = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as { componentVersion: string };
const script = await readFile(
  new URL(`../../dist/standalone/Service-${version}.min.js`, import.meta.url),
  'utf8',
);

const NAMES = [
  'Barclays',
  'HSBC UK',
  'Lloyds Bank',
  'Monzo',
  'NatWest',
  'Nationwide',
  'Co-operative Bank',
  'Principality Building Society',
  'Allied Irish Bank (GB)',
  'Royal Bank of Scotland International Limited, trading as NatWest International',
  'Société Générale',
  'Revolut',
];

/** A page with the script, an in-page fake backend, and `start(config)` to make the component. */
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Checkout</title>
<style>body{margin:0;padding:16px;font-family:system-ui}
@media (prefers-color-scheme: dark){body{background:#030712;color:#f9fafb}}
.wide{--service-max-width:720px}</style></head>
<body><main><h1>Checkout</h1><div id="pay"></div></main></body></html>`;

const FAKE = `
const NAMES = ${JSON.stringify(NAMES)};
const LOGO = (c, m) => 'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" rx="8" fill="' + c + '"/><text x="20" y="26" text-anchor="middle" font-family="sans-serif" font-size="15" font-weight="700" fill="#fff">' + m + '</text></svg>');
window.errors = [];
window.start = (config = {}) => {
  const banks = NAMES.slice(0, config.banks ?? NAMES.length).map((name, i) => ({
    id: 'b' + i,
    name,
    ...(i === 5 ? {} : { iconUrl: config.brokenLogos ? 'data:image/png;base64,broken' : LOGO(i % 2 ? '#00395d' : '#111827', name[0]) }),
  }));
  const never = () => new Promise(() => {});
  const transport = {
    fetchInstitutions: async () => {
      if (config.institutions === 'never') return never();
      if (config.institutions === 'fail') throw new Error('Network error: could not reach http://127.0.0.1:4010');
      return banks;
    },
    initiatePayment: async () => {
      if (config.payment === 'never') return never();
      if (config.payment === 'fail') throw new Error('The service did not answer within 30000 ms');
      return { paymentId: 'p1', authorisationUrl: 'https://bank.example/authorise' };
    },
  };
  const service = new Service({
    environment: config.environment ?? 'SANDBOX',
    applicationId: ${JSON.stringify(APP_ID)},
    ...(config.environment === 'LIVE' ? {} : { transport }),
    openUrl: () => {},
    errorConsumer: (e) => window.errors.push(e),
    className: config.wide ? 'wide' : undefined,
    messages: config.pseudo ? window.pseudo : undefined,
  });
  if (config.payment !== 'none') {
    service.createPayment({ amount: 12.5, paymentReference: config.invalid ? 'ORDER-2024-0001-XYZ' : 'ORDER-1042' });
  }
  service.injectComponent('pay');
  return service;
};
window.pseudo = Object.fromEntries(Object.entries(${JSON.stringify(
  Object.fromEntries(
    Object.entries(DEFAULT_MESSAGES).map(([k, v]) => [k, typeof v === 'function']),
  ),
)}).map(([k, fn]) => [k, fn ? (x) => '⟦' + k + ':' + x + '⟧' : '⟦' + k + '⟧']));
`;

interface Config {
  banks?: number;
  institutions?: 'ok' | 'fail' | 'never';
  payment?: 'ok' | 'fail' | 'never' | 'none';
  environment?: 'LIVE';
  invalid?: boolean;
  brokenLogos?: boolean;
  wide?: boolean;
  pseudo?: boolean;
}

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const LAPTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
};

async function open(device: BrowserContextOptions, config: Config = {}) {
  const context = await browser.newContext({ ...device, colorScheme: 'light', bypassCSP: true });
  const page = await context.newPage();
  // A fake clock: the slow-load line appears when the test moves time on, not after a wait.
  await page.clock.install();
  await page.setContent(PAGE);
  await page.addScriptTag({ content: script });
  await page.addScriptTag({ content: FAKE });
  await page.evaluate((c) => void window.start(c), config as never);
  await page.locator('[data-state]').first().waitFor();
  return { page, close: () => context.close() };
}

declare global {
  interface Window {
    start(config: Config): unknown;
    errors: { location: string; error: string }[];
  }
}

const pay = (page: Page) => page.locator('button[aria-expanded]');
const banks = (page: Page) => page.locator('ul[aria-label] button');

/** The developer's text a shopper must never see: the component's text and read-out attributes. */
async function developerText(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.querySelector('[data-state]')!;
    const attrs = [...root.querySelectorAll('[aria-label],[placeholder],[title]')].flatMap((e) =>
      ['aria-label', 'placeholder', 'title'].map((a) => e.getAttribute(a) ?? ''),
    );
    const text = [root.textContent, ...attrs].join('\n');
    return (
      /servicepay:|Input validation|field=|paymentRequest|createPayment|https?:\/\/|\bHTTP \d|\d+ ?ms\b/.exec(
        text,
      )?.[0] ?? null
    );
  });
}

describe('the phone (390 px, touch)', () => {
  it('lists the banks in one column of equal rows, names at most two lines, the full name kept', async () => {
    const { page, close } = await open(PHONE);
    await pay(page).tap();
    await banks(page).first().waitFor();
    const layout = await banks(page).evaluateAll((buttons) =>
      buttons.map((b) => {
        const name = b.querySelector<HTMLElement>('[title]')!;
        const lines = Math.round(
          name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight),
        );
        const { left, height } = b.getBoundingClientRect();
        return {
          left,
          height,
          lines,
          title: name.title,
          clipped: name.scrollHeight > name.clientHeight,
        };
      }),
    );
    expect(new Set(layout.map((b) => b.left)).size).toBe(1);
    expect(new Set(layout.map((b) => b.height)).size).toBe(1);
    expect(Math.max(...layout.map((b) => b.lines))).toBeLessThanOrEqual(2);
    // The long one is cut with an ellipsis; its full name stays as the title and the text.
    const long = layout.find((b) => b.title.startsWith('Royal Bank'))!;
    expect(long.clipped).toBe(true);
    expect(long.title).toBe(NAMES[9]);
    await expect(page.getByRole('button', { name: NAMES[9], exact: true }).count()).resolves.toBe(
      1,
    );
    await close();
  });

  it('opening the step focuses its heading, not the search field (no on-screen keyboard)', async () => {
    const { page, close } = await open(PHONE);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    await pay(page).tap();
    await page.getByRole('searchbox').waitFor();
    // Focus moves in an effect, after the step's first paint: polled, not read at once.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      DEFAULT_MESSAGES.chooseBank,
    );
    await close();
  });
});

describe('the keyboard (1280 px, a wide component: the grid)', () => {
  it('one Tab stop; arrows by row and column, Home/End; ArrowDown from search; Escape to Pay', async () => {
    const { page, close } = await open(LAPTOP, { wide: true });
    await pay(page).focus();
    await page.keyboard.press('Enter');
    const search = page.getByRole('searchbox');
    await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
    const focused = () =>
      page.evaluate(() => {
        const r = document.activeElement!.getBoundingClientRect();
        return { name: document.activeElement!.textContent, x: r.left, y: r.top };
      });
    await page.keyboard.press('ArrowDown');
    const first = await focused();
    expect(first.name).toBe('Barclays');
    await page.keyboard.press('ArrowRight');
    const second = await focused();
    expect(second.name).toBe('HSBC UK');
    expect(second.y).toBe(first.y);
    await page.keyboard.press('ArrowDown');
    const below = await focused();
    // The bank straight below, in the next row.
    expect(below.x).toBe(second.x);
    expect(below.y).toBeGreaterThan(second.y);
    await page.keyboard.press('ArrowUp');
    expect((await focused()).name).toBe('HSBC UK');
    await page.keyboard.press('End');
    expect((await focused()).name).toBe(NAMES.at(-1));
    await page.keyboard.press('Home');
    expect((await focused()).name).toBe('Barclays');
    // The set is one Tab stop: Tab leaves it, Shift+Tab comes back to the same bank.
    await page.keyboard.press('Tab');
    expect((await focused()).name).not.toBe('HSBC UK');
    expect(await banks(page).evaluateAll((b) => b.filter((e) => e.tabIndex === 0).length)).toBe(1);
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).name).toBe('Barclays');
    await page.keyboard.press('Escape');
    expect(await pay(page).evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await pay(page).getAttribute('aria-expanded')).toBe('false');
    await close();
  });

  it('in the narrow list, arrows move by item', async () => {
    const { page, close } = await open(LAPTOP, { banks: 6 });
    await pay(page).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Barclays');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('HSBC UK');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Lloyds Bank');
    await close();
  });
});

describe('logos', () => {
  it('a logo that fails shows the initials, in the same space (no shift)', async () => {
    const { page, close } = await open(LAPTOP, { brokenLogos: true, banks: 6 });
    await pay(page).click();
    await banks(page).first().waitFor();
    await expect.poll(() => page.locator('ul[aria-label] img').count()).toBe(0);
    const plates = await page
      .locator('ul[aria-label] [data-initials]')
      .evaluateAll((spans) =>
        spans.map((s) => [getComputedStyle(s, '::before').content, s.parentElement!.offsetWidth]),
      );
    expect(plates).toHaveLength(6);
    expect(plates[0]).toEqual(['"B"', 40]);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'shopper-broken-logos-1280');
    await close();
  });
});

/** Each state as the shopper meets it; `reach` acts on the open page. */
const STATES: [string, Config, (page: Page) => Promise<void>][] = [
  ['idle', {}, async () => undefined],
  [
    'open',
    {},
    async (page) => {
      await pay(page).click();
      await banks(page).first().waitFor();
    },
  ],
  ['invalid-payment', { invalid: true }, async () => undefined],
  ['no-payment', { payment: 'none' }, async () => undefined],
  ['unavailable', { environment: 'LIVE' }, async () => undefined],
  [
    'slow-load',
    { institutions: 'never' },
    async (page) => {
      await pay(page).click();
      await page.clock.fastForward(6000);
      await page.locator('[role="status"]:not(:empty)').waitFor();
    },
  ],
  [
    'failed-load',
    { institutions: 'fail' },
    async (page) => page.locator('[role="alert"]:not(:empty)').waitFor(),
  ],
  [
    'opening',
    { payment: 'never' },
    async (page) => {
      await pay(page).click();
      await banks(page).nth(1).click();
    },
  ],
  [
    'payment-failed',
    { payment: 'fail' },
    async (page) => {
      await pay(page).click();
      await banks(page).nth(1).click();
      await page.locator('[role="alert"]:not(:empty)').waitFor();
    },
  ],
];

// Each state is reached once and checked in light, then with the same page switched to dark.
describe.each([
  ['1280', LAPTOP],
  ['390', PHONE],
] as const)('every state at %s', (width, device) => {
  it.each(STATES)(
    '%s: no developer text, axe clean, light and dark',
    async (name, config, reach) => {
      const { page, close } = await open(device, config);
      await reach(page);
      await inBothSchemes(page, async (colorScheme) => {
        const label = colorScheme === 'dark' ? `${width}-dark` : width;
        expect(await developerText(page)).toBeNull();
        expect(await axeViolations(page)).toEqual([]);
        if (name !== 'idle' || width === '1280') await shot(page, `shopper-${name}-${label}`);
      });
      await close();
    },
  );
});

describe('the pseudo-locale (every message replaced)', () => {
  it.each(STATES)('%s: not one letter of built-in English', async (_name, config, reach) => {
    const { page, close } = await open(LAPTOP, { ...config, pseudo: true });
    await reach(page);
    const left = await page.evaluate((names) => {
      const root = document.querySelector('[data-state]')!;
      const attrs = [...root.querySelectorAll('[aria-label],[placeholder],[title]')].flatMap((e) =>
        ['aria-label', 'placeholder', 'title'].map((a) => e.getAttribute(a) ?? ''),
      );
      let text = [root.textContent, ...attrs].join('\n').replace(/⟦[^⟧]*⟧/g, '');
      // Longest first: one name may contain another.
      for (const n of [...names].sort((a, b) => b.length - a.length)) text = text.split(n).join('');
      return text.replace(/[\d.£\s]/g, '');
    }, NAMES);
    expect(left).toBe('');
    await close();
  });
});
