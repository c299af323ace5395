// The merchant's first hour, as docs/your-own-shop.md tells it: an app with the packed package,
// Express, Vite and tsx installed, the page's files (examples/vite-express) copied as they are,
// and its three commands (the sandbox, `npx tsx server.ts`, `npx vite`), on free ports instead
// of the page's. A shopper in Chromium pays the order the server made and reads "Payment
// received", confirmed by the server's verified, reconciled webhook; then pays again, is
// rejected, and Try again opens the bank list.
import { cpSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smokeApps } from './apps';
import { launchChromium } from '../helpers/browser';
import { freePort } from '../helpers/free-port';
import { REPO, run, startFixture } from './support';

const { react19: app } = await smokeApps();
const POLL = { timeout: 30_000 };
type Started = Awaited<ReturnType<typeof startFixture<string>>>;
const started: Started[] = [];
let browser: Browser;
let shopUrl: string;
let api: Started;
let shop: string;
let webhookUrl: string;
const bin = (name: string) => join(app, 'node_modules/.bin', name);

beforeAll(async () => {
  // A folder of its own inside the app, so `servicepay`, express and react resolve from the
  // app's node_modules as in a merchant's project.
  shop = mkdtempSync(join(app, 'own-shop-'));
  cpSync(join(REPO, 'examples/vite-express'), shop, { recursive: true });
  const [sandboxPort, apiPort, vitePort] = [await freePort(), await freePort(), await freePort()];
  shopUrl = `http://127.0.0.1:${vitePort}/`;
  webhookUrl = `http://127.0.0.1:${apiPort}/webhooks/servicepay`;
  const start = async (file: string, args: string[], ready: RegExp, env = {}) => {
    const command = await startFixture<string>(shop, file, {
      args,
      env: { NO_COLOR: '1', ...env },
      ready,
      startTimeoutMs: 60_000,
    });
    started.push(command);
    return command;
  };

  // 1. The sandbox: where to PUT webhooks, and where the bank sends the shopper back.
  const sandbox = `http://127.0.0.1:${sandboxPort}`;
  await start(
    bin('servicepay-sandbox'),
    [
      ...['--port', String(sandboxPort)],
      ...['--webhook-url', webhookUrl],
      ...['--web-callback-url', `${shopUrl}checkout/result`],
      ...['--key-file', '.sandbox-key.pem'],
    ],
    /running at/,
  );
  // 2. The API server, with the sandbox's public key.
  const key = await (await fetch(`${sandbox}/.well-known/signature/pem`)).text();
  api = await start(bin('tsx'), ['server.ts'], /Shop API at/, {
    PORT: String(apiPort),
    SERVICEPAY_PUBLIC_KEY: key,
  });
  // 3. The app, on Vite's dev server.
  await start(
    bin('vite'),
    ['--port', String(vitePort), '--strictPort', '--host', '127.0.0.1'],
    /Local:/,
    {
      API_URL: `http://127.0.0.1:${apiPort}`,
      VITE_SERVICEPAY_BASE_URL: sandbox,
    },
  );
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(
    started
      .splice(0)
      .reverse()
      .map((command) => command.stop()),
  );
});

/** The checkout as a shopper reaches it: Pay, a bank, and the sandbox's bank page. */
async function payAtTheBank(page: Page, decision: 'Approve' | 'Reject'): Promise<void> {
  await page.getByRole('button', { name: 'Pay £12.50' }).click();
  await page.getByRole('list', { name: 'Banks' }).getByRole('button', { name: 'Monzo' }).click();
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL(`${shopUrl}checkout/result?**`, POLL);
}

describe('your own shop: a Vite app beside an Express server, as the page says', () => {
  it('pays, comes back to the result page and reads "Payment received" from the verified webhook', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    const lines: string[] = [];
    page.on('console', (message) => {
      lines.push(message.text());
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    // The network panel: no request of the payment failed or was cancelled (the result page's
    // event stream, which it closes once the outcome is in, is not a request that completes;
    // nor is a bank's icon still loading when the shopper chose a bank and the page left for
    // it, which the browser cancels: on a loaded machine some are).
    page.on('requestfailed', (request) => {
      const leftBehind =
        request.resourceType() === 'image' && request.failure()?.errorText === 'net::ERR_ABORTED';
      if (request.resourceType() !== 'eventsource' && !leftBehind) {
        problems.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
      }
    });
    try {
      await page.goto(shopUrl);
      await payAtTheBank(page, 'Approve');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL)
        .toBe('Payment received');
      // The server made the order, and its receiver paid it: the payment matched it.
      expect(api.output()).toMatch(/order ORDER-\d+: paid by payment /);
      expect(api.output()).not.toMatch(/needs review|does not reconcile/);
      expect(problems).toEqual([]);
      // Whatever the library writes: one prefix a line.
      expect(lines.filter((line) => /servicepay:.*servicepay:/.test(line))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('after a rejection, Try again goes back to the checkout with the list of banks open', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(shopUrl);
      await payAtTheBank(page, 'Reject');
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL)
        .toBe('Payment not completed');
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.waitForURL(shopUrl, POLL);
      await expect
        .poll(() => page.getByRole('list', { name: 'Banks' }).getByRole('button').count(), POLL)
        .toBe(20);
      // The flag is gone from the address: a reload shows the checkout as it first was.
      expect(page.url()).toBe(shopUrl);
    } finally {
      await page.close();
    }
  });

  it('a delivery signed with another key: 401, and the server writes one line that says so', async () => {
    // send-webhook without --key-file signs with a key of its own: another environment's key,
    // as far as the server knows. Twice, as the service resends.
    const send = () =>
      run(
        process.execPath,
        [bin('servicepay-sandbox'), 'send-webhook', '--to', webhookUrl, '--status', 'COMPLETED'],
        { cwd: shop },
      ).then(
        () => 'answered 200',
        (error: Error) => error.message,
      );
    for (let i = 0; i < 2; i++) expect(await send()).toMatch(/HTTP 401/);
    const lines = api
      .output()
      .split('\n')
      .filter((line) => line.includes('signature'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^servicepay webhook: a delivery's signature did not verify with publicKey, so it was answered 401 .* Is the key this environment's/,
      ),
    ]);
  });
});
