// @vitest-environment node
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../../src/core/index';
import { DEFAULT_INSTITUTIONS } from '../../../src/sandbox/index';
import { paymentBody, postPayment, testSandbox } from '../support/sandbox';

const APP = '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90';

/** The contract's 400 message for one field, word for word. */
const invalid = (field: string, value: string, error: string): string =>
  `Input validation error: field=[${field}], value=[${value}], error=[${error}]`;

describe('GET /v1/institutions', () => {
  it('lists about twenty UK banks, each with an icon the sandbox serves itself', async () => {
    const sandbox = await testSandbox();
    const response = await fetch(
      `${sandbox.url}/v1/institutions?environment=SANDBOX&applicationId=${sandbox.applicationId}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { institutions } = (await response.json()) as {
      institutions: { id: string; name: string; iconUrl: string }[];
    };
    expect(institutions.length).toBeGreaterThanOrEqual(20);
    expect(institutions.map((i) => i.name)).toEqual(
      expect.arrayContaining(['Barclays', 'HSBC UK', 'Monzo', 'Starling Bank', 'first direct']),
    );
    expect(institutions[0]).toEqual({
      id: 'barclays',
      name: 'Barclays',
      iconUrl: `${sandbox.url}/icons/barclays.svg`,
    });
    for (const institution of institutions) {
      // Absolute, on the sandbox itself: no external URL.
      expect(new URL(institution.iconUrl).origin).toBe(sandbox.url);
      const icon = await fetch(institution.iconUrl);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const svg = await icon.text();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg).toContain(`<title>${institution.name}</title>`);
    }
  });

  it('builds icon and bank-page URLs from the host the client used', async () => {
    const sandbox = await testSandbox();
    const port = new URL(sandbox.url).port;
    // fetch may not set Host; node:http may (a browser on a phone sends the LAN address).
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        request(`${sandbox.url}${path}`, { headers: { Host: `localhost:${port}` } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
    const { institutions } = JSON.parse(
      await get(`/v1/institutions?environment=LIVE&applicationId=${APP}`),
    ) as { institutions: { iconUrl: string }[] };
    expect(institutions[0]!.iconUrl).toBe(`http://localhost:${port}/icons/barclays.svg`);
  });

  it('works through the component transport, which resolves and keeps the icons', async () => {
    const sandbox = await testSandbox();
    const transport = createHttpTransport({ baseUrl: sandbox.url });
    const institutions = await transport.fetchInstitutions({
      environment: 'SANDBOX',
      applicationId: sandbox.applicationId,
    });
    expect(institutions).toHaveLength(DEFAULT_INSTITUTIONS.length);
    expect(institutions.every((i) => i.iconUrl?.startsWith(`${sandbox.url}/icons/`))).toBe(true);
  });

  it('serves only the configured institutions', async () => {
    const sandbox = await testSandbox({
      institutions: [{ id: 'test-bank', name: 'Test Bank', colour: '#ffcc00' }],
    });
    const response = await fetch(
      `${sandbox.url}/v1/institutions?environment=SANDBOX&applicationId=${APP}`,
    );
    expect(await response.json()).toEqual({
      institutions: [
        { id: 'test-bank', name: 'Test Bank', iconUrl: `${sandbox.url}/icons/test-bank.svg` },
      ],
    });
    const svg = await (await fetch(`${sandbox.url}/icons/test-bank.svg`)).text();
    // A light colour gets dark initials.
    expect(svg).toContain('fill="#ffcc00"');
    expect(svg).toContain('fill="#000000">TB</text>');
    expect((await fetch(`${sandbox.url}/icons/barclays.svg`)).status).toBe(404);
  });

  it.each([
    [
      'a missing applicationId',
      'environment=SANDBOX',
      invalid('applicationId', 'null', 'must be a UUID'),
    ],
    [
      'an applicationId that is not a UUID',
      'environment=SANDBOX&applicationId=my-app',
      invalid('applicationId', 'my-app', 'must be a UUID'),
    ],
    [
      'an unknown environment',
      `environment=TEST&applicationId=${APP}`,
      invalid('environment', 'TEST', 'must be SANDBOX or LIVE'),
    ],
  ])('refuses %s with 400 and the validation message', async (_, query, error) => {
    const sandbox = await testSandbox();
    const response = await fetch(`${sandbox.url}/v1/institutions?${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error });
  });

  it('reports the message through the component transport', async () => {
    const sandbox = await testSandbox();
    const transport = createHttpTransport({ baseUrl: sandbox.url });
    await expect(
      transport.fetchInstitutions({ environment: 'SANDBOX', applicationId: 'nope' }),
    ).rejects.toThrow(invalid('applicationId', 'nope', 'must be a UUID'));
  });
});

describe('POST /v1/payments', () => {
  it('creates a payment: 201 with a UUID and the absolute bank page address', async () => {
    const sandbox = await testSandbox();
    const { status, json } = await postPayment(sandbox, paymentBody(sandbox));
    expect(status).toBe(201);
    expect(json.paymentId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(json.authorisationUrl).toBe(`${sandbox.url}/bank/${String(json.paymentId)}`);
    expect([...sandbox.payments.values()]).toEqual([
      expect.objectContaining({
        paymentId: json.paymentId,
        status: 'PENDING',
        amount: 12.5,
        reference: 'ORDER-1042',
        institutionId: 'monzo',
        agentType: 'WEB_BROWSER',
        metadata: { orderId: 1042, basket: { items: [{ sku: 'A-1', qty: 2 }] } },
      }),
    ]);
  });

  it('is what createHttpTransport expects (the contract, end to end)', async () => {
    const sandbox = await testSandbox();
    const transport = createHttpTransport({ baseUrl: sandbox.url });
    const payment = await transport.initiatePayment({
      environment: 'SANDBOX',
      applicationId: sandbox.applicationId,
      institutionId: 'barclays',
      paymentRequest: { amount: 0.01, currency: 'GBP', reference: 'TEST' },
      merchantPaymentId: 'order-7781-attempt-2',
      agentType: 'MOBILE_APPLICATION',
    });
    expect(payment.authorisationUrl).toBe(`${sandbox.url}/bank/${payment.paymentId}`);
    const status = await (await fetch(`${sandbox.url}/v1/payments/${payment.paymentId}`)).json();
    expect(status).toMatchObject({
      paymentId: payment.paymentId,
      merchantPaymentId: 'order-7781-attempt-2',
      paymentStatus: 'PENDING',
      errorDescription: null,
      paymentRequest: { amount: 0.01, currency: 'GBP', reference: 'TEST' },
      paymentMetadata: null,
      agentType: 'MOBILE_APPLICATION',
      institutionId: 'barclays',
    });
  });

  it.each([
    [
      'a reference over 18 characters',
      { paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042-EXTRA-LONG' } },
      invalid(
        'paymentRequest.reference',
        'ORDER-1042-EXTRA-LONG',
        'must not be longer than 18 characters',
      ),
    ],
    [
      'a currency other than GBP',
      { paymentRequest: { amount: 12.5, currency: 'EUR', reference: 'R' } },
      invalid('paymentRequest.currency', 'EUR', 'must be GBP (the only currency)'),
    ],
    [
      'an amount of 0',
      { paymentRequest: { amount: 0, currency: 'GBP', reference: 'R' } },
      invalid('paymentRequest.amount', '0', 'must be greater than 0'),
    ],
    [
      'an amount with three decimals',
      { paymentRequest: { amount: 1.005, currency: 'GBP', reference: 'R' } },
      invalid('paymentRequest.amount', '1.005', 'must have at most 2 decimal places'),
    ],
    [
      'an amount given as a string',
      { paymentRequest: { amount: '12.50', currency: 'GBP', reference: 'R' } },
      invalid('paymentRequest.amount', '12.50', 'must be a number'),
    ],
    [
      'metadata that is an array',
      { paymentMetadata: [1, 2] },
      invalid('paymentMetadata', '[1,2]', 'must be a JSON object (not a number, string or array)'),
    ],
    [
      'metadata that is a string',
      { paymentMetadata: 'order 1' },
      invalid(
        'paymentMetadata',
        'order 1',
        'must be a JSON object (not a number, string or array)',
      ),
    ],
    [
      'an unknown institution',
      { institutionId: 'bank-of-nowhere' },
      invalid(
        'institutionId',
        'bank-of-nowhere',
        'must be the id of an institution listed by GET /v1/institutions',
      ),
    ],
    [
      'an unknown agentType',
      { agentType: 'SMART_TV' },
      invalid('agentType', 'SMART_TV', 'must be one of WEB_BROWSER, MOBILE_APPLICATION'),
    ],
    [
      'an applicationId that is not a UUID',
      { applicationId: 'app-1' },
      invalid('applicationId', 'app-1', 'must be a UUID'),
    ],
  ])('refuses %s with 400 and creates nothing', async (_, overrides, error) => {
    const sandbox = await testSandbox();
    const { status, json } = await postPayment(sandbox, paymentBody(sandbox, overrides));
    expect(status).toBe(400);
    expect(json).toEqual({ error });
    expect(sandbox.payments.size).toBe(0);
  });

  it('accepts metadata of exactly 5000 serialised characters and refuses 5001', async () => {
    const sandbox = await testSandbox();
    const overhead = JSON.stringify({ note: '' }).length;
    const fits = { note: 'x'.repeat(5000 - overhead) };
    expect(JSON.stringify(fits)).toHaveLength(5000);
    expect(
      (await postPayment(sandbox, paymentBody(sandbox, { paymentMetadata: fits }))).status,
    ).toBe(201);
    const tooLong = { note: 'x'.repeat(5001 - overhead) };
    const refused = await postPayment(sandbox, paymentBody(sandbox, { paymentMetadata: tooLong }));
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(
      /^Input validation error: field=\[paymentMetadata\], value=\[.*…\], error=\[must not be longer than 5000 characters after serialisation\]$/,
    );
  });

  it('answers 400 to a body that is not JSON, 415 to one that is not declared JSON', async () => {
    const sandbox = await testSandbox();
    const malformed = await postPayment(sandbox, '{"environment":');
    expect(malformed).toMatchObject({
      status: 400,
      json: { error: 'The request body is not valid JSON' },
    });
    const response = await fetch(`${sandbox.url}/v1/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(paymentBody(sandbox)),
    });
    expect(response.status).toBe(415);
  });

  it('answers 413 to a body over 64 KiB', async () => {
    const sandbox = await testSandbox();
    const body = JSON.stringify(
      paymentBody(sandbox, { paymentMetadata: { note: 'x'.repeat(70_000) } }),
    );
    const { status, json } = await postPayment(sandbox, body);
    expect(status).toBe(413);
    expect(json.error).toBe('The request body is larger than 65536 bytes');
    expect(sandbox.payments.size).toBe(0);
  });

  describe('Idempotency-Key', () => {
    it('returns the same payment for the same key and body', async () => {
      const sandbox = await testSandbox();
      const headers = { 'Idempotency-Key': 'c03a65f7-37e1-45d6-a653-f01da47b061e' };
      const first = await postPayment(sandbox, paymentBody(sandbox), headers);
      // Same JSON value, other key order: still the same request.
      const { paymentRequest, ...rest } = paymentBody(sandbox);
      const second = await postPayment(sandbox, { paymentRequest, ...rest }, headers);
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.json).toEqual(first.json);
      expect(sandbox.payments.size).toBe(1);
    });

    it('answers 409 for the same key with another body', async () => {
      const sandbox = await testSandbox();
      const headers = { 'Idempotency-Key': 'key-1' };
      await postPayment(sandbox, paymentBody(sandbox), headers);
      const other = await postPayment(
        sandbox,
        paymentBody(sandbox, {
          paymentRequest: { amount: 99, currency: 'GBP', reference: 'ORDER-1042' },
        }),
        headers,
      );
      expect(other).toMatchObject({
        status: 409,
        json: { error: 'The Idempotency-Key key-1 was already used with a different request' },
      });
      expect(sandbox.payments.size).toBe(1);
    });

    it('creates a new payment for each request without a key, or with another key', async () => {
      const sandbox = await testSandbox();
      const a = await postPayment(sandbox, paymentBody(sandbox));
      const b = await postPayment(sandbox, paymentBody(sandbox));
      const c = await postPayment(sandbox, paymentBody(sandbox), { 'Idempotency-Key': 'k-1' });
      const d = await postPayment(sandbox, paymentBody(sandbox), { 'Idempotency-Key': 'k-2' });
      expect(new Set([a, b, c, d].map((r) => r.json.paymentId)).size).toBe(4);
    });

    it('does not remember a key whose request was refused', async () => {
      const sandbox = await testSandbox();
      const headers = { 'Idempotency-Key': 'k-3' };
      const bad = await postPayment(
        sandbox,
        paymentBody(sandbox, { institutionId: 'nope' }),
        headers,
      );
      expect(bad.status).toBe(400);
      expect((await postPayment(sandbox, paymentBody(sandbox), headers)).status).toBe(201);
    });
  });
});

