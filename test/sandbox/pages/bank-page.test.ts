// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../../src/sandbox/index';
import { createPayment, decide, pageToken, testSandbox } from '../support/sandbox';
import type { TestSandbox } from '../support/sandbox';

const WEB_CALLBACK = 'http://localhost:3000/checkout/return';
const MOBILE_CALLBACK = 'myshop://payment-result';

const statusOf = async (sandbox: TestSandbox, paymentId: string) =>
  (await (await fetch(`${sandbox.url}/v1/payments/${paymentId}`)).json()) as Record<
    string,
    unknown
  >;

describe('the bank page', () => {
  it('shows bank, payee, amount and reference, all escaped, with three real buttons in a form', async () => {
    const sandbox = await testSandbox({ merchantName: 'Tea & <Cake> Ltd' });
    const reference = `<i>&"'`;
    const { paymentId, authorisationUrl } = await createPayment(sandbox, {
      institutionId: 'starling',
      paymentRequest: { amount: 12.5, currency: 'GBP', reference },
    });
    const response = await fetch(authorisationUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<html lang="en-GB">');
    expect(html).toMatch(/<title>Authorise your payment – Starling Bank \(sandbox\)<\/title>/);
    expect(html).toContain('<dd class="amount">£12.50</dd>');
    expect(html).toContain('<dd>&lt;i&gt;&amp;&quot;&#39;</dd>');
    expect(html).toContain('<dd>Tea &amp; &lt;Cake&gt; Ltd</dd>');
    expect(html).not.toContain(reference);
    expect(html).not.toContain('<Cake>');
    expect(html).toContain('<span class="bank-name">Starling Bank</span>');
    expect(html).toContain(`<form method="post" action="/bank/${paymentId}/decision">`);
    for (const [value, label] of [
      ['approve', 'Approve'],
      ['reject', 'Reject'],
      ['error', 'Bank error'],
    ]) {
      expect(html).toMatch(
        new RegExp(`<button type="submit" name="decision" value="${value}"[^>]*>${label}</button>`),
      );
    }
    expect(html).toContain('<legend>Do you want to make this payment?</legend>');
    // The slow and lost payments (issue 45) come after them, in the same one form, with words
    // that a test finding "Approve", "Reject" or "Bank error" by name cannot mistake for those.
    const buttons = [
      ...html.matchAll(/<button type="submit" name="decision" value="([^"]+)"[^>]*>([^<]+)</g),
    ].map(([, value, label]) => [value, label]);
    expect(buttons).toEqual([
      ['approve', 'Approve'],
      ['reject', 'Reject'],
      ['error', 'Bank error'],
      ['abandon', 'Leave without deciding'],
      ['approve-pending', 'Authorise, bank still checking'],
      ['approve-settles-later', 'Authorise, settles later'],
    ]);
    for (const [, label] of buttons.slice(3))
      expect(label).not.toMatch(/approve|reject|bank error/i);
    expect(html.match(/<form /g)).toHaveLength(1);
    // No script at all, no inline style.
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });

  it('names the payee of the payment’s application, the default merchant name, or a neutral one', async () => {
    const coffee = '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90';
    const other = 'c03a65f7-37e1-45d6-a653-f01da47b061e';
    const lead = async (sandbox: TestSandbox, applicationId: string) => {
      const { authorisationUrl } = await createPayment(sandbox, { applicationId });
      const html = await (await fetch(authorisationUrl)).text();
      return /<p class="lead">(.*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
    };
    const configured = await testSandbox({
      merchantName: 'Tea Rooms',
      applications: { [coffee.toUpperCase()]: { merchantName: 'Example Coffee Co.' } },
    });
    expect(await lead(configured, coffee)).toBe(
      'Pay £12.50 to Example Coffee Co. from your Monzo account.',
    );
    expect(await lead(configured, other)).toBe('Pay £12.50 to Tea Rooms from your Monzo account.');
    const plain = await testSandbox();
    expect(await lead(plain, coffee)).toBe(
      'Pay £12.50 to Sandbox merchant from your Monzo account.',
    );
  });

  it('is served under a strict CSP that still lets the form redirect to the callbacks', async () => {
    const sandbox = await testSandbox({
      webCallbackUrl: WEB_CALLBACK,
      mobileCallbackUrl: MOBILE_CALLBACK,
    });
    const { authorisationUrl } = await createPayment(sandbox);
    const response = await fetch(authorisationUrl);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      "style-src 'self'",
      "img-src 'self'",
      "form-action 'self' http://localhost:3000 myshop:",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const css = await fetch(`${sandbox.url}/assets/sandbox.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('prefers-color-scheme: dark');
  });

  it('answers 404 for an unknown payment', async () => {
    const sandbox = await testSandbox();
    const response = await fetch(`${sandbox.url}/bank/5e4d8a52-0000-4000-8000-000000000000`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<h1>Payment not found</h1>');
  });
});

describe('the decision', () => {
  it('Approve completes the payment and sends a WEB_BROWSER shopper to the web callback with the ids', async () => {
    const sandbox = await testSandbox({
      webCallbackUrl: WEB_CALLBACK,
      mobileCallbackUrl: MOBILE_CALLBACK,
    });
    const { paymentId } = await createPayment(sandbox, { merchantPaymentId: 'order 1&2' });
    const response = await decide(sandbox, paymentId, 'approve');
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(WEB_CALLBACK);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      paymentId,
      merchantPaymentId: 'order 1&2',
    });
    expect(await statusOf(sandbox, paymentId)).toMatchObject({
      paymentStatus: 'COMPLETED',
      errorDescription: null,
    });
  });

  it('sends a MOBILE_APPLICATION shopper to the mobile callback', async () => {
    const sandbox = await testSandbox({
      webCallbackUrl: WEB_CALLBACK,
      mobileCallbackUrl: MOBILE_CALLBACK,
    });
    const { paymentId } = await createPayment(sandbox, {
      agentType: 'MOBILE_APPLICATION',
      merchantPaymentId: 'm-42',
    });
    const response = await decide(sandbox, paymentId, 'reject');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `${MOBILE_CALLBACK}?paymentId=${paymentId}&merchantPaymentId=m-42`,
    );
  });

  it('keeps a query the callback already has', async () => {
    const sandbox = await testSandbox({ webCallbackUrl: 'http://localhost:3000/return?shop=1' });
    const { paymentId } = await createPayment(sandbox, { merchantPaymentId: null });
    const response = await decide(sandbox, paymentId, 'approve');
    // No merchantPaymentId was given: none is appended.
    expect(response.headers.get('location')).toBe(
      `http://localhost:3000/return?shop=1&paymentId=${paymentId}`,
    );
  });

  it.each([
    ['reject', 'The payment was rejected by the user'],
    ['error', 'The bank reported an error'],
  ])('%s fails the payment with its errorDescription', async (decision, errorDescription) => {
    const sandbox = await testSandbox({ webCallbackUrl: WEB_CALLBACK });
    const { paymentId } = await createPayment(sandbox);
    expect((await decide(sandbox, paymentId, decision)).status).toBe(303);
    expect(await statusOf(sandbox, paymentId)).toMatchObject({
      paymentStatus: 'FAILED',
      errorDescription,
    });
  });

  it('without a callback, redirects to the bank page, which shows the result', async () => {
    const sandbox = await testSandbox();
    const { paymentId, authorisationUrl } = await createPayment(sandbox);
    const response = await decide(sandbox, paymentId, 'reject');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/bank/${paymentId}`);
    const html = await (await fetch(authorisationUrl)).text();
    expect(html).toContain('<h1 class="status-FAILED">Payment failed</h1>');
    expect(html).toContain('<p>Reason: The payment was rejected by the user</p>');
    expect(html).not.toContain('<form');
    // Where a merchant following the docs without a return address ends up: the way out named.
    expect(html).toContain(
      'start the sandbox with <code>--web-callback-url &lt;the address of your result page&gt;</code>',
    );
  });

  it('is final: deciding again changes nothing and answers as the first time', async () => {
    const sandbox = await testSandbox({ webCallbackUrl: WEB_CALLBACK });
    const { paymentId, authorisationUrl } = await createPayment(sandbox);
    // A double click: both posts come from the same page, with its token.
    const token = await pageToken(sandbox, paymentId);
    const first = await decide(sandbox, paymentId, 'approve', token);
    const again = await decide(sandbox, paymentId, 'reject', token);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(await statusOf(sandbox, paymentId)).toMatchObject({ paymentStatus: 'COMPLETED' });
    const html = await (await fetch(authorisationUrl)).text();
    expect(html).toContain('Payment approved');
    expect(html).toContain(`href="${WEB_CALLBACK}?paymentId=${paymentId}&amp;merchantPaymentId=`);
  });

  it('refuses an unknown decision and an unknown payment', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    expect((await decide(sandbox, paymentId, 'maybe')).status).toBe(400);
    const unknown = '5e4d8a52-0000-4000-8000-000000000000';
    expect((await decide(sandbox, unknown, 'approve', 'no-page')).status).toBe(404);
    expect(await statusOf(sandbox, paymentId)).toMatchObject({ paymentStatus: 'PENDING' });
  });
});

