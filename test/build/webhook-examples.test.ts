// @vitest-environment node
// The receivers that the docs include from examples/ run as pasted: each starts as its own Node
// process with the key in SERVICEPAY_PUBLIC_KEY and a PORT, answers a signed delivery 200 and a
// forged one 401, and (Express) shows the order paid through its own API.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhookPayload } from '../../src/webhook/index';
import { freePort } from '../helpers/free-port';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the bundle finds express in its node_modules.
const outDir = `${repo}node_modules/.cache/servicepay-examples`;

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

/** Bundles the example (servicepay resolved to the sources), starts it, waits for its line. */
async function startExample(name: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const outfile = `${outDir}/${name}.mjs`;
  await build({
    entryPoints: [`${repo}examples/${name}/server.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['express'],
    alias: { 'servicepay/webhook': `${repo}src/webhook/index.ts` },
    logLevel: 'silent',
  });
  const port = await freePort();
  child = spawn(process.execPath, [outfile], {
    env: { ...process.env, PORT: String(port), SERVICEPAY_PUBLIC_KEY: publicKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Receiving webhooks at')) resolve();
    });
    child!.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child!.once('exit', (code) => reject(new Error(`${name} exited ${code}:\n${output}`)));
  });
  expect(output).toContain(`Receiving webhooks at http://127.0.0.1:${port}/webhooks/servicepay`);
  return `http://127.0.0.1:${port}`;
}

function notification(merchantPaymentId: string) {
  return JSON.stringify({
    paymentId: randomUUID(),
    merchantPaymentId,
    paymentStatus: 'COMPLETED',
    errorDescription: null,
    paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
    paymentMetadata: null,
    paymentRefundData: null,
  });
}

const put = (url: string, body: string, authorization: string) =>
  fetch(`${url}/webhooks/servicepay`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization },
    body,
  });

// Each case bundles an example and starts it as a process: a few seconds at most alone, more
// beside the rest of the suite on two cores. The bound is for a hang, not a speed check.
describe.each(['webhook-node', 'webhook-express'])('examples/%s', { timeout: 60_000 }, (name) => {
  it('starts from the environment, accepts a signed delivery and refuses a forged one', async () => {
    const url = await startExample(name);
    const orderId = randomUUID();
    const body = notification(orderId);
    expect((await put(url, body, signWebhookPayload(body, keys.privateKey))).status).toBe(200);
    const forged = notification(randomUUID());
    expect((await put(url, forged, signWebhookPayload(body, keys.privateKey))).status).toBe(401);
    if (name === 'webhook-express') {
      const order = await fetch(`${url}/api/orders/${orderId}`);
      expect(await order.json()).toEqual({ status: 'paid' });
      expect((await fetch(`${url}/api/orders/${randomUUID()}`)).status).toBe(404);
    }
  });
});
