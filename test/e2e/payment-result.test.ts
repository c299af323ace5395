// @vitest-environment node
// The result page in a real headless Chromium, where EventSource exists: React's
// <PaymentResult> (bundled from the sources) and the plain page's Service-result script (from
// dist/, served by the sandbox as the script host), each against a node:http status endpoint
// speaking Server-Sent Events (test/helpers/status-server.ts). The page turns from waiting to
// received without a reload; when the event stream fails, it polls.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_MESSAGES as M } from '../../src/core/index';
import { startSandbox } from '../../src/sandbox/index';
import { launchChromium } from '../helpers/browser';
import { bundleForBrowser } from '../helpers/browser-bundle.mjs';
import { startStatusServer } from '../helpers/status-server';
import type { StatusServer, StatusServerOptions } from '../helpers/status-server';
import { axeViolations, prepareScreenshots, shot } from './support';

const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };
const QUERY = `?paymentId=${IDS.paymentId}&merchantPaymentId=${IDS.merchantPaymentId}`;
const WAIT = { timeout: 20_000 };
const { componentVersion } = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as { componentVersion: string };

/** The merchant's result page in React: <PaymentResult> and nothing else. */
async function bundleReactPage(): Promise<string> {
  return bundleForBrowser({
    stdin: {
      contents: `
        import { createElement } from 'react';
        import { createRoot } from 'react-dom/client';
        import { PaymentResult } from '../../src/react/index';
        createRoot(document.getElementById('root')).render(
          createElement(PaymentResult, {
            statusUrl: '/api/payments/status',
            headingLevel: 1,
            onResult: (outcome) => { window.outcomes = [...(window.outcomes ?? []), outcome]; },
          }),
        );`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}

const html = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Your order</title></head><body><main>${body}</main></body></html>`;

/** Serves the result pages beside the status endpoint, on one origin (no CORS involved). */
function pages(reactBundle: string, scriptHost: () => string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const send = (type: string, body: string) =>
      void res.writeHead(200, { 'Content-Type': type }).end(body);
    if (path === '/react/result') {
      send('text/html', html('<div id="root"></div><script type="module" src="/app.js"></script>'));
    } else if (path === '/app.js') {
      send('text/javascript', reactBundle);
    } else if (path === '/plain/result') {
      send(
        'text/html',
        html(`<div id="payment-result"></div>
          <script src="${scriptHost()}/js/Service-result-${componentVersion}.min.js"></script>
          <script>new ServiceResult({ statusUrl: '/api/payments/status', headingLevel: 1 }).injectComponent('payment-result');</script>`),
      );
    } else return false;
    return true;
  };
}

let browser: Browser;
let reactBundle: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  await prepareScreenshots();
  [browser, reactBundle, sandbox] = await Promise.all([
    launchChromium(),
    bundleReactPage(),
    startSandbox({ port: 0 }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

let server: StatusServer;
let page: Page;
/** What went wrong in the page: uncaught errors and console errors. */
let failures: string[];
beforeEach(() => {
  failures = [];
});
afterEach(async () => {
  await page?.close();
  await server?.close();
});

async function open(path: string, options: StatusServerOptions = {}, dark = false) {
  server = await startStatusServer({ ...options, routes: pages(reactBundle, () => sandbox.url) });
  page = await browser.newPage({
    bypassCSP: true,
    colorScheme: dark ? 'dark' : 'light',
    viewport: dark ? { width: 390, height: 844 } : { width: 1200, height: 800 },
  });
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  await page.goto(server.url + path + QUERY);
  // Marks this document: a reload or a navigation would lose it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
}

const heading = (name: string) => page.getByRole('heading', { level: 1, name });
const sameDocument = () => page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument);

describe('the result page in Chromium', () => {
  it('React: waiting, then received from the event stream, without a reload', async () => {
    await open('/react/result');
    await heading(M.waiting).waitFor();
    await expect.poll(() => server.openStreams, WAIT).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    server.record(IDS, 'COMPLETED');
    await heading(M.received).waitFor(WAIT);
    expect(await sameDocument()).toBe(true);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(M.received);
    expect(await page.evaluate(() => (window as { outcomes?: unknown }).outcomes)).toEqual([
      { ...IDS, status: 'COMPLETED' },
    ]);
    // Only the stream was used: no polling beside it.
    expect(server.requests.map((r) => `${r.accept} ${r.code}`)).toEqual(['text/event-stream 200']);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'payment-result-received');
    expect(failures).toEqual([]);
  });

  it('React: polls when the event stream fails, and still turns to received (dark, 390 px)', async () => {
    await open('/react/result', { eventStream: 'fail' }, true);
    await heading(M.waiting).waitFor();
    // The stream was refused; the page asks with plain JSON requests instead.
    await expect
      .poll(() => server.requests.filter((r) => r.accept === 'application/json').length, WAIT)
      .toBeGreaterThan(0);
    expect(server.requests[0]).toMatchObject({ accept: 'text/event-stream', code: 500 });
    server.record(IDS, 'FAILED');
    await heading(M.notCompleted).waitFor(WAIT);
    expect(await sameDocument()).toBe(true);
    expect(server.requests.filter((r) => r.accept === 'text/event-stream')).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'payment-result-not-completed-390-dark');
    // The refused stream is the only error the browser logs.
    expect(failures.filter((f) => !f.includes('500'))).toEqual([]);
  });

  it('the plain page: Service-result script from the sandbox’s script host, over the event stream', async () => {
    await open('/plain/result');
    await heading(M.waiting).waitFor(WAIT);
    await expect.poll(() => server.openStreams, WAIT).toBe(1);
    server.record(IDS, 'COMPLETED');
    await heading(M.received).waitFor(WAIT);
    expect(await sameDocument()).toBe(true);
    expect(await page.evaluate(() => typeof (window as { Service?: unknown }).Service)).toBe(
      'undefined',
    );
    expect(server.requests.map((r) => r.accept)).toEqual(['text/event-stream']);
    expect(await axeViolations(page)).toEqual([]);
    expect(failures).toEqual([]);
  });
});
