// @vitest-environment node
import { createPublicKey, createVerify } from 'node:crypto';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxConfigError, startSandbox } from '../../src/sandbox/index';
import { verifyWebhookSignature } from '../../src/webhook/index';
import { closedPort, startReceiver } from './support/receiver';
import type { Receiver, ReceivedRequest, Respond } from './support/receiver';
import { createPayment, decide, testSandbox } from './support/sandbox';
import type { TestSandbox } from './support/sandbox';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function receiver(respond?: Respond, port?: number): Promise<Receiver> {
  const r = await startReceiver(respond, port);
  receivers.push(r);
  return r;
}

/** The endpoint's text made a PEM again, as a merchant's verifier may need (spec 5.1.3). */
async function fetchPublicKeyPem(sandbox: TestSandbox): Promise<string> {
  const text = await (await fetch(`${sandbox.url}/.well-known/signature/pem`)).text();
  return `-----BEGIN PUBLIC KEY-----\n${text}\n-----END PUBLIC KEY-----\n`;
}

function verifies(request: ReceivedRequest, pem: string): boolean {
  const header = String(request.headers.authorization);
  const [algorithm, signature, ...rest] = header.split(' ');
  if (algorithm !== 'SHA256withRSA' || rest.length > 0) return false;
  return createVerify('RSA-SHA256').update(request.body).verify(pem, signature!, 'base64');
}

