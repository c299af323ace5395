// @vitest-environment node
// Issue 47: a page whose Content-Security-Policy blocks the component's own styles. The
// component shows unstyled, and only the browser's console said so, naming neither the
// component nor the fix. In development, errorConsumer is told once, with the fix: for
// servicepay/hosted on the real window.Service (the standalone script as the sandbox's script
// host serves it), and for the root <ServicePay> without `nonce`. In a real headless Chromium.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_APPLICATION_ID } from '../../src/sandbox/index';
import { bundleForBrowser } from '../helpers/browser-bundle.mjs';
import { hostedOnSandbox } from './hosted/support';

const hosted = hostedOnSandbox();
let page: Page;

/** The errors the page's errorConsumer received, as `location: error`. */
const errorsIn = (target: Page) =>
  target.evaluate(() =>
    (window as unknown as { errors: { location: string; error: string }[] }).errors.map(
      ({ location, error }) => `${location}: ${error}`,
    ),
  );

describe('servicepay/hosted', () => {
  it('tells errorConsumer once, in development, that the page’s CSP blocked the service component’s styles, with the fix', async () => {
    const nonce = 'n0nce';
    // The scripts are allowed; the styles only from this origin, not by the nonce.
    hosted.server.page({
      cspNonce: nonce,
      csp: `script-src 'nonce-${nonce}' ${hosted.sandbox.url}; style-src 'self'`,
    });
    page = hosted.page = await hosted.browser.newPage();
    await page.goto(`${hosted.server.url}/page`);
    await page.waitForFunction(() => 'harness' in window);
    await page.evaluate(
      (props) =>
        (window as unknown as { harness: { mount(p: object): void } }).harness.mount(props),
      {
        scriptSrc: hosted.script,
        nonce,
        environment: 'SANDBOX',
        applicationId: SANDBOX_APPLICATION_ID,
        payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
      },
    );
    const log = () =>
      page.evaluate(() => (window as unknown as { harness: { log: unknown[][] } }).harness.log);
    // The component is there, unstyled; the banks arrive after the styles were refused.
    await page.getByRole('button', { name: 'Pay £12.50', disabled: false }).waitFor();
    await expect
      .poll(async () => (await log()).filter(([kind]) => kind == 'event'))
      .toContainEqual(['event', 0, 1, 'institutions_fetched']);
    expect((await log()).filter(([kind]) => kind == 'error')).toEqual([
      [
        'error',
        0,
        1,
        'fetchInstitutions',
        "servicepay: the page's Content-Security-Policy (style-src-elem) blocked the styles of the service's component (inline), so it shows unstyled: give its <style> elements your page's nonce: allow 'nonce-…' in style-src-elem and pass the same nonce as nonce",
      ],
    ]);
  });
});

describe('the root <ServicePay>', () => {
  let root: Server;
  let url: string;
  beforeAll(async () => {
    // Development React and the component, its banks from the sandbox.
    const app = await bundleForBrowser({
      stdin: {
        contents: `
          import { createElement } from 'react';
          import { createRoot } from 'react-dom/client';
          import { ServicePay } from './src/react/index';
          window.errors = [];
          createRoot(document.getElementById('root')).render(
            createElement(ServicePay, {
              environment: 'SANDBOX',
              applicationId: ${JSON.stringify(SANDBOX_APPLICATION_ID)},
              baseUrl: ${JSON.stringify(hosted.sandbox.url)},
              payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
              errorConsumer: (error) => window.errors.push(error),
            }),
          );
        `,
        resolveDir: new URL('../..', import.meta.url).pathname,
        loader: 'tsx',
      },
      define: { 'process.env.NODE_ENV': '"development"' },
    });
    root = createServer((req, res) => {
      if (req.url == '/app.js') {
        return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(app);
      }
      res
        .writeHead(200, {
          'Content-Type': 'text/html',
          'Content-Security-Policy': `script-src 'self'; style-src 'self'`,
        })
        .end(
          '<!doctype html><html lang="en"><head><title>Checkout</title></head><body><div id="root"></div><script type="module" src="/app.js"></script></body></html>',
        );
    });
    await new Promise<void>((resolve) => root.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(root.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => root?.close(resolve)));

  it('without nonce, under a CSP that blocks its <style> elements: errorConsumer told once, in development, with the fix', async () => {
    page = hosted.page = await hosted.browser.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Pay £12.50', disabled: false }).waitFor();
    await expect.poll(() => errorsIn(page)).not.toEqual([]);
    expect(await errorsIn(page)).toEqual([
      "fetchInstitutions: servicepay: the page's Content-Security-Policy (style-src-elem) blocked the component's styles, so it shows unstyled: pass your page's CSP nonce as nonce (the standalone script takes its own tag's), which its <style> elements then carry",
    ]);
  });
});
