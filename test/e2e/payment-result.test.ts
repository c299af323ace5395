// @vitest-environment node
// The result page in a real headless Chromium, where EventSource exists: React's
// <PaymentResult> (bundled from the sources) and the plain page's Service-result script (from
// dist/, served by the sandbox as the script host), each against a node:http status endpoint
// speaking Server-Sent Events (test/helpers/status-server.ts). The page turns from waiting to
// received without a reload; when the event stream fails, it polls. And against the real
// createPaymentStatusHandler on PostgreSQL, whose listening connection freezes behind a relay
// (a NAT dropping the idle flow): the page still turns to received.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESULT_MESSAGES as M, SAVED_PAYMENT_KEY } from '../../src/core/index';
import { startSandbox } from '../../src/sandbox/index';
import { createPaymentStatusHandler } from '../../src/webhook/index';
import { createPostgresStore } from '../../src/webhook/stores/postgres';
import { launchChromium } from '../helpers/browser';
import { bundleForBrowser } from '../helpers/browser-bundle.mjs';
import { startStatusServer } from '../helpers/status-server';
import type { StatusServer, StatusServerOptions } from '../helpers/status-server';
import { listen } from '../webhook/support/http';
import type { TestServer } from '../webhook/support/http';
import { eventually } from '../webhook/support/outcomes';
import { startRelay, throughRelay } from '../webhook/support/relay';
import { startPostgres } from '../webhook/support/servers.mjs';
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
            reviewContact: 'Questions? Call us on 020 7946 0000, 9am to 5pm.',
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

/**
 * Opens the result page at `path` with `query` (the return address's ids). `saved`: the payment
 * this tab saved before it went to the bank, as the Pay component does (SAVED_PAYMENT_KEY).
 */
async function open(
  path: string,
  options: StatusServerOptions = {},
  dark = false,
  { saved, query = QUERY }: { saved?: typeof IDS; query?: string } = {},
) {
  server = await startStatusServer({ ...options, routes: pages(reactBundle, () => sandbox.url) });
  page = await browser.newPage({
    bypassCSP: true,
    colorScheme: dark ? 'dark' : 'light',
    viewport: dark ? { width: 390, height: 844 } : { width: 1200, height: 800 },
  });
  if (saved) {
    // The shop's origin in this tab, before the bank (a 404 page: any page of the origin).
    await page.goto(`${server.url}/checkout`);
    await page.evaluate(
      ([key, ids]) => sessionStorage.setItem(key!, ids!),
      [SAVED_PAYMENT_KEY, JSON.stringify(saved)],
    );
  }
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  await page.goto(server.url + path + query);
  // Marks this document: a reload or a navigation would lose it.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
}

