// @vitest-environment node
// servicepay/webhook/web must run where only web APIs exist (edge routes, Workers, Deno, Bun):
// bundled for a neutral platform it may import no Node built-in, even transitively, and run
// in a context that has WebCrypto, fetch types and TextEncoder but no Buffer, process or require.
import { webcrypto } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as WebModule from '../../src/webhook/web';
import { serviceKeys } from './support/keys';
import { notification, signed } from './support/notifications';
import { vectors } from './support/vectors';

type WebEntry = typeof WebModule;

const entry = fileURLToPath(new URL('../../src/webhook/web.ts', import.meta.url));
let code = '';
let metafileInputs: string[] = [];

beforeAll(async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'iife',
    globalName: 'servicepayWebhook',
    metafile: true,
    logLevel: 'silent',
  });
  code = result.outputFiles[0]?.text ?? '';
  metafileInputs = Object.keys(result.metafile.inputs);
});

/** Evaluates the bundle in a fresh context holding only web platform globals. */
function loadInWebOnlyContext(): WebEntry {
  const context = createContext({
    crypto: webcrypto,
    TextEncoder,
    TextDecoder,
    atob,
    btoa,
    URL,
    Headers,
    Request,
    Response,
    ReadableStream,
    AbortSignal,
    AbortController,
    fetch,
    setTimeout,
    clearTimeout,
    console,
  });
  runInContext(`${code}\nglobalThis.servicepayWebhook = servicepayWebhook;`, context);
  return (context as { servicepayWebhook: WebEntry }).servicepayWebhook;
}

describe('servicepay/webhook/web on a web-only runtime', () => {
  it('bundles for a neutral platform from webhook sources only, with no Node built-in', () => {
    expect(code.length).toBeGreaterThan(0);
    // Webhook sources, and the three dependency-free modules of core it may import by value.
    const allowed = [
      'src/core/describe-value.ts',
      'src/core/service-addresses.ts',
      'src/core/protocol.ts',
    ];
    expect(
      metafileInputs.filter((file) => !file.startsWith('src/webhook/') && !allowed.includes(file)),
    ).toEqual([]);
    expect(code).not.toMatch(/\brequire\(|from ["']node:|\bBuffer\b|\bprocess\./);
  });

  it('verifies every shared vector in a context without Buffer, process or require', async () => {
    const web = loadInWebOnlyContext();
    for (const c of vectors.cases) {
      const bytes = Uint8Array.from(atob(c.bodyBase64), (ch) => ch.charCodeAt(0));
      expect(await web.verifyWebhookSignature(bytes, c.authorization, vectors.publicKey)).toBe(
        c.valid,
      );
      expect(await web.verifyWebhookSignature(c.body, c.authorization, vectors.publicKey)).toBe(
        c.valid,
      );
    }
  });

  it('runs the Fetch handler there: 200 once, 200 for the duplicate, 401 when tampered', async () => {
    const web = loadInWebOnlyContext();
    const keys = serviceKeys();
    const seen: string[] = [];
    const handle = web.createFetchWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      onNotification: (n) => {
        seen.push(n.paymentId);
      },
    });
    const d = signed(notification(), keys.privateKey);
    const request = (body: string): Request =>
      new Request('https://merchant.example/webhook', {
        method: 'PUT',
        body,
        headers: { authorization: d.authorization },
      });
    expect((await handle(request(d.body))).status).toBe(200);
    expect((await handle(request(d.body))).status).toBe(200);
    expect((await handle(request(`${d.body} `))).status).toBe(401);
    expect(seen).toHaveLength(1);
    expect(web.parseWebhookNotification(d.body).paymentStatus).toBe('COMPLETED');
  });
});
