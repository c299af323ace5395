// Shared by the end-to-end tests: the example checkout wired to a sandbox, screenshots, axe.
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startCheckout } from '../../examples/checkout/server.mjs';
import type { PaymentInitiation } from '../../src/core/transport';
import { SANDBOX_APPLICATION_ID, startSandbox } from '../../src/sandbox/index';
import type { SandboxOptions } from '../../src/sandbox/index';
import { launchChromium } from '../helpers/browser';
import { sandboxKeyFile } from '../helpers/sandbox-key';

export type Checkout = Awaited<ReturnType<typeof startCheckout>>;
export type CheckoutOptions = NonNullable<Parameters<typeof startCheckout>[0]>;
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Webhook retries in milliseconds rather than seconds, bounded. */
export const FAST_RETRY = { initialDelayMs: 20, factor: 2, maxDelayMs: 200, maxAttempts: 50 };

/**
 * The example checkout and a sandbox that sends it webhooks and returns shoppers to it (to its
 * React return page, or with `plain` to the plain one, as a shop whose pages are plain sets
 * it); `sandboxOptions` adds to (or overrides) the sandbox's, the rest to the checkout's.
 */
export async function startCheckoutWithSandbox(
  sandboxOptions: SandboxOptions = {},
  { plain = false, ...checkoutOptions }: CheckoutOptions & { plain?: boolean } = {},
): Promise<{
  checkout: Checkout;
  sandbox: Sandbox;
  stop(): Promise<void>;
}> {
  const checkout = await startCheckout({ ...checkoutOptions, port: 0 });
  const sandbox = await startSandbox({
    port: 0,
    webhookUrl: checkout.webhookUrl,
    webCallbackUrl: plain ? checkout.scriptTagReturnUrl : checkout.returnUrl,
    mobileCallbackUrl: `${checkout.returnUrl}?app=mobile`,
    applications: { [SANDBOX_APPLICATION_ID]: { merchantName: checkout.merchantName } },
    retry: FAST_RETRY,
    keyFile: sandboxKeyFile,
    ...sandboxOptions,
  });
  checkout.useSandbox(sandbox);
  return {
    checkout,
    sandbox,
    async stop() {
      await sandbox.stop();
      await checkout.stop();
    },
  };
}

/**
 * A gate between the sandbox and the shop's receiver, which the test opens and closes: closed,
 * it answers 503 to each delivery it holds (every one, or those whose notification `holds`
 * picks), and the sandbox retries it; open, it passes each one on to `target()`, bytes and
 * signature as sent. So "the receiver has not heard yet" is a state the test holds, not a race
 * against a delay. Give the sandbox `webhookUrl: gate.url` and `retry: GATE_RETRY`.
 */
export async function startWebhookGate(
  target: () => string,
  holds: (notification: { paymentStatus: string }) => boolean = () => true,
) {
  const gate = { open: true, url: '', close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!gate.open && holds(JSON.parse(body.toString()) as { paymentStatus: string })) {
        return void res.writeHead(503).end();
      }
      fetch(target(), {
        method: req.method,
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': req.headers['content-type'] ?? '',
        },
        body,
      }).then(
        async (answer) => res.writeHead(answer.status).end(await answer.text()),
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  gate.close = () => new Promise((resolve) => server.close(() => resolve()));
  return gate;
}

/** Retries a fifth of a second apart, for over three minutes: as long as a test holds a gate. */
export const GATE_RETRY = { ...FAST_RETRY, maxAttempts: 1000 };

/** What went wrong in `page`: uncaught errors, console errors (CSP included), HTTP >= 400. */
export function watchFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
  return failures;
}

/**
 * Registers a test file's hooks: one Chromium for the file, and for each test a fresh checkout
 * with its sandbox (with these options) and a page, whose failures are listed, all closed
 * afterwards. The returned object holds the current test's.
 */
export function shopPerTest({
  sandbox: sandboxOptions,
  checkout: checkoutOptions,
}: { sandbox?: SandboxOptions; checkout?: CheckoutOptions } = {}) {
  const shop = {} as {
    browser: Browser;
    checkout: Checkout;
    sandbox: Sandbox;
    page: Page;
    failures: string[];
    stop?: () => Promise<void>;
  };
  beforeAll(async () => {
    await prepareScreenshots();
    shop.browser = await launchChromium();
  });
  afterAll(() => shop.browser?.close());
  beforeEach(async () => {
    Object.assign(shop, await startCheckoutWithSandbox(sandboxOptions, checkoutOptions));
    shop.page = await shop.browser.newPage();
    shop.failures = watchFailures(shop.page);
  });
  afterEach(async () => {
    await shop.page?.close();
    await shop.stop?.();
  });
  return shop;
}