describe('settlePayment', () => {
  it('settles as the buttons do and returns the payment', async () => {
    const sandbox = await testSandbox();
    const { paymentId, authorisationUrl } = await createPayment(sandbox);
    const payment = sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    expect(payment).toMatchObject({ paymentId, status: 'COMPLETED', errorDescription: null });
    expect(payment.settledAt).toEqual(expect.any(String));
    expect(await (await fetch(authorisationUrl)).text()).toContain('Payment approved');
  });

  it('fails with the given errorDescription, or the bank error by default', async () => {
    const sandbox = await testSandbox();
    const a = await createPayment(sandbox);
    const b = await createPayment(sandbox);
    expect(
      sandbox.settlePayment(a.paymentId, {
        status: 'FAILED',
        errorDescription: 'Insufficient funds',
      }),
    ).toMatchObject({ status: 'FAILED', errorDescription: 'Insufficient funds' });
    expect(sandbox.settlePayment(b.paymentId, { status: 'FAILED' })).toMatchObject({
      status: 'FAILED',
      errorDescription: 'The bank reported an error',
    });
  });

  it('leaves a final payment as it is', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'FAILED' });
    expect(sandbox.settlePayment(paymentId, { status: 'COMPLETED' })).toMatchObject({
      status: 'FAILED',
    });
  });

  it('throws SandboxError for an unknown payment or an invalid outcome', async () => {
    const sandbox = await testSandbox();
    const { paymentId } = await createPayment(sandbox);
    expect(() => sandbox.settlePayment('nope', { status: 'COMPLETED' })).toThrow(SandboxError);
    expect(() => sandbox.settlePayment(paymentId, { status: 'PENDING' as 'COMPLETED' })).toThrow(
      'servicepay: settlePayment needs status "COMPLETED" or "FAILED", got "PENDING".',
    );
    expect(() =>
      sandbox.settlePayment(paymentId, { status: 'COMPLETED', errorDescription: 'x' }),
    ).toThrow(/only for FAILED/);
    expect(sandbox.payments.get(paymentId)!.status).toBe('PENDING');
  });
});
