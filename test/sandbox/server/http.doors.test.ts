// @vitest-environment node
// The sandbox's locked doors, attacked as a hostile page would: a DNS-rebinding host name
// (the browser sends the attacker's name in Host), and a cross-site form that tries to decide
// a payment (text/plain and urlencoded, with and without a token).
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createPayment, pageToken, paymentBody, testSandbox } from '../support/sandbox';
import type { TestSandbox } from '../support/sandbox';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with any Host header (fetch would not let a test choose it). */
function raw(
  sandbox: TestSandbox,
  path: string,
  options: { method?: string; host?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { port } = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { Host: options.host ?? `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const status = (sandbox: TestSandbox, paymentId: string) => sandbox.payments.get(paymentId)?.status;

describe('the Host check (DNS rebinding)', () => {
  it('refuses a foreign host name on the index, the API, the bank page and the decision', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    const host = 'evil.example:4010';
    const attempts = [
      raw(sandbox, '/', { host }),
      raw(sandbox, '/deliveries.json', { host }),
      raw(sandbox, `/v1/payments/${paymentId}`, { host }),
      raw(sandbox, `/v1/institutions?environment=SANDBOX&applicationId=${sandbox.applicationId}`, {
        host,
      }),
      raw(sandbox, '/v1/payments', {
        host,
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(paymentBody(sandbox)),
      }),
      raw(sandbox, `/bank/${paymentId}`, { host }),
      raw(sandbox, `/bank/${paymentId}/decision`, {
        host,
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `decision=approve&token=${await pageToken(sandbox, paymentId)}`,
      }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(421);
      expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(answer.body).toContain('does not answer for the host "evil.example"');
      expect(answer.body).not.toContain(paymentId);
    }
    expect(sandbox.payments.size).toBe(1);
    expect(status(sandbox, paymentId)).toBe('PENDING');
  });

  it.each([
    'evil.example',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    'sandbox.invalid:4010',
    'a b',
  ])('refuses Host %j', async (host) => {
    const sandbox = await testSandbox();
    expect((await raw(sandbox, '/', { host })).status).toBe(421);
  });

  it.each([
    'localhost:4010',
    'LOCALHOST',
    'localhost.',
    'shop.localhost:4010',
    '127.0.0.1',
    '127.0.0.1:4010',
    '[::1]:4010',
    '192.168.1.20:4010',
  ])('answers Host %j: loopback names and IP addresses cannot be rebound', async (host) => {
    const sandbox = await testSandbox();
    const answer = await raw(sandbox, '/', { host });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<h1>ServicePay sandbox</h1>');
  });

  it('answers the host of publicUrl, and hands out its addresses there', async () => {
    const sandbox = await testSandbox({ publicUrl: 'https://pay-sandbox.example.test' });
    const answer = await raw(sandbox, '/v1/payments', {
      host: 'pay-sandbox.example.test',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(paymentBody(sandbox)),
    });
    expect(answer.status).toBe(201);
    const { paymentId, authorisationUrl } = JSON.parse(answer.body) as Record<string, string>;
    expect(authorisationUrl).toBe(`https://pay-sandbox.example.test/bank/${paymentId}`);
    expect((await raw(sandbox, '/', { host: 'other.example.test' })).status).toBe(421);
  });

  it('answers the host name it was told to listen on', async () => {
    const sandbox = await testSandbox({ host: 'localhost' });
    const { port } = new URL(sandbox.url);
    expect((await raw(sandbox, '/', { host: `localhost:${port}` })).status).toBe(200);
  });
});

describe('the decision comes from the bank page itself', () => {
  it('refuses a cross-site text/plain form POST (the attack): the payment stays pending', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    // What <form enctype="text/plain"> on another site sends, with the name crafted so that
    // the body also parses as a urlencoded form.
    const answer = await raw(sandbox, `/bank/${paymentId}/decision`, {
      method: 'POST',
      headers: {
        'Content-Type': 'text/plain',
        Origin: 'https://evil.example',
        'Sec-Fetch-Site': 'cross-site',
      },
      body: 'decision=approve&x=\r\n',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('<h1>Decision refused</h1>');
    expect(status(sandbox, paymentId)).toBe('PENDING');
  });

  it('refuses a decision without the page’s token, or with another payment’s', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    const other = await createPayment(sandbox);
    for (const body of [
      'decision=approve',
      'decision=approve&token=',
      'decision=approve&token=forged',
      `decision=approve&token=${await pageToken(sandbox, other.paymentId)}`,
    ]) {
      const answer = await raw(sandbox, `/bank/${paymentId}/decision`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(answer.status, body).toBe(403);
    }
    expect(status(sandbox, paymentId)).toBe('PENDING');
  });

  it.each([
    [{ Origin: 'https://evil.example' }],
    [{ Origin: 'null' }],
    [{ 'Sec-Fetch-Site': 'cross-site' }],
    // Another port of the same machine is the same site, not the same origin.
    [{ 'Sec-Fetch-Site': 'same-site', Origin: 'http://127.0.0.1:4000' }],
  ])('refuses a browser POST from elsewhere even with the token: %j', async (headers) => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    const answer = await raw(sandbox, `/bank/${paymentId}/decision`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: `decision=approve&token=${await pageToken(sandbox, paymentId)}`,
    });
    expect(answer.status).toBe(403);
    expect(status(sandbox, paymentId)).toBe('PENDING');
  });

  it('accepts the bank page’s own form: same origin, its token, urlencoded', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    const answer = await raw(sandbox, `/bank/${paymentId}/decision`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: sandbox.url,
        'Sec-Fetch-Site': 'same-origin',
      },
      body: `decision=approve&token=${await pageToken(sandbox, paymentId)}`,
    });
    expect(answer.status).toBe(303);
    expect(status(sandbox, paymentId)).toBe('COMPLETED');
  });

  it('sends its Origin on the form post: the bank page’s referrer policy is same-origin', async () => {
    const sandbox = await testSandbox();
    const { authorisationUrl } = await createPayment(sandbox);
    const response = await fetch(authorisationUrl);
    // With no-referrer, browsers send `Origin: null` on a form POST, which the check refuses.
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });
});

describe('CORS: only what the component calls from the merchant’s page', () => {
  it('allows another origin on the institutions and the payment request', async () => {
    const sandbox = await testSandbox();
    const origin = 'http://127.0.0.1:4000';
    const institutions = await raw(
      sandbox,
      `/v1/institutions?environment=SANDBOX&applicationId=${sandbox.applicationId}`,
      { headers: { Origin: origin } },
    );
    expect(institutions.headers['access-control-allow-origin']).toBe(origin);
    const created = await raw(sandbox, '/v1/payments', {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify(paymentBody(sandbox)),
    });
    expect(created.status).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe(origin);
  });

  it('lets no other origin read the views of every payment (deliveries, a payment’s status)', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    const headers = { Origin: 'https://evil.example' };
    for (const path of ['/deliveries.json', `/v1/payments/${paymentId}`]) {
      const answer = await raw(sandbox, path, { headers });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['access-control-allow-origin'], path).toBeUndefined();
    }
  });
});
