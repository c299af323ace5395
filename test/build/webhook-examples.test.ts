// @vitest-environment node
// The receivers that the docs include from examples/ run as pasted: each starts as its own Node
// process with the key in SERVICEPAY_PUBLIC_KEY and a PORT, makes an order through its own API,
// answers a signed delivery for it 200 and a forged one 401, and (Express) shows the order paid;
// a signed payment that does not match its order is answered 200 and leaves the order unpaid,
// and a second payment of a paid order leaves it paid once.
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

/**
 * Bundles the example (servicepay resolved to the sources), starts it, waits for its line;
 * its address, and what it has printed so far.
 */
async function startExample(name: string): Promise<{ url: string; output: () => string }> {
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
  return { url: `http://127.0.0.1:${port}`, output: () => output };
}

/** A COMPLETED notification naming `order` in its metadata, with the order's terms unless changed. */
function notification(
  order: { orderId: string; amount: number; reference: string },
  change: { amount?: number; reference?: string } = {},
) {
  return JSON.stringify({
    paymentId: randomUUID(),
    merchantPaymentId: randomUUID(),
    paymentStatus: 'COMPLETED',
    errorDescription: null,
    paymentRequest: {
      amount: order.amount,
      currency: 'GBP',
      reference: order.reference,
      ...change,
    },
    paymentMetadata: { orderId: order.orderId },
    paymentRefundData: null,
  });
}

const put = (url: string, body: string, authorization: string) =>
  fetch(`${url}/webhooks/servicepay`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization },
    body,
  });

/** An order, made by the example's own API: the amount and the reference are the server's. */
async function createOrder(url: string) {
  const response = await fetch(`${url}/api/orders`, { method: 'POST' });
  expect(response.status).toBe(201);
  return (await response.json()) as { orderId: string; amount: number; reference: string };
}

// Each case bundles an example and starts it as a process: a few seconds at most alone, more
// beside the rest of the suite on two cores. The bound is for a hang, not a speed check.
describe.each(['webhook-node', 'webhook-express'])('examples/%s', { timeout: 60_000 }, (name) => {
  it('starts from the environment, accepts a signed delivery for its order and refuses a forged one', async () => {
    const { url } = await startExample(name);
    const order = await createOrder(url);
    expect(order).toMatchObject({ amount: 12.5, reference: 'ORDER-1042' });
    const body = notification(order);
    expect((await put(url, body, signWebhookPayload(body, keys.privateKey))).status).toBe(200);
    const forged = notification(order, { amount: 0.01 });
    expect((await put(url, forged, signWebhookPayload(body, keys.privateKey))).status).toBe(401);
    if (name === 'webhook-express') {
      const status = await fetch(`${url}/api/orders/${order.orderId}`);
      expect(await status.json()).toEqual({ status: 'paid' });
      expect((await fetch(`${url}/api/orders/${randomUUID()}`)).status).toBe(404);
    }
  });

  it('a second payment of a paid order (another tab): 200, and the order stays paid, once', async () => {
    const { url, output } = await startExample(name);
    const order = await createOrder(url);
    for (const body of [notification(order), notification(order)]) {
      expect((await put(url, body, signWebhookPayload(body, keys.privateKey))).status).toBe(200);
    }
    if (name === 'webhook-express') {
      const status = await fetch(`${url}/api/orders/${order.orderId}`);
      expect(await status.json()).toEqual({ status: 'paid' });
    }
    await expect.poll(output).toMatch(/\(already-paid\)/);
  });

  it('answers 200 to a signed payment that does not match its order, and leaves the order unpaid', async () => {
    const { url, output } = await startExample(name);
    for (const change of [{ amount: 0.01 }, { reference: 'ORDER-1041' }]) {
      const order = await createOrder(url);
      const body = notification(order, change);
      expect((await put(url, body, signWebhookPayload(body, keys.privateKey))).status).toBe(200);
      if (name === 'webhook-express') {
        const status = await fetch(`${url}/api/orders/${order.orderId}`);
        expect(await status.json()).toEqual({ status: 'needs-review' });
      }
    }
    if (name === 'webhook-node') {
      // Its onMismatch says so, once for each.
      await expect.poll(output).toMatch(/does not match its order \(amount\)/);
      expect(output()).toMatch(/does not match its order \(reference\)/);
    }
  });
});