describe('unavailable banks', () => {
  const listed = async (sandbox: { url: string; applicationId: string }) => {
    const response = await fetch(
      `${sandbox.url}/v1/institutions?environment=SANDBOX&applicationId=${sandbox.applicationId}`,
    );
    return ((await response.json()) as { institutions: Record<string, unknown>[] }).institutions;
  };

  it('lists a default bank named in unavailableInstitutions with "available": false, the others as before', async () => {
    const sandbox = await testSandbox({ unavailableInstitutions: ['santander'] });
    const institutions = await listed(sandbox);
    expect(institutions).toHaveLength(DEFAULT_INSTITUTIONS.length);
    expect(institutions.find((i) => i.id === 'santander')).toEqual({
      id: 'santander',
      name: 'Santander UK',
      iconUrl: `${sandbox.url}/icons/santander.svg`,
      available: false,
    });
    // Nothing extra for an available bank: an absent field means available.
    const others = institutions.filter((i) => i.id !== 'santander');
    expect(others.every((i) => !('available' in i))).toBe(true);
  });

  it('lists a configured institution with available: false as unavailable', async () => {
    const sandbox = await testSandbox({
      institutions: [
        { id: 'open-bank', name: 'Open Bank' },
        { id: 'closed-bank', name: 'Closed Bank', available: false },
        { id: 'said-open', name: 'Said Open', available: true },
      ],
    });
    expect(await listed(sandbox)).toEqual([
      { id: 'open-bank', name: 'Open Bank', iconUrl: `${sandbox.url}/icons/open-bank.svg` },
      {
        id: 'closed-bank',
        name: 'Closed Bank',
        iconUrl: `${sandbox.url}/icons/closed-bank.svg`,
        available: false,
      },
      { id: 'said-open', name: 'Said Open', iconUrl: `${sandbox.url}/icons/said-open.svg` },
    ]);
  });

  it('refuses a payment there with 422 and the contract error, and keeps the key unused', async () => {
    const sandbox = await testSandbox({ unavailableInstitutions: ['santander'] });
    const headers = { 'Idempotency-Key': 'k-unavailable' };
    const refused = await postPayment(
      sandbox,
      paymentBody(sandbox, { institutionId: 'santander' }),
      headers,
    );
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual({
      error: 'Santander UK (santander) is unavailable at the moment: choose another bank',
    });
    expect(sandbox.payments.size).toBe(0);
    // The shopper picks another bank: the same key starts that payment.
    const accepted = await postPayment(sandbox, paymentBody(sandbox), headers);
    expect(accepted.status).toBe(201);
    expect(sandbox.payments.size).toBe(1);
  });

  it('reports the refusal through the component transport', async () => {
    const sandbox = await testSandbox({ unavailableInstitutions: ['tsb'] });
    const transport = createHttpTransport({ baseUrl: sandbox.url });
    await expect(
      transport.initiatePayment({
        environment: 'SANDBOX',
        applicationId: sandbox.applicationId,
        institutionId: 'tsb',
        paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
        merchantPaymentId: 'order-1042-attempt-1',
        agentType: 'WEB_BROWSER',
      }),
    ).rejects.toThrow('TSB (tsb) is unavailable at the moment: choose another bank');
  });
});

