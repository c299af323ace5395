// The hosted tests' page server: the harness (React development build with servicepay/hosted),
// the recording implementation of window.Service (./recording-service.js) at addresses that
// behave as a script host may (fine, failing once, never answering, defining nothing), and a
// count of the requests each address received.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index';
import { launchChromium } from '../../helpers/browser';
import type { Sandbox } from '../support';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** The harness for the browser (development React: StrictMode's double effects are on). */
export async function bundleHarness(): Promise<string> {
  const result = await build({
    entryPoints: [here('./harness.tsx')],
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

export interface PageOptions {
  /** Server-rendered markup inside #root. */
  markup?: string;
  /** A Content-Security-Policy header allowing scripts with this nonce only. */
  cspNonce?: string;
  /** The Content-Security-Policy header itself, in place of cspNonce's (the harness keeps its nonce). */
  csp?: string;
  /** A script tag to put in the page before the harness. */
  head?: string;
  /** Markup above the page's own (`<main>`): content of the page, as a review or a name is. */
  above?: string;
  /** Markup after the component, inside `<main>`: what a layout shift would move. */
  below?: string;
}

export interface HostedServer {
  url: string;
  /** Requests received per path (query included). */
  requests(path: string): number;
  /** The address of the recording script, with a global name other than `Service`. */
  recording(name?: string, global?: string): string;
  /** Sets what `/page` answers next. */
  page(options: PageOptions): void;
  stop(): Promise<void>;
}

export async function startHostedServer(
  harness: string,
  extra?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<HostedServer> {
  const recording = await readFile(here('./recording-service.js'), 'utf8');
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  let pageOptions: PageOptions = {};
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const key = url.pathname + url.search;
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    const send = (type: string, body: string, headers: Record<string, string> = {}) =>
      void res.writeHead(200, { 'Content-Type': type, ...headers }).end(body);
    const script = (global: string | null) =>
      send(
        'text/javascript',
        recording.replace("/* global */ 'Service'", JSON.stringify(global ?? 'Service')),
      );
    const [, kind] = /^\/(recording|flaky|hang|none)\//.exec(url.pathname) ?? [];
    if (url.pathname == '/page') {
      const { markup = '', cspNonce, csp, head = '', above = '', below = '' } = pageOptions;
      const nonce = cspNonce ? ` nonce="${cspNonce}"` : '';
      send(
        'text/html',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>${head}</head><body>${above}<main><div id="root">${markup}</div>${below}</main><script type="module" src="/app.js"${nonce}></script></body></html>`,
        csp || cspNonce
          ? { 'Content-Security-Policy': csp ?? `script-src 'nonce-${cspNonce}'` }
          : {},
      );
    } else if (url.pathname == '/app.js') {
      send('text/javascript', harness);
    } else if (kind == 'recording') {
      script(url.searchParams.get('global'));
    } else if (kind == 'flaky') {
      // Fails its first request, then serves the script.
      if (count == 1) res.writeHead(503).end();
      else script(null);
    } else if (kind == 'hang') {
      hanging.add(res);
    } else if (kind == 'none') {
      send('text/javascript', '/* loads, defines no constructor */');
    } else if (!extra?.(req, res)) {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests: (path) => counts.get(path) ?? 0,
    recording: (name = 'Service-1.0.0.min.js', global) =>
      `${url}/recording/${name}${global ? `?global=${global}` : ''}`,
    page(options) {
      pageOptions = options;
    },
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Chromium and the page server, for a test file; `stop` closes both. */
export async function launchHosted(): Promise<{
  browser: Browser;
  server: HostedServer;
  stop(): Promise<void>;
}> {
  const [browser, harness] = await Promise.all([launchChromium(), bundleHarness()]);
  const server = await startHostedServer(harness);
  return {
    browser,
    server,
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * Registers a test file's hooks for the hosted harness on the real window.Service: Chromium and
 * the page server (launchHosted) with a sandbox whose script host serves the built standalone
 * script (`script`), for the whole file; the test's `page`, closed after each test.
 */
export function hostedOnSandbox() {
  const hosted = {} as {
    browser: Browser;
    server: HostedServer;
    sandbox: Sandbox;
    /** The current test's page, once it opened one. */
    page?: Page;
    /** The standalone script's address at the sandbox's script host. */
    script: string;
    stop?: () => Promise<void>;
  };
  beforeAll(async () => {
    const [{ browser, server, stop }, sandbox] = await Promise.all([
      launchHosted(),
      startSandbox({ port: 0 }),
    ]);
    const { componentVersion } = JSON.parse(
      await readFile(join(here('../../..'), 'package.json'), 'utf8'),
    ) as { componentVersion: string };
    Object.assign(hosted, {
      browser,
      server,
      sandbox,
      script: `${sandbox.url}/js/Service-${componentVersion}.min.js`,
      stop,
    });
  });
  afterAll(async () => {
    await hosted.stop?.();
    await hosted.sandbox?.stop();
  });
  afterEach(() => hosted.page?.close());
  return hosted;
}
