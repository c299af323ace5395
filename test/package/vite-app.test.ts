// A merchant's Vite + React 19 app (fixtures/vite-app) with the package installed from the
// tarball: built with the repo's Vite (root: the scratch app, so every import resolves from
// its node_modules), served on 127.0.0.1, loaded in headless Chromium against the sandbox
// from the same installed package.
import { readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { extname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smokeApps } from './apps';
import { launchChromium } from '../helpers/browser';
import { listenOnFreePort } from '../helpers/free-port';
import { REPO, run, startFixture } from './support';

const { react19: app } = await smokeApps();
const root = join(app, 'vite-app');
const build = join(root, 'build');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
};
// expect.poll's default (1 s) is too short on a loaded 2-core machine: page, Chromium and the
// sandbox all share it.
const POLL = { timeout: 15_000 };

let buildOutput = '';
let server: Server;
let pageUrl: string;
let sandbox: Awaited<ReturnType<typeof startFixture<{ url: string; applicationId: string }>>>;
let browser: Browser;

beforeAll(async () => {
  const vite = join(REPO, 'node_modules/vite/bin/vite.js');
  const { stdout, stderr } = await run(process.execPath, [vite, 'build'], {
    cwd: root,
    env: { NO_COLOR: '1' },
  });
  buildOutput = `${stdout}${stderr}`.trim();

  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = join(build, path === '/' ? 'index.html' : path);
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? '' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  const port = await listenOnFreePort(server);
  sandbox = await startFixture(app, 'sandbox.mjs');
  const query = new URLSearchParams({
    backend: sandbox.info.url,
    app: sandbox.info.applicationId,
  });
  pageUrl = `http://127.0.0.1:${port}/?${query}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  if (server) await new Promise((resolve) => server.close(resolve));
});

describe('a Vite + React 19 app', () => {
  it('builds without a warning, with no server code in the bundle', async () => {
    expect(buildOutput).toBe('');
    const assets = await readdir(join(build, 'assets'));
    const code = (
      await Promise.all(
        assets
          .filter((f) => f.endsWith('.js'))
          .map((f) => readFile(join(build, 'assets', f), 'utf8')),
      )
    ).join('\n');
    expect(code).toContain('Pay securely with your banking app');
    for (const serverCode of ['SHA256withRSA', 'startSandbox', 'node:crypto', 'createHash']) {
      expect(code).not.toContain(serverCode);
    }
  });

  it('renders <ServicePay>, opens the bank list from the sandbox, and goes to the bank', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    try {
      await page.goto(pageUrl);
      const pay = page.getByRole('button', { name: 'Pay £12.50' });
      await pay.waitFor();
      await expect
        .poll(
          () => page.evaluate(() => (window as unknown as { smokeLog: string[] }).smokeLog),
          POLL,
        )
        .toEqual(['mounted', 'institutions_fetched']);
      // Both stylesheets, injected once.
      expect(await page.locator('style[data-servicepay]').count()).toBe(2);

      await pay.click();
      const banks = page.getByRole('list', { name: 'Banks' }).getByRole('button');
      await expect.poll(() => banks.count(), POLL).toBe(20);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('type')), POLL)
        .toBe('search');
      // The icons come from the sandbox and load.
      const monzo = page.getByRole('button', { name: 'Monzo' });
      await expect
        .poll(
          () =>
            monzo
              .locator('img')
              .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
          POLL,
        )
        .toBeGreaterThan(0);

      await monzo.click();
      await page.waitForURL(`${sandbox.info.url.replace(/\/$/, '')}/bank/**`);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
