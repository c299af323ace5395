// @vitest-environment node
// The handoff's QR code as a phone would see it: drawn by a real Chromium, screenshotted, and
// read back with a QR decoder (test/helpers/qr-decode.ts, jsQR). First the SVG of `qrPath`
// alone at 4 px a module, for addresses from a sandbox's to a real bank's long one; then
// <HandoffPanel> itself (bundled from the sources) inside the component's root, in light and
// dark colour schemes, where the code must stay dark on its white plate, with axe's colour
// contrast on the whole panel and the outcome followed from a status endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HANDOFF_MESSAGES as H, DEFAULT_RESULT_MESSAGES as M } from '../../src/core/index';
import type { Handoff } from '../../src/core/index';
import { qrPath } from '../../src/react/qr';
import { launchChromium } from '../helpers/browser';
import { bundleForBrowser } from '../helpers/browser-bundle.mjs';
import { decodeQrFromPng } from '../helpers/qr-decode';
import { startStatusServer } from '../helpers/status-server';
import type { StatusServer } from '../helpers/status-server';
import { axeViolations, prepareScreenshots, shot } from './support';

const WAIT = { timeout: 20_000 };

/** A sandbox's authorisation address: short. */
const SHORT = 'http://127.0.0.1:41234/bank/7c9e6679-7425-40de-944b-e07fc1f90ae7';
/** About 150 characters: a typical bank's address with a handful of parameters. */
const TYPICAL =
  'https://auth.examplebank.co.uk/oauth2/authorize?client_id=sp-merchant-1042&response_type=code&scope=payments&state=Yz8fQ1xK0a&consent=pc-4fd0a9e1';
/**
 * A long one, as some banks give: an OpenID request object (a signed JWT) in the query. Its
 * code is wider than the panel, which shrinks it.
 */
const LONG = `https://ob.examplebank.co.uk/as/authorization.oauth2?client_id=7c9e6679742540de&response_type=code%20id_token&scope=openid%20payments&redirect_uri=https%3A%2F%2Fpay.servicepay.example%2Fcallback&state=b1d2c3e4f5&nonce=a9b8c7d6e5&request=${'eyJhbGciOiJQUzI1NiIsImtpZCI6IjEyMyJ9.'}${'eyJpc3MiOiI3YzllNjY3OTc0MjU0MGRlIiwiYXVkIjoiaHR0cHM6Ly9vYi5leGFtcGxlYmFuay5jby51ayIsImNsYWltcyI6eyJpZF90b2tlbiI6eyJvcGVuYmFua2luZ19pbnRlbnRfaWQiOnsidmFsdWUiOiJwYy00ZmQwYTllMSIsImVzc2VudGlhbCI6dHJ1ZX19fX0'.repeat(3)}.c2lnbmF0dXJlLXBsYWNlaG9sZGVyLXRoYXQtaXMtbG9uZy1lbm91Z2gtdG8tbG9vay1yZWFs`;

const HANDOFF: Handoff = {
  url: TYPICAL,
  paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  merchantPaymentId: 'order-1042',
  institution: { id: 'barclays', name: 'Barclays' },
};

/** The SVG the panel draws for `text`, alone, at 4 px a module. */
function svgOf(text: string): { markup: string; px: number } {
  const { size, d } = qrPath(text);
  const box = size + 8;
  return {
    px: box * 4,
    markup: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-4 -4 ${box} ${box}" width="${box * 4}" height="${box * 4}" shape-rendering="crispEdges"><rect x="-4" y="-4" width="${box}" height="${box}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`,
  };
}

/**
 * A page that renders <HandoffPanel> in the component's root, with its stylesheets: with React,
 * or with Preact's core as the Preact builds compile it (rollup.config.mjs's aliases).
 */
async function bundlePanelPage(framework: 'react' | 'preact'): Promise<string> {
  const mount =
    framework === 'react'
      ? `import { createRoot } from 'react-dom/client';
         const show = (element) => createRoot(root).render(element);`
      : `import { render } from 'preact';
         const show = (element) => render(element, root);`;
  return bundleForBrowser({
    framework,
    stdin: {
      contents: `
        import { createElement } from '${framework}';
        import { HandoffPanel } from '../../src/react/Handoff';
        import { injectStylesheet } from '../../src/react/styles';
        import serviceCss from '../../src/styles/service.css?raw';
        import themeCss from '../../src/styles/theme.css?raw';
        ${mount}
        const root = document.getElementById('root');
        injectStylesheet('service', themeCss + serviceCss);
        show(
          createElement(HandoffPanel, {
            handoff: JSON.parse(root.dataset.handoff),
            statusUrl: '/api/payments/status',
            id: 'sp-',
            cx: (service) => service,
            onContinueHere: () => { window.continued = (window.continued ?? 0) + 1; },
            onTryAgain: () => {},
            onResult: (outcome) => { window.outcomes = [...(window.outcomes ?? []), outcome]; },
          }),
        );`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Serves the panel's page (the handoff in the root's data) beside the status endpoint. */
function pages(bundles: Record<'react' | 'preact', string>, handoff: () => Handoff) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const send = (type: string, body: string) =>
      void res.writeHead(200, { 'Content-Type': type }).end(body);
    if (path === '/checkout') {
      send(
        'text/html',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body><main><h1>Checkout</h1><div id="root" class="service-root" data-handoff="${escape(JSON.stringify(handoff()))}"></div><script type="module" src="/${new URL(req.url ?? '/', 'http://localhost').searchParams.get('with') ?? 'react'}.js"></script></main></body></html>`,
      );
    } else if (path === '/react.js' || path === '/preact.js') {
      send('text/javascript', bundles[path === '/react.js' ? 'react' : 'preact']);
    } else return false;
    return true;
  };
}

