// @vitest-environment node
// servicepay/webhook/web in a real edge runtime: Cloudflare's workerd (through Miniflare), with
// no Node compatibility flag, so only web APIs exist. A Worker written as docs/webhooks.md shows
// receives the service's signed examples: verified on the exact bytes with WebCrypto, each
// notification handled once, forgeries refused.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vectorCase, vectors } from './support/vectors';

/** The Worker: the receiver at PUT /webhooks/servicepay, and what it handled at GET /handled. */
const WORKER = `
import { createFetchWebhookHandler, MemoryIdempotencyStore } from 'servicepay/webhook/web';

const handled = [];
const store = new MemoryIdempotencyStore();
let receive;

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/handled') return Response.json(handled);
    if (pathname !== '/webhooks/servicepay') return new Response('Not found', { status: 404 });
    receive ??= createFetchWebhookHandler({
      publicKey: env.SERVICEPAY_PUBLIC_KEY,
      // The signed vectors name no order: what this proves is verification in workerd.
      expectedPayment: 'unreconciled',
      store,
      onNotification: (notification) => {
        handled.push(notification.paymentId + ':' + notification.paymentStatus);
      },
    });
    return receive(request);
  },
};
`;

let mf: Miniflare;
let origin: URL;

beforeAll(async () => {
  const web = fileURLToPath(new URL('../../src/webhook/web.ts', import.meta.url));
  const bundle = await build({
    stdin: { contents: WORKER, loader: 'js', resolveDir: process.cwd() },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    alias: { 'servicepay/webhook/web': web },
    logLevel: 'silent',
  });
  mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]!.text,
    compatibilityDate: '2025-01-01',
    bindings: { SERVICEPAY_PUBLIC_KEY: vectors.publicKey },
  });
  origin = await mf.ready;
}, 60_000);

afterAll(() => mf?.dispose());

/** PUTs a vector's exact bytes with its header, as the service would. */
async function deliver(name: string) {
  const vector = vectorCase(name);
  const response = await mf.dispatchFetch(new URL('/webhooks/servicepay', origin), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: vector.authorization },
    body: Buffer.from(vector.bodyBase64, 'base64'),
  });
  await response.arrayBuffer();
  return response.status;
}

const handled = async () =>
  (await (await mf.dispatchFetch(new URL('/handled', origin))).json()) as string[];

describe('servicepay/webhook/web in workerd', () => {
  it('accepts every validly signed example once, and answers its resend 200 without a second run', async () => {
    const valid = vectors.cases.filter((c) => c.valid);
    for (const c of valid) expect(await deliver(c.name)).toBe(200);
    expect(await deliver('completed')).toBe(200);
    const ids = valid.map((c) => {
      const body = JSON.parse(c.body) as { paymentId: string; paymentStatus: string };
      return `${body.paymentId}:${body.paymentStatus}`;
    });
    expect(await handled()).toEqual([...new Set(ids)]);
  });

  it('refuses tampered and forged deliveries with 401 and handles none of them', async () => {
    const before = await handled();
    for (const name of ['amount-changed', 'status-changed', 'reformatted-body', 'other-key']) {
      expect(await deliver(name)).toBe(401);
    }
    expect(await handled()).toEqual(before);
  });
});
