// examples/nextjs as a merchant runs it: a Next.js 16 App Router app installed with the packed
// tarball, built with no secret in the environment (as CI and Docker builds are; both done in
// the background by global-setup.ts), then served and paid through the local sandbox in a real
// Chromium, with its webhook route verifying the sandbox's signed notification and its result
// page hearing it from the status route.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index';
import { launchChromium } from '../helpers/browser';
import { nextjsApp } from './apps';
import { freePort } from '../helpers/free-port';

/** Resolves when `url` answers 200; rejects when the server exits or after `limitMs`. */
async function untilServing(url: string, exited: () => boolean, limitMs: number): Promise<void> {
  const giveUp = Date.now() + limitMs;
  while (Date.now() < giveUp) {
    if (exited()) throw new Error(`next start exited:\n${nextLog}`);
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer within ${limitMs} ms:\n${nextLog}`);
}

let build: { stdout: string; stderr: string };
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let next: ChildProcess | undefined;
let nextLog = '';
let nextUrl: string;
let browser: Browser;

beforeAll(async () => {
  let app: string;
  ({ dir: app, build } = await nextjsApp());

  const port = await freePort();
  nextUrl = `http://127.0.0.1:${port}`;
  sandbox = await startSandbox({
    port: 0,
    merchantName: 'Example Coffee Co.',
    webhookUrl: `${nextUrl}/api/webhooks/servicepay`,
    webCallbackUrl: `${nextUrl}/orders/result`,
    retry: { initialDelayMs: 50, factor: 2, maxDelayMs: 500, maxAttempts: 30 },
  });
  next = spawn('npx', ['next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      SERVICEPAY_PUBLIC_KEY: sandbox.publicKey,
      SERVICEPAY_SANDBOX_URL: sandbox.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  next.stdout!.on('data', (chunk: Buffer) => (nextLog += chunk));
  next.stderr!.on('data', (chunk: Buffer) => (nextLog += chunk));
  await untilServing(nextUrl, () => next?.exitCode !== null, 90_000);
  browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  // The whole process group: npx, and next under it.
  if (next?.pid && next.exitCode === null) process.kill(-next.pid, 'SIGTERM');
  await sandbox?.stop();
});

describe('examples/nextjs with the packed package', () => {
  it('builds with no key in the environment; the route only warns, naming the variable', () => {
    const output = `${build.stdout}\n${build.stderr}`;
    expect(output).toContain('Compiled successfully');
    expect(output).toContain(
      'servicepay: the webhook handler has no public key: set SERVICEPAY_PUBLIC_KEY',
    );
  });

  it('renders <ServicePay> from a Server Component page, with the root entry constants on the server', async () => {
    // React separates adjacent text nodes with <!-- --> in server-rendered HTML.
    const html = (await (await fetch(nextUrl)).text()).replaceAll('<!-- -->', '');
    expect(html).toContain('Pay £12.50');
    // The order, made on the server for this request: its reference in the page.
    expect(html).toMatch(/Single-origin coffee beans, 1 kg: £12\.50, reference COFFEE-\d+/);
    // ServiceEvent.PAYMENT_INITIATED, read in a Server Component: the value, not a client reference.
    expect(html).toContain('data-server-constant="payment_initiated"');
  });

  it('pays through the sandbox in Chromium; the route verifies the webhook and <PaymentResult> shows it paid, from the status route', async () => {
    const page = await browser.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    // What the result page asked the status route: an event stream, or a poll.
    const asks: string[] = [];
    page.on(
      'request',
      (r) => r.url().includes('/api/payments/status') && asks.push(r.resourceType()),
    );
    let returned: URL;
    try {
      await page.goto(nextUrl);
      await page.getByRole('button', { name: 'Pay £12.50' }).click();
      await page.getByRole('button', { name: 'Barclays' }).click();
      await page.waitForURL(/\/bank\//);
      await expect.poll(() => page.getByText('Example Coffee Co.').count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/orders\/result\?/);
      returned = new URL(page.url());
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 })
        .toBe('Payment received');
      expect(await page.getByRole('status').textContent()).toBe(
        'Thank you. Your bank has confirmed your payment.',
      );
      // The item from the server; and what was paid, which the status route adds from the
      // order the server made (lib/orders.ts, paidFor): the return address names the payment,
      // not the order.
      expect(await page.getByText('Single-origin coffee beans, 1 kg: £12.50').count()).toBe(1);
      const paid = page.locator('dl.service-result-paid');
      expect(await paid.getByRole('term').allInnerTexts()).toEqual([
        'Amount',
        'Paid to',
        'Reference',
      ]);
      expect(await paid.getByRole('definition').allInnerTexts()).toEqual([
        '£12.50',
        'Example Coffee Co.',
        expect.stringMatching(/^COFFEE-\d+$/),
      ]);
      expect(asks[0]).toBe('eventsource');
    } finally {
      await page.close();
    }
    expect(failures).toEqual([]);
    // The route answered the sandbox's signed delivery 200.
    expect(sandbox.deliveries.map((d) => d.status)).toContain(200);
    // The status route reads the store the webhook route recorded in (one store on globalThis,
    // though Next loads the two routes as modules of their own); a wrong pair learns nothing.
    const ask = async (paymentId: string | null, merchantPaymentId: string | null) => {
      const url = new URL('/api/payments/status', nextUrl);
      url.search = new URLSearchParams({
        paymentId: paymentId!,
        merchantPaymentId: merchantPaymentId!,
      }).toString();
      return (await fetch(url, { headers: { accept: 'application/json' } })).text();
    };
    const { searchParams } = returned!;
    expect(
      JSON.parse(await ask(searchParams.get('paymentId'), searchParams.get('merchantPaymentId'))),
    ).toEqual({
      paid: {
        amount: 12.5,
        payee: 'Example Coffee Co.',
        reference: expect.stringMatching(/^COFFEE-/),
      },
      status: 'COMPLETED',
    });
    expect(await ask(searchParams.get('paymentId'), 'someone-else')).toBe('{"status":"PENDING"}');
  });

  it('refuses a forged notification at the route', async () => {
    const response = await fetch(`${nextUrl}/api/webhooks/servicepay`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: 'SHA256withRSA AAAA' },
      body: JSON.stringify({
        paymentId: '00000000-0000-4000-8000-000000000000',
        paymentStatus: 'COMPLETED',
        paymentRequest: { amount: 1, currency: 'GBP' },
      }),
    });
    expect(response.status).toBe(401);
  });

  it('serves the client component with the ref handle and the hook', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${nextUrl}/quick-pay`);
      // The hook's own bank buttons, from the sandbox's list.
      await page.getByRole('heading', { name: 'Popular banks' }).waitFor();
      await expect.poll(() => page.getByRole('listitem').count()).toBe(3);
      // The ref handle's button is enabled once the banks arrived; it starts the payment.
      const usual = page.getByRole('button', { name: 'Pay with Barclays' });
      await expect.poll(() => usual.isEnabled()).toBe(true);
      await usual.click();
      await page.waitForURL(/\/bank\//);
    } finally {
      await page.close();
    }
  });
});
