// @vitest-environment node
// The sandbox's deliveries page as a webhook workbench (issue 24), in a real headless Chromium
// under the page's own CSP: a receiver that verifies a re-serialised body gets 401s and the
// page says why, live; Resend after swapping in the library's receiver turns it green; "twice
// at once" against the library's receiver does the work once while every copy gets its 200; a
// page on another origin can neither resend nor break anything; and axe, colour contrast
// included, on every sandbox page in light and dark at 1280 and 390 px. Screenshots go to
// artifacts/screenshots/deliveries-*.png.
import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index';
import { SIGNATURE_DOCS } from '../../src/sandbox/deliveries/hints';
import {
  MemoryIdempotencyStore,
  createWebhookHandler,
  verifyWebhookSignature,
} from '../../src/webhook/index';
import { launchChromium } from '../helpers/browser';
import { listenOnFreePort } from '../helpers/free-port';
import { sandboxKeyFile } from '../helpers/sandbox-key';
import { SCHEMES, axeViolations, inBothSchemes, prepareScreenshots, shot } from './support';
import type { Sandbox, Scheme } from './support';

let browser: Browser;
beforeAll(async () => {
  await prepareScreenshots();
  browser = await launchChromium();
});
afterAll(() => browser?.close());

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A merchant's server on 127.0.0.1 whose request handler the test can swap while it runs. */
async function merchantServer(first: RequestListener) {
  let current = first;
  const server: Server = createServer((req, res) => current(req, res));
  const port = await listenOnFreePort(server);
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${port}/webhooks/servicepay`,
    swap(next: RequestListener) {
      current = next;
    },
  };
}

/** The classic mistake: parse the body, then verify a re-serialised copy of it. */
function parsingReceiver(publicKey: () => string): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reserialised = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString()), null, 2);
      const ok = verifyWebhookSignature(reserialised, req.headers.authorization, publicKey());
      res.writeHead(ok ? 200 : 401, { 'Content-Type': 'text/plain' });
      res.end(ok ? 'ok' : 'invalid signature');
    });
  };
}

async function sandboxFor(webhookUrl: string, log?: (line: string) => void): Promise<Sandbox> {
  const sandbox = await startSandbox({
    port: 0,
    webhookUrl,
    retry: { initialDelayMs: 20, factor: 2, maxDelayMs: 100, maxAttempts: 3 },
    log,
    keyFile: sandboxKeyFile,
  });
  cleanups.push(() => sandbox.stop());
  return sandbox;
}

async function newPayment(sandbox: Sandbox): Promise<string> {
  const response = await fetch(`${sandbox.url}/v1/payments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      environment: 'SANDBOX',
      applicationId: sandbox.applicationId,
      institutionId: 'monzo',
      paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
      merchantPaymentId: 'order-1042',
      paymentMetadata: { orderId: 1042 },
      agentType: 'WEB_BROWSER',
    }),
  });
  return ((await response.json()) as { paymentId: string }).paymentId;
}

/** A page under the sandbox's own CSP, failing the test on any console error or CSP report. */
async function strictPage(): Promise<{ page: Page; failures: string[] }> {
  const context = await browser.newContext();
  cleanups.push(() => context.close());
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  return { page, failures };
}

/** Waits are bounds for a loaded machine, not speed checks. */
const POLL = { timeout: 20_000 };

const section = (page: Page, paymentId: string) => page.locator(`section[id="n-${paymentId}"]`);
const verdict = (page: Page, paymentId: string) => section(page, paymentId).locator('.verdict');