const heading = (name: string) => page.getByRole('heading', { level: 1, name });
const sameDocument = () => page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument);
/** The page's address as the browser shows it (and sends in Referer). */
const address = () => page.evaluate(() => location.href);

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
    // The address still names the payment, so a reload (or a bookmark) finds it.
    expect(await address()).toBe(`${server.url}/react/result${QUERY}`);
    await page.reload();
    await heading(M.received).waitFor(WAIT);
    expect(server.requests.at(-1)).toMatchObject(IDS);
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

  it('React: a payment that needs checking, in its own colour, axe clean light and dark', async () => {
    const colours: string[] = [];
    for (const dark of [false, true]) {
      await open('/react/result', {}, dark);
      await heading(M.waiting).waitFor();
      await expect.poll(() => server.openStreams, WAIT).toBe(1);
      server.record(IDS, 'NEEDS_REVIEW');
      await heading(M.needsReview).waitFor(WAIT);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe(M.needsReview);
      await page.getByText('Questions? Call us on 020 7946 0000, 9am to 5pm.').waitFor();
      expect(await page.evaluate(() => (window as { outcomes?: unknown }).outcomes)).toEqual([
        { ...IDS, status: 'NEEDS_REVIEW' },
      ]);
      // The icon's colour is the review colour, neither success's nor failure's.
      const stroke = await page.evaluate(() => {
        const css = getComputedStyle(document.querySelector('.service-result')!);
        const icon = getComputedStyle(document.querySelector('.service-result-icon')!).stroke;
        const probe = (name: string) => {
          const span = document.body.appendChild(document.createElement('span'));
          span.style.color = css.getPropertyValue(name);
          const value = getComputedStyle(span).color;
          span.remove();
          return value;
        };
        return { icon, success: probe('--service-success'), error: probe('--service-error') };
      });
      expect(stroke.icon).not.toBe(stroke.success);
      expect(stroke.icon).not.toBe(stroke.error);
      colours.push(stroke.icon);
      expect(await axeViolations(page)).toEqual([]);
      await shot(page, `payment-result-needs-review${dark ? '-390-dark' : ''}`);
      expect(failures).toEqual([]);
      await page.close();
      await server.close();
    }
    expect(colours).toEqual(['rgb(109, 40, 217)', 'rgb(196, 181, 253)']);
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

  // A crafted return link (finding 5): the attacker's own paid pair, sent to a shopper whose
  // tab started a payment of its own that is not paid.
  const ATTACKER = { paymentId: '0b8f3a52-61d4-4c8e-9f7a-2d5e6c1b4a93', merchantPaymentId: 'x-1' };
  const CRAFTED = `?paymentId=${ATTACKER.paymentId}&merchantPaymentId=${ATTACKER.merchantPaymentId}&utm=mail`;
  for (const [name, path] of [
    ['React', '/react/result'],
    ['the plain page', '/plain/result'],
  ] as const) {
    it(`${name}: a crafted link with another payment's paid ids does not replace this tab's own payment`, async () => {
      await open(path, {}, false, { saved: IDS, query: CRAFTED });
      server.record(ATTACKER, 'COMPLETED');
      await heading(M.waiting).waitFor(WAIT);
      await expect.poll(() => server.requests.length, WAIT).toBeGreaterThan(0);
      // Only this tab's payment is asked about, and the address names it; the rest stays.
      expect(server.requests.map(({ paymentId }) => paymentId)).toEqual([IDS.paymentId]);
      expect(await address()).toBe(`${server.url}${path}${QUERY}&utm=mail`);
      server.record(IDS, 'FAILED');
      await heading(M.notCompleted).waitFor(WAIT);
      expect(
        await page.evaluate(() => (window as { outcomes?: unknown[] }).outcomes ?? []),
      ).not.toContainEqual(expect.objectContaining(ATTACKER));
      expect(await sameDocument()).toBe(true);
      expect(failures).toEqual([]);
    });
  }

  it('the plain page in a fresh tab (the phone after a QR handoff): the address’s ids, which stay for a reload', async () => {
    await open('/plain/result');
    await heading(M.waiting).waitFor(WAIT);
    expect(await address()).toBe(`${server.url}/plain/result${QUERY}`);
    server.record(IDS, 'COMPLETED');
    await heading(M.received).waitFor(WAIT);
    await page.reload();
    await heading(M.received).waitFor(WAIT);
    expect(new Set(server.requests.map(({ paymentId }) => paymentId))).toEqual(
      new Set([IDS.paymentId]),
    );
    expect(failures).toEqual([]);
  });
});

describe('the result page on the real status endpoint, in Chromium', () => {
  it('the store’s listening connection freezes mid-wait: the page still turns to received', async () => {
    const database = await startPostgres();
    const relay = await startRelay({ host: '127.0.0.1', port: Number(new URL(database.url).port) });
    // This instance's connections pass the relay; idle ones close at once, so that the freeze
    // catches the listening connection alone. The receiver's instance goes straight.
    const relayed = new pg.Pool({
      connectionString: throughRelay(database.url, relay),
      idleTimeoutMillis: 50,
      application_name: 'shop',
    });
    const direct = new pg.Pool({ connectionString: database.url });
    for (const pool of [relayed, direct]) pool.on('error', () => {});
    const store = createPostgresStore({ pool: relayed, listenerCheckMs: 1000 });
    const receiver = createPostgresStore({ pool: direct });
    const status = createPaymentStatusHandler({ store });
    const routes = pages(reactBundle, () => sandbox.url);
    let shop: TestServer | undefined;
    /** What the page asked the status endpoint: how it listened. */
    const asked: string[] = [];
    try {
      await store.readOutcome(IDS.paymentId); // the tables exist
      shop = await listen((req, res) => {
        if (routes(req, res)) return;
        asked.push(req.headers.accept ?? '');
        status(req, res);
      });
      page = await browser.newPage({ bypassCSP: true });
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(`${shop.url}/react/result${QUERY}`);
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await heading(M.waiting).waitFor();
      // The page's stream listens on the one connection the store holds; then the flow dies.
      const listeners = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'shop' AND query ILIKE 'LISTEN%'`;
      await eventually(
        async () => [
          (await direct.query(listeners)).rows[0].n,
          relayed.totalCount,
          relayed.idleCount,
        ],
        ([listening, total, idle]) => listening === 1 && total === 1 && idle === 0,
      );
      relay.freeze();

      await receiver.recordOutcome(
        { ...IDS, status: 'COMPLETED', recordedAt: new Date().toISOString() },
        60_000,
      );
      await heading(M.received).waitFor(WAIT);
      expect(await sameDocument()).toBe(true);
      // Heard on the stream it opened first, once the store listened again: no polling.
      expect(asked).toEqual(['text/event-stream']);
      expect(failures).toEqual([]);
    } finally {
      await page?.close();
      await status.close();
      await Promise.all([store.close(), receiver.close()]);
      await shop?.close();
      await relay.close();
      await Promise.all([relayed.end(), direct.end()]);
      await database.stop();
    }
  });
});