let browser: Browser;
let bundles: Record<'react' | 'preact', string>;
let page: Page | undefined;
let server: StatusServer | undefined;
beforeAll(async () => {
  await prepareScreenshots();
  let react: string, preact: string;
  [browser, react, preact] = await Promise.all([
    launchChromium(),
    bundlePanelPage('react'),
    bundlePanelPage('preact'),
  ]);
  bundles = { react, preact };
});
afterEach(async () => {
  await page?.close();
  await server?.close();
  page = server = undefined;
});
afterAll(() => browser?.close());

describe('qrPath in Chromium', () => {
  it.each([
    ['a sandbox address', SHORT],
    ['a typical bank address', TYPICAL],
    ['a long address with a request object', LONG],
  ])('%s: 4 px a module, read back to the very address', async (_, url) => {
    const { markup, px } = svgOf(url);
    page = await browser.newPage({ viewport: { width: 800, height: 800 } });
    await page.setContent(`<body style="margin:0;background:#fff">${markup}</body>`);
    const png = await page.locator('svg').screenshot();
    expect(png.readUInt32BE(16)).toBe(px); // the PNG's width: no scaling on the way
    expect(decodeQrFromPng(png)).toBe(url);
  });

  it('the decoder reads nothing where there is no code', async () => {
    page = await browser.newPage({ viewport: { width: 200, height: 200 } });
    await page.setContent('<body style="margin:0;background:#fff"><p>No code here</p></body>');
    expect(decodeQrFromPng(await page.screenshot())).toBeNull();
  });
});

describe('<HandoffPanel> in Chromium', () => {
  async function open(handoff: Handoff, dark: boolean, framework: 'react' | 'preact' = 'react') {
    server = await startStatusServer({ routes: pages(bundles, () => handoff) });
    page = await browser.newPage({
      bypassCSP: true,
      colorScheme: dark ? 'dark' : 'light',
      viewport: { width: 1200, height: 900 },
    });
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
    await page.goto(`${server.url}/checkout?with=${framework}`);
    await page.getByRole('heading', { name: H.handoffHeading }).waitFor();
    return { page, server, failures };
  }

  for (const dark of [false, true]) {
    const scheme = dark ? 'dark' : 'light';
    it(`${scheme}: the code scans to the bank's address, axe is clean, the outcome follows`, async () => {
      const { page, server, failures } = await open(HANDOFF, dark);
      const qr = page.getByRole('img', { name: H.qrAlt('Barclays') });
      const png = await qr.screenshot();
      expect(decodeQrFromPng(png)).toBe(TYPICAL);
      // Dark modules on a white plate in both schemes: the quiet zone is white.
      const { data, width } = PNG.sync.read(png);
      const at = (8 * width + 8) * 4;
      expect([...data.subarray(at, at + 3)]).toEqual([255, 255, 255]);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(H.handoffHeading);
      expect(await page.getByText(TYPICAL).isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `handoff-waiting-${scheme}`);

      await page.getByRole('button', { name: H.continueHere }).click();
      expect(await page.evaluate(() => (window as { continued?: number }).continued)).toBe(1);

      server.record(HANDOFF, 'COMPLETED');
      await page.getByRole('heading', { name: M.received }).waitFor(WAIT);
      expect(await qr.count()).toBe(0);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe(M.received);
      expect(await page.evaluate(() => (window as { outcomes?: unknown }).outcomes)).toEqual([
        {
          paymentId: HANDOFF.paymentId,
          merchantPaymentId: HANDOFF.merchantPaymentId,
          status: 'COMPLETED',
        },
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `handoff-received-${scheme}`);
      expect(failures).toEqual([]);
    });
  }

  it('a long address: its code shrinks to the panel and still scans; the address wraps', async () => {
    const { page } = await open({ ...HANDOFF, url: LONG }, true);
    const qr = page.getByRole('img', { name: H.qrAlt('Barclays') });
    const box = (await qr.boundingBox())!;
    const panel = (await page.locator('section').boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(panel.width);
    expect(box.width).toBeLessThan((qrPath(LONG).size + 8) * 4);
    expect(decodeQrFromPng(await qr.screenshot())).toBe(LONG);
    // The address wraps inside the panel: nothing scrolls sideways.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await shot(page, 'handoff-long-address-dark');
  });

  it('Preact’s core renders the same markup as React, waiting and received', async () => {
    const markup: string[][] = [];
    for (const framework of ['react', 'preact'] as const) {
      const opened = await open(HANDOFF, false, framework);
      const root = () => opened.page.locator('#root').innerHTML();
      const states = [await root()];
      opened.server.record(HANDOFF, 'COMPLETED');
      await opened.page.getByRole('heading', { name: M.received }).waitFor(WAIT);
      states.push(await root());
      markup.push(states);
      expect(opened.failures).toEqual([]);
      await page?.close();
      await server?.close();
      page = server = undefined;
    }
    expect(markup[0]![0]).toContain('shape-rendering: crispedges');
    expect(markup[1]).toEqual(markup[0]);
  });
});