describe('the deliveries page in a browser', () => {
  it('names the cause of 401s live, and Resend turns the delivery green once the receiver is fixed', async () => {
    const merchant = await merchantServer(parsingReceiver(() => sandbox.publicKey));
    const sandbox = await sandboxFor(merchant.url);
    const { page, failures } = await strictPage();
    await page.goto(`${sandbox.url}/deliveries`);
    await page.getByText('No delivery attempts yet.').waitFor();
    // Set once: still there at the end only if the page was never reloaded.
    await page.evaluate(() => ((window as unknown as { opened: boolean }).opened = true));

    const paymentId = await newPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await expect.poll(() => verdict(page, paymentId).textContent(), POLL).toBe('Gave up');
    expect(await page.evaluate(() => (window as unknown as { opened?: boolean }).opened)).toBe(
      true,
    );
    const attempts = section(page, paymentId).locator('tbody tr');
    expect(await attempts.count()).toBe(3);
    const text = await section(page, paymentId).innerText();
    expect(text).toContain('HTTP 401');
    expect(text).toContain('the body was parsed or re-serialised before verification');
    const docs = section(page, paymentId).getByRole('link', {
      name: 'Troubleshooting: genuine deliveries get 401',
    });
    expect(await docs.first().getAttribute('href')).toBe(SIGNATURE_DOCS);
    // One polite summary for the three attempts, not an announcement per row.
    const live = page.locator('#deliveries-live');
    expect(await live.getAttribute('aria-live')).toBe('polite');
    await expect
      .poll(() => live.textContent(), { timeout: 10_000 })
      .toMatch(
        /^3 new attempts since this page opened\. Latest: payment [0-9a-f]{8}…, HTTP 401, gave up\.$/,
      );
    await shot(page, 'deliveries-1-401');

    // The merchant fixes the receiver: the library's handler verifies the bytes received.
    const handled: string[] = [];
    merchant.swap(
      createWebhookHandler({
        publicKey: sandbox.publicKey,
        expectedPayment: 'unreconciled',
        onNotification: (notification) => {
          handled.push(notification.paymentId);
        },
      }),
    );
    await section(page, paymentId).getByRole('button', { name: 'Resend', exact: true }).click();
    await page.waitForURL(`${sandbox.url}/deliveries#n-${paymentId}`);
    await expect.poll(() => verdict(page, paymentId).textContent(), POLL).toBe('Delivered');
    expect(await verdict(page, paymentId).getAttribute('class')).toContain('verdict-delivered');
    // Green: the stylesheet's --primary, light scheme.
    expect(await verdict(page, paymentId).evaluate((el) => getComputedStyle(el).color)).toBe(
      'rgb(11, 93, 42)',
    );
    expect(await section(page, paymentId).locator('tbody tr').first().innerText()).toMatch(
      /^HTTP 200[\s\S]*\sdelivered\s+2 · resend\s+1\s/,
    );
    await shot(page, 'deliveries-2-resent');
    expect(handled).toEqual([paymentId]);
    // The resend carried the same bytes and signature as the attempts the old receiver refused.
    const requests = sandbox.deliveries
      .filter((a) => a.paymentId === paymentId)
      .map((a) => a.request);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(failures).toEqual([]);
  });

  it('"twice at once" from the page: the library’s receiver does the work once, both copies get 200', async () => {
    let arrived = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    let runs = 0;
    const merchant = await merchantServer(() => {});
    const sandbox = await sandboxFor(merchant.url);
    const handler = createWebhookHandler({
      publicKey: sandbox.publicKey,
      expectedPayment: 'unreconciled',
      store: new MemoryIdempotencyStore(),
      // Still working when the second copy comes in: only copies sent at once get here so.
      onNotification: async () => {
        runs += 1;
        await both;
      },
    });
    merchant.swap((req, res) => {
      arrived += 1;
      if (arrived === 2) bothArrived();
      void handler(req, res);
    });

    const { page, failures } = await strictPage();
    await page.goto(`${sandbox.url}/deliveries`);
    const form = page.locator('#break');
    await form.getByText('Arm faults', { exact: true }).click();
    await form.getByLabel('Twice at once: two copies at the same moment').check();
    await form.getByLabel('How many').fill('1');
    await form.getByRole('button', { name: 'Arm these faults' }).click();
    await page.waitForURL(`${sandbox.url}/deliveries#break`);
    expect(await form.innerText()).toContain('The next 1 notification: twice at once');

    const paymentId = await newPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await expect
      .poll(() => section(page, paymentId).locator('tbody tr').allInnerTexts(), POLL)
      .toEqual([
        expect.stringMatching(/^HTTP 200[\s\S]*\sdelivered\s/),
        expect.stringMatching(/^HTTP 200[\s\S]*\sdelivered\s/),
      ]);
    const rows = await section(page, paymentId).locator('tbody tr').allInnerTexts();
    expect(rows.some((row) => row.includes('2 · twice at once'))).toBe(true);
    expect(rows.some((row) => row.includes('1 · first'))).toBe(true);
    expect(runs).toBe(1);
    const copies = sandbox.deliveries.filter((a) => a.paymentId === paymentId);
    expect(copies.map((a) => [a.copy, a.status]).sort()).toEqual([
      [1, 200],
      [2, 200],
    ]);
    // Used up: the armed list changed on the open page too.
    await expect.poll(() => form.innerText(), POLL).toContain('Nothing armed');
    await shot(page, 'deliveries-3-twice-at-once');
    expect(failures).toEqual([]);
  });

  it('lets no page on another origin resend, break or run anything', async () => {
    let received = 0;
    const merchant = await merchantServer((_req, res) => {
      received += 1;
      res.end('ok');
    });
    const lines: string[] = [];
    const sandbox = await sandboxFor(merchant.url, (line) => lines.push(line));
    const paymentId = await newPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await expect.poll(() => received, POLL).toBe(1);

    // Forms that post on load into frames, to the sandbox at 127.0.0.1 (same site, another
    // origin) and at localhost (another site), and two scripted requests.
    const targets = [sandbox.url, sandbox.url.replace('127.0.0.1', 'localhost')];
    const forms = targets.flatMap((base, i) => [
      `<form target="f${i}a" method="post" action="${base}/deliveries/resend"><input name="paymentId" value="${paymentId}"></form>`,
      `<form target="f${i}b" method="post" action="${base}/deliveries/break"><input name="twiceAtOnce" value="on"><input name="count" value="9"></form>`,
      `<form target="f${i}c" method="post" action="${base}/deliveries/check"></form>`,
      `<form target="f${i}d" method="post" enctype="text/plain" action="${base}/deliveries/resend"><input name='{"paymentId":"${paymentId}","x":"' value='"}'></form>`,
    ]);
    const frames = forms.map(
      (_, n) => `<iframe name="${/target="([^"]+)"/.exec(forms[n]!)![1]}" title="f${n}"></iframe>`,
    );
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Cheap flights</title>${frames.join('')}${forms.join('')}
<script>
for (const form of document.forms) form.submit();
window.results = Promise.all([
  fetch(${JSON.stringify(`${sandbox.url}/deliveries/resend`)}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ paymentId: ${JSON.stringify(paymentId)} }) }).then(() => 'answered', () => 'blocked'),
  fetch(${JSON.stringify(`${sandbox.url}/deliveries/break`)}, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ faults: { twiceAtOnce: true }, count: 9 }) }).then(() => 'sent', () => 'blocked'),
]);
</script>`);
    });
    const attackerPort = await listenOnFreePort(attacker);
    cleanups.push(() => new Promise((resolve) => attacker.close(resolve)));

    const { page } = await strictPage();
    const answers: Promise<number>[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().includes('/deliveries/')) {
        answers.push(Promise.resolve(response.status()));
      }
    });
    await page.goto(`http://127.0.0.1:${attackerPort}/`);
    const results = await page.evaluate(
      () => (window as unknown as { results: Promise<string[]> }).results,
    );
    // The JSON request needs a CORS preflight, which the sandbox never grants.
    expect(results[0]).toBe('blocked');
    // Eight forms and the no-cors request (sent as text/plain) reached the sandbox: each refused.
    await expect.poll(() => answers.length, POLL).toBe(9);
    expect(await Promise.all(answers)).toEqual(Array(9).fill(403));
    expect(lines.filter((line) => / refused: /.test(line))).toHaveLength(9);
    expect(received).toBe(1);
    expect(sandbox.deliveries).toHaveLength(1);
    expect(sandbox.armedFaults).toEqual({ next: null, payments: [] });
  });
});

