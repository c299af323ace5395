// @vitest-environment node
// The standalone script's extras in a real headless Chromium: Service-<version>.min.js, loaded
// from the sandbox acting as the script host (spec 4.3), loads Service-extras-<version>.min.js
// from beside itself when the page's options ask for the extras, and renders them with its own
// Preact, inside the component (docs/handoff.md).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_APPLICATION_ID } from '../../src/sandbox/index';
import { launchChromium } from '../helpers/browser';
import { decodeQrFromPng } from '../helpers/qr-decode';
import { startCheckoutWithSandbox } from './support';
import type { Sandbox } from './support';

const { componentVersion: version } = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as { componentVersion: string };

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

let sandbox: Sandbox;
let stop: () => Promise<void>;
let page: Page;
/** What went wrong in the page: uncaught errors, console errors, HTTP >= 400. */
let failures: string[];
/** The script files the page asked the script host for. */
let scripts: string[];
/** The plain page's own server. */
let shop: Server | undefined;

beforeEach(async () => {
  ({ sandbox, stop } = await startCheckoutWithSandbox());
  // A desktop: a mouse that can hover, wider than a phone.
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  failures = [];
  scripts = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
  page.on(
    'request',
    (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname),
  );
});

afterEach(async () => {
  await page?.close();
  await new Promise((resolve) => (shop ? shop.close(resolve) : resolve(undefined)));
  shop = undefined;
  await stop?.();
});

/**
 * A plain page of a shop, served from this machine (a page fulfilled by the browser itself
 * would count as a public address, which Chromium forbids to load from the loopback script
 * host), that uses window.Service with `options`. Its status endpoint says PENDING. `before`:
 * markup above the script tag (say, a review's HTML the shop let through); `nonce`: the page
 * is under a nonce and 'strict-dynamic' CSP, as a strict shop is.
 */
async function openPlainPage(
  options: Record<string, unknown>,
  { before = '', nonce = '' } = {},
): Promise<void> {
  const n = nonce && ` nonce="${nonce}"`;
  const html = `<!doctype html><html lang="en"><head><title>Plain page</title></head><body>
    <main>${before}<div id="pay"></div></main>
    <script${n} src="${sandbox.url}/js/Service-${version}.min.js"></script>
    <script${n}>
      window.opened = [];
      const service = new window.Service(Object.assign({
        environment: 'SANDBOX',
        applicationId: ${JSON.stringify(SANDBOX_APPLICATION_ID)},
        baseUrl: ${JSON.stringify(sandbox.url)},
        openUrl: (url) => window.opened.push(url),
      }, ${JSON.stringify(options)}));
      service.createPayment({ amount: 12.5, paymentReference: 'ORDER-1042' });
      service.injectComponent('pay');
    </script></body></html>`;
  shop = createServer((req, res) => {
    if (req.url?.startsWith('/api/payments/status')) {
      // As createPaymentStatusHandler answers: a stream when asked for one, else JSON.
      const stream = req.headers.accept?.includes('text/event-stream');
      res
        .writeHead(200, { 'Content-Type': stream ? 'text/event-stream' : 'application/json' })
        .end(stream ? 'data: {"status":"PENDING"}\n\n' : '{"status":"PENDING"}');
    } else {
      const csp = nonce && `script-src 'nonce-${nonce}' 'strict-dynamic'`;
      res
        .writeHead(200, {
          'Content-Type': 'text/html',
          ...(csp && { 'Content-Security-Policy': csp }),
        })
        .end(html);
    }
  });
  await new Promise<void>((resolve) => shop!.listen(0, '127.0.0.1', resolve));
  const { port } = shop.address() as AddressInfo;
  await page.goto(`http://127.0.0.1:${port}/`);
}

it('loads its extras file beside itself and draws the featured banks with its own Preact', async () => {
  await openPlainPage({ featuredInstitutions: ['monzo', 'barclays'] });
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  const popular = page.getByRole('list', { name: 'Popular banks' });
  await expect
    .poll(() => popular.getByRole('button').allTextContents())
    .toEqual(['Monzo', 'Barclays']);
  expect(scripts).toEqual([
    `/js/Service-${version}.min.js`,
    `/js/Service-extras-${version}.min.js`,
  ]);
  // One component: a featured bank pays as any bank does (the extras share its session).
  await popular.getByRole('button', { name: 'Monzo' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { opened: string[] }).opened.length))
    .toBe(1);
  expect(failures).toEqual([]);
});

it('hands a payment to the phone on a desktop: the QR code holds the bank’s address', async () => {
  await openPlainPage({ statusUrl: '/api/payments/status' });
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await page.getByRole('list', { name: 'Banks' }).getByRole('button', { name: 'HSBC UK' }).click();
  await expect
    .poll(() => page.getByRole('heading', { name: 'Scan with your phone' }).count())
    .toBe(1);
  const qr = page.getByRole('img', { name: /HSBC UK/ });
  await qr.waitFor();
  const decoded = decodeQrFromPng(await qr.screenshot());
  expect(decoded).toMatch(new RegExp(`^${sandbox.url}/bank/`));
  // Not opened here: the address went to the phone.
  expect(await page.evaluate(() => (window as unknown as { opened: string[] }).opened)).toEqual([]);
  expect(failures).toEqual([]);
});

it('loads no extras file when the options ask for none', async () => {
  await openPlainPage({});
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await page.getByRole('list', { name: 'Banks' }).getByRole('button', { name: 'HSBC UK' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { opened: string[] }).opened.length))
    .toBe(1);
  expect(scripts).toEqual([`/js/Service-${version}.min.js`]);
  expect(failures).toEqual([]);
});

describe('HTML injected above the script tag that names an element currentScript (DOM clobbering)', () => {
  /** Another origin, whose extras file would run with the page's trust if it were loaded. */
  let evil: Server;
  let evilUrl: string;
  const evilRequests: string[] = [];
  beforeEach(async () => {
    evilRequests.length = 0;
    evil = createServer((req, res) => {
      evilRequests.push(req.url ?? '');
      if (req.url?.includes('Service-extras-')) {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end('window.pwned = true;');
      } else res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise((resolve) => evil.close(resolve)));

  /** The featured banks drawn by the extras: the component and its extras file both work. */
  async function featuredBanksShown(): Promise<void> {
    await page.getByRole('button', { name: 'Pay £12.50' }).click();
    await expect
      .poll(() =>
        page.getByRole('list', { name: 'Popular banks' }).getByRole('button').allTextContents(),
      )
      .toEqual(['Monzo', 'Barclays']);
  }

  it('an <img name="currentScript"> pointing at another origin: the extras still come from beside the script, under a nonce CSP', async () => {
    await openPlainPage(
      { featuredInstitutions: ['monzo', 'barclays'] },
      {
        before: `<img name="currentScript" alt="" src="${evilUrl}/js/Service-${version}.min.js">`,
        nonce: 'r4nd0m',
      },
    );
    await featuredBanksShown();
    expect(scripts).toEqual([
      `/js/Service-${version}.min.js`,
      `/js/Service-extras-${version}.min.js`,
    ]);
    expect(evilRequests.filter((url) => url.includes('extras'))).toEqual([]);
    expect(await page.evaluate(() => (window as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(failures).toEqual([]);
  });

  it('a <form name="currentScript">: the script does not throw, and the Pay button and extras work', async () => {
    await openPlainPage(
      { featuredInstitutions: ['monzo', 'barclays'] },
      { before: '<form name="currentScript"></form>' },
    );
    await featuredBanksShown();
    expect(failures).toEqual([]);
  });
});