/** The views the shopper's pages are checked at: a laptop (a mouse) and a phone (touch). */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};

/**
 * Registers a test file's hooks for tests that look at the shop in a view of their choosing:
 * one Chromium and one checkout with its sandbox for the whole file (`checkoutOptions` as
 * startCheckoutWithSandbox's: `plain` for the plain pages), and `open(view)`, a page in a fresh
 * context of that view, light, whose CSP axe may pass (bypassCSP), closed after the test. The
 * returned object holds the file's.
 */
export function shopPerFile(checkoutOptions: CheckoutOptions & { plain?: boolean } = {}) {
  const shop = {} as {
    browser: Browser;
    checkout: Checkout;
    sandbox: Sandbox;
    stop?: () => Promise<void>;
    open(view: BrowserContextOptions): Promise<Page>;
  };
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    await prepareScreenshots();
    const [browser, started] = await Promise.all([
      launchChromium(),
      startCheckoutWithSandbox({}, checkoutOptions),
    ]);
    Object.assign(shop, { browser, ...started });
  });
  afterAll(async () => {
    await shop.stop?.();
    await shop.browser?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  shop.open = async (view) => {
    context = await shop.browser.newContext({ ...view, colorScheme: 'light', bypassCSP: true });
    return context.newPage();
  };
  return shop;
}

/** Screenshots for review, in a git-ignored folder. */
const SHOTS = new URL('../../artifacts/screenshots/', import.meta.url);
export const prepareScreenshots = () => mkdir(SHOTS, { recursive: true });
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

/**
 * axe's violations on the page as it is now, colour contrast included, as `id: node count`.
 * axe is injected by the test, so the page's context must bypass its CSP (bypassCSP: true);
 * once per document (a second check of the same page, in dark, finds it there).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    await page.addScriptTag({ content: await axeSource });
  }
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe;
    return (await axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.length}`);
  });
}

export const SCHEMES = ['light', 'dark'] as const;
export type Scheme = (typeof SCHEMES)[number];

/**
 * `look` at the page as it is in light, then switched to dark (prefers-color-scheme), then
 * back to light: each scheme's answer. The colours are CSS media queries alone, so one page
 * reached once shows both; what the shopper does in between happens once.
 */
export async function inBothSchemes<T>(
  page: Page,
  look: (colorScheme: Scheme) => Promise<T>,
): Promise<Record<Scheme, T>> {
  const seen = {} as Record<Scheme, T>;
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    seen[colorScheme] = await look(colorScheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return seen;
}

/**
 * A bank's button in the full list. The React checkout also lists its popular banks above it
 * (and, once paid, the last bank used), so a bank's name can be on two buttons.
 */
export const bankButton = (page: Page, bank: string) =>
  page.getByRole('list', { name: 'Banks', exact: true }).getByRole('button', { name: bank });

/**
 * Chooses a bank and goes on to the sandbox's bank page. On a desktop (a mouse, Playwright's
 * 1280 px) the React checkout offers "Scan with your phone" first: the shopper here pays on
 * this computer (the handoff itself is test/e2e/handoff.test.ts). The plain page has no
 * handoff: `handoff: false` goes straight to the bank.
 */
export async function chooseBank(page: Page, bank: string, { handoff = true } = {}) {
  await bankButton(page, bank).click();
  if (handoff) await page.getByRole('button', { name: 'Continue on this computer' }).click();
  await page.waitForURL(/\/bank\//);
}

/**
 * Approves the payment on the sandbox's bank page and waits until the return page's address,
 * with the payment's ids, has committed. The wait starts before the click: the return page
 * took the ids out of its address as soon as it had read them, which on a loaded machine came
 * before a wait started after the click looked (a run timed out so); it keeps them since
 * issue 45, and the early wait costs nothing.
 */
export async function approveAndReturn(page: Page) {
  await Promise.all([
    page.waitForURL(/\/return\?/, { waitUntil: 'commit' }),
    page.getByRole('button', { name: 'Approve' }).click(),
  ]);
}

/**
 * Changes every payment `page` creates at the sandbox in flight, as a shopper with developer
 * tools can: the JSON body of the POST to its payments endpoint is rewritten by `change`.
 */
export function tamperWithPayments(
  page: Page,
  sandbox: Sandbox,
  change: (payment: PaymentInitiation) => void,
) {
  return page.route(`${sandbox.url}/v1/payments`, async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.continue();
    const payment = request.postDataJSON() as PaymentInitiation;
    change(payment);
    await route.continue({ postData: JSON.stringify(payment) });
  });
}