describe('accessibility of every sandbox page in a real browser', () => {
  // Six pages at two widths, each loaded once and through axe in light and dark: a minute or so
  // on a busy machine.
  it(
    'has no axe violations, colour contrast included, light and dark, at 1280 and 390 px',
    { timeout: 180_000 },
    async () => {
      // Deliveries with something to show: hints (401, a 500 with its answer), failures on
      // purpose, faults armed, and a receiver check with a case not as expected.
      const answers = new Map<string, { status: number; body: string }>();
      const merchant = await merchantServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const { paymentId } = JSON.parse(Buffer.concat(chunks).toString()) as {
            paymentId: string;
          };
          const answer = answers.get(paymentId) ?? { status: 200, body: 'ok' };
          res.writeHead(answer.status, { 'Content-Type': 'text/plain' });
          res.end(answer.body);
        });
      });
      const sandbox = await sandboxFor(merchant.url);
      const refused = await newPayment(sandbox);
      answers.set(refused, { status: 401, body: 'invalid signature' });
      const failing = await newPayment(sandbox);
      answers.set(failing, {
        status: 500,
        body: "TypeError: Cannot read properties of undefined (reading 'orderId')\n    at handle (server.js:42:17)",
      });
      const broken = await newPayment(sandbox);
      const pending = await newPayment(sandbox);
      sandbox.breakDeliveries({ networkFailures: 2, twiceAtOnce: true }, { paymentId: broken });
      for (const id of [refused, failing, broken])
        sandbox.settlePayment(id, { status: 'COMPLETED' });
      await sandbox.checkReceiver();
      // Every copy of the three notifications has ended (two for the one sent twice at once).
      const ended = () =>
        new Set(
          sandbox.deliveries
            .filter(
              (a) => a.outcome !== 'retrying' && [refused, failing, broken].includes(a.paymentId),
            )
            .map((a) => `${a.paymentId} ${a.copy}`),
        ).size;
      await expect.poll(ended, { timeout: 20_000 }).toBe(4);
      sandbox.breakDeliveries({ delayMs: 500, lateResendMs: 1000 }, { count: 2 });

      const pages: [string, string][] = [
        ['index', `${sandbox.url}/`],
        ['bank page', `${sandbox.url}/bank/${pending}`],
        ['bank result', `${sandbox.url}/bank/${refused}`],
        ['deliveries', `${sandbox.url}/deliveries`],
        ['keys', `${sandbox.url}/keys`],
        ['not found', `${sandbox.url}/bank/unknown`],
      ];
      for (const width of [1280, 390]) {
        // axe is injected by the test, so this context lets it past the pages' strict CSP.
        const context = await browser.newContext({
          bypassCSP: true,
          viewport: { width, height: 800 },
        });
        const page = await context.newPage();
        const found = { light: {}, dark: {} } as Record<Scheme, Record<string, string[]>>;
        for (const [name, url] of pages) {
          await page.goto(url);
          // Every folded part open, so its contents are checked too.
          await page.evaluate(() =>
            document.querySelectorAll('details').forEach((details) => (details.open = true)),
          );
          // Each page loaded once, checked in light, then switched to dark.
          await inBothSchemes(page, async (colorScheme) => {
            found[colorScheme][name] = await axeViolations(page);
            // Nothing wider than the screen: tables scroll inside their own region, long
            // addresses and ids wrap.
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
            if (overflow > width) found[colorScheme][name].push(`page ${overflow} px wide`);
            if (name === 'deliveries') await shot(page, `deliveries-a11y-${colorScheme}-${width}`);
          });
        }
        for (const colorScheme of SCHEMES) {
          expect(found[colorScheme], `${colorScheme} ${width}px`).toEqual(
            Object.fromEntries(pages.map(([name]) => [name, []])),
          );
        }
        await context.close();
      }
    },
  );
});