describe('webhook notifications', () => {
  it('PUTs the spec 2.1 payload, signed over the exact bytes, when a payment completes', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const metadata = {
      orderId: 1042,
      basket: { items: [{ sku: 'A-1', qty: 2 }], gift: false },
      note: 'café ☕',
    };
    const { paymentId } = await createPayment(sandbox, {
      merchantPaymentId: 'c03a65f7-37e1-45d6-a653-f01da47b061e',
      paymentMetadata: metadata,
    });
    const delivered = sandbox.attempt((a) => a.outcome === 'delivered');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    const request = await r.request(1);
    await delivered;

    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/webhooks/servicepay');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('*/*');
    expect(request.headers.authorization).toMatch(/^SHA256withRSA [A-Za-z0-9+/]+={0,2}$/);
    // Keys in the service's order, nothing else.
    expect(request.body.toString('utf8')).toBe(
      JSON.stringify({
        paymentId,
        merchantPaymentId: 'c03a65f7-37e1-45d6-a653-f01da47b061e',
        paymentStatus: 'COMPLETED',
        errorDescription: null,
        paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
        paymentMetadata: metadata,
        paymentRefundData: null,
      }),
    );
    const pem = await fetchPublicKeyPem(sandbox);
    expect(verifies(request, pem)).toBe(true);
    // The library's own verifier agrees, from the endpoint's text as served.
    const served = await (await fetch(`${sandbox.url}/.well-known/signature/pem`)).text();
    expect(
      verifyWebhookSignature(request.body, String(request.headers.authorization), served),
    ).toBe(true);
    // One changed byte and it no longer verifies.
    const altered = {
      ...request,
      body: Buffer.from(request.body.toString().replace('12.5', '13.5')),
    };
    expect(verifies(altered, pem)).toBe(false);

    expect(sandbox.deliveries).toEqual([
      {
        id: 1,
        paymentId,
        paymentStatus: 'COMPLETED',
        url: r.url,
        copy: 1,
        reason: 'settled',
        attempt: 1,
        at: expect.any(String),
        durationMs: expect.any(Number),
        // The request in full, as the receiver got it.
        request: {
          method: 'PUT',
          url: r.url,
          headers: {
            'Content-Type': 'application/json',
            Accept: '*/*',
            Authorization: request.headers.authorization,
            'User-Agent': 'servicepay-sandbox',
            'Content-Length': String(request.body.length),
          },
          body: request.body.toString('utf8'),
        },
        status: 200,
        responseText: 'ok',
        error: null,
        simulated: false,
        hint: null,
        outcome: 'delivered',
        nextAttemptAt: null,
      },
    ]);
  });

  it('carries the errorDescription of a FAILED payment; null ids and metadata stay null', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await createPayment(sandbox, {
      merchantPaymentId: null,
      paymentMetadata: null,
    });
    await decide(sandbox, paymentId, 'reject');
    const request = await r.request(1);
    expect(JSON.parse(request.body.toString())).toEqual({
      paymentId,
      merchantPaymentId: null,
      paymentStatus: 'FAILED',
      errorDescription: 'The payment was rejected by the user',
      paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
      paymentMetadata: null,
      paymentRefundData: null,
    });
    expect(verifies(request, await fetchPublicKeyPem(sandbox))).toBe(true);
  });

  it('resends the same signed bytes until the receiver answers 200, then stops', async () => {
    const r = await receiver((_, n) => (n <= 2 ? 500 : 200));
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await createPayment(sandbox);
    const delivered = sandbox.attempt((a) => a.outcome === 'delivered');
    sandbox.settlePayment(paymentId, { status: 'FAILED', errorDescription: 'Insufficient funds' });
    await delivered;

    const attempts = sandbox.deliveries;
    expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(attempts[0]!.nextAttemptAt).toEqual(expect.any(String));
    expect(attempts[2]!.nextAttemptAt).toBeNull();
    expect(r.requests).toHaveLength(3);
    const [first, ...others] = r.requests;
    for (const other of others) {
      expect(other.body.equals(first!.body)).toBe(true);
      expect(other.headers.authorization).toBe(first!.headers.authorization);
    }
    expect(JSON.parse(first!.body.toString()).errorDescription).toBe('Insufficient funds');
  });

  it('keeps trying while the receiver is down and delivers once it is up', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/webhooks/servicepay`;
    const sandbox = await testSandbox({ webhookUrl: url });
    const { paymentId } = await createPayment(sandbox);
    const refused = sandbox.attempt((a) => a.status === null);
    const delivered = sandbox.attempt((a) => a.outcome === 'delivered');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });

    const failure = await refused;
    expect(failure).toMatchObject({ attempt: 1, outcome: 'retrying', status: null });
    expect(failure.error).toMatch(/ECONNREFUSED/);

    const r = await receiver(() => 200, port);
    const success = await delivered;
    expect(success.attempt).toBeGreaterThan(1);
    expect(r.requests).toHaveLength(1);
    expect(JSON.parse(r.requests[0]!.body.toString())).toMatchObject({
      paymentId,
      paymentStatus: 'COMPLETED',
    });
  });

  it('counts an answer that does not come within timeoutMs as a failure', async () => {
    const r = await receiver((_, n) => (n === 1 ? 'hang' : 200));
    // The second attempt's answer must come within timeoutMs too: a second, not 50 ms, so that
    // a loaded machine's loopback never turns it into a third attempt.
    const sandbox = await testSandbox({
      webhookUrl: r.url,
      retry: { initialDelayMs: 5, timeoutMs: 1_000 },
    });
    const { paymentId } = await createPayment(sandbox);
    const delivered = sandbox.attempt((a) => a.outcome === 'delivered');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    expect((await delivered).attempt).toBe(2);
    expect(sandbox.deliveries[0]).toMatchObject({
      status: null,
      error: 'no complete answer within 1000 ms',
      outcome: 'retrying',
    });
  });

  it('gives up after maxAttempts', async () => {
    const r = await receiver(() => 503);
    const sandbox = await testSandbox({
      webhookUrl: r.url,
      retry: { initialDelayMs: 1, maxAttempts: 3 },
    });
    const { paymentId } = await createPayment(sandbox);
    const gaveUp = sandbox.attempt((a) => a.outcome === 'gave-up');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    expect(await gaveUp).toMatchObject({ attempt: 3, status: 503, nextAttemptAt: null });
    expect(sandbox.deliveries.map((a) => a.outcome)).toEqual(['retrying', 'retrying', 'gave-up']);
  });

  it('sends nothing without a webhookUrl', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    expect(sandbox.deliveries).toEqual([]);
  });

  it('stop() cancels a scheduled retry', async () => {
    const r = await receiver(() => 500);
    const sandbox = await testSandbox({
      webhookUrl: r.url,
      // Long enough that only a cancelled timer explains a stop that resolves.
      retry: { initialDelayMs: 10 * 60_000 },
    });
    const { paymentId } = await createPayment(sandbox);
    const retrying = sandbox.attempt((a) => a.outcome === 'retrying');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await retrying;
    await sandbox.stop();
    expect(r.requests).toHaveLength(1);
    expect(sandbox.deliveries).toHaveLength(1);
  });

  it('stop() aborts an attempt in flight and resolves', async () => {
    const r = await receiver(() => 'hang');
    const sandbox = await testSandbox({ webhookUrl: r.url, retry: { timeoutMs: 10 * 60_000 } });
    const { paymentId } = await createPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await r.request(1);
    await sandbox.stop();
    expect(sandbox.deliveries).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'cancelled', status: null }),
    ]);
  });

  it('lists every attempt on /deliveries and /deliveries.json', async () => {
    const r = await receiver((_, n) => (n === 1 ? 500 : 200));
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await createPayment(sandbox);
    const delivered = sandbox.attempt((a) => a.outcome === 'delivered');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await delivered;

    const json = (await (await fetch(`${sandbox.url}/deliveries.json`)).json()) as {
      deliveries: unknown[];
    };
    expect(json.deliveries).toEqual(sandbox.deliveries);
    const page = await fetch(`${sandbox.url}/deliveries`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<title>Webhook deliveries – ServicePay sandbox</title>');
    expect(html).toContain('<strong>HTTP 500</strong>');
    expect(html).toContain('<strong>HTTP 200</strong>');
    expect(html).toContain('<td>delivered</td>');
    // One section for the notification, its two attempts inside, the newest first.
    expect(
      html.match(new RegExp(`<section class="notification" id="n-${paymentId}"`, 'g')),
    ).toHaveLength(1);
    expect(html.indexOf('HTTP 200')).toBeLessThan(html.indexOf('HTTP 500'));
    expect(html).toContain(`<code>${r.url}</code>`);
  });
});

describe('the signing key', () => {
  it('is served at /.well-known/signature/pem as in spec 4.2: the PEM body without BEGIN/END', async () => {
    const sandbox = await testSandbox();
    const response = await fetch(`${sandbox.url}/.well-known/signature/pem`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await response.text();
    expect(text).not.toContain('-----');
    expect(text).not.toMatch(/^\s|\s$/);
    expect(text.split('\n').every((line) => /^[A-Za-z0-9+/]{1,64}={0,2}$/.test(line))).toBe(true);
    // The same key as the API's full PEM.
    expect(sandbox.publicKey).toBe(
      `-----BEGIN PUBLIC KEY-----\n${text}\n-----END PUBLIC KEY-----\n`,
    );
    const key = createPublicKey(sandbox.publicKey);
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('is new at each start without keyFile', async () => {
    const a = await startSandbox({ port: 0 });
    const b = await startSandbox({ port: 0 });
    try {
      expect(a.publicKey).not.toBe(b.publicKey);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('is kept in keyFile: written (0600) when missing, reused on the next start', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'servicepay-key-')), 'nested', 'sandbox.pem');
    const first = await startSandbox({ port: 0, keyFile: file });
    await first.stop();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = await startSandbox({ port: 0, keyFile: file });
    await second.stop();
    expect(second.publicKey).toBe(first.publicKey);
  });

  it('refuses a keyFile that is not a private key', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'servicepay-key-')), 'bad.pem');
    writeFileSync(file, 'not a key');
    await expect(startSandbox({ port: 0, keyFile: file })).rejects.toThrow(SandboxConfigError);
  });
});