describe('CORS', () => {
  it('answers the preflight of the component’s POST from another origin', async () => {
    const sandbox = await testSandbox();
    const response = await fetch(`${sandbox.url}/v1/payments`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = response.headers
      .get('access-control-allow-headers')!
      .toLowerCase()
      .split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'idempotency-key']));
  });

  it('allows the origin on answers, errors included', async () => {
    const sandbox = await testSandbox();
    const origin = { Origin: 'http://127.0.0.1:5173' };
    const ok = await fetch(
      `${sandbox.url}/v1/institutions?environment=SANDBOX&applicationId=${APP}`,
      {
        headers: origin,
      },
    );
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    const refused = await postPayment(
      sandbox,
      paymentBody(sandbox, { institutionId: 'x' }),
      origin,
    );
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    const noOrigin = await fetch(`${sandbox.url}/.well-known/signature/pem`);
    expect(noOrigin.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('other routes', () => {
  it('answers 404 JSON to unknown paths and 405 to wrong methods', async () => {
    const sandbox = await testSandbox();
    const missing = await fetch(`${sandbox.url}/v2/payments`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Not found: GET /v2/payments' });
    const wrong = await fetch(`${sandbox.url}/v1/payments`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST, OPTIONS');
    const unknownPayment = await fetch(
      `${sandbox.url}/v1/payments/5e4d8a52-0000-4000-8000-000000000000`,
    );
    expect(unknownPayment.status).toBe(404);
  });

  it('serves an index page linking to the deliveries and listing payments, escaped', async () => {
    const sandbox = await testSandbox();
    await postPayment(
      sandbox,
      paymentBody(sandbox, { paymentRequest: { amount: 3, currency: 'GBP', reference: `<i>&"'` } }),
    );
    const response = await fetch(`${sandbox.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toContain('<a href="/deliveries">');
    expect(html).toContain(sandbox.applicationId);
    expect(html).toContain('<dt>Payee on the bank page</dt><dd>Sandbox merchant</dd>');
    expect(html).toContain('<td>&lt;i&gt;&amp;&quot;&#39;</td>');
    expect(html).toContain('<td>£3.00</td>');
  });
});
