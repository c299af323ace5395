import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeTransport } from '../helpers/fake-transport';
import { APP_ID, BANK, VALID_PAYMENT, setup, until } from './support/harness';

// Which backend the session talks to: a `transport` wins; else `baseUrl` through the HTTP
// transport; else the local sandbox for SANDBOX and, for LIVE, a clear error (the service's
// real addresses are not in the spec, so none is guessed).

const NO_LIVE_ADDRESS =
  'servicepay: no backend address for LIVE: pass the baseUrl of your backend or a transport';

function stubNetwork() {
  const requests: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push({ url, init });
    const body = url.includes('/v1/institutions')
      ? { institutions: [{ id: BANK, name: 'Monzo', iconUrl: '/icons/monzo.svg' }] }
      : { paymentId: 'p-1', authorisationUrl: 'https://bank.example/authorise?p=1' };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, requests };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('backend address', () => {
  it('LIVE without baseUrl or transport reports a clear error at fetchInstitutions and uses no network', async () => {
    const { fetch } = stubNetwork();
    const { session, log } = setup({ environment: 'LIVE', transport: undefined });

    session.mount();
    session.retry();

    expect(log.entries).toEqual([
      'event:mounted',
      `error:fetchInstitutions:${NO_LIVE_ADDRESS}`,
      `error:fetchInstitutions:${NO_LIVE_ADDRESS}`,
    ]);
    expect(session.getState()).toMatchObject({ status: 'error', institutionsState: 'failed' });

    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(log.errors().at(-1)).toEqual({
      location: 'payWithBankInstitution',
      error: NO_LIVE_ADDRESS,
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(log.openUrl).not.toHaveBeenCalled();
  });

  it('in development, the console gets each error once, with one prefix: only without an errorConsumer', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // The merchant's errorConsumer has it: the library writes nothing of its own.
      setup({ environment: 'LIVE', transport: undefined }).session.mount();
      expect(warn).not.toHaveBeenCalled();

      setup({
        environment: 'LIVE',
        transport: undefined,
        errorConsumer: undefined,
      }).session.mount();
      expect(warn.mock.calls).toEqual([
        [`servicepay: [fetchInstitutions] ${NO_LIVE_ADDRESS.replace('servicepay: ', '')}`],
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('LIVE with baseUrl goes through the HTTP transport, end to end', async () => {
    const { requests } = stubNetwork();
    const { session, log } = setup({
      environment: 'LIVE',
      transport: undefined,
      baseUrl: 'https://pay.merchant.example/api',
    });

    session.mount();
    await until(session, (s) => s.institutionsState === 'ready');
    expect(session.getState().institutions).toEqual([
      { id: BANK, name: 'Monzo', iconUrl: 'https://pay.merchant.example/icons/monzo.svg' },
    ]);

    session.createPayment({ ...VALID_PAYMENT, merchantPaymentId: 'order-1042' });
    await session.payWithInstitution(BANK);

    expect(requests.map((r) => [r.init?.method, r.url])).toEqual([
      [
        'GET',
        `https://pay.merchant.example/api/v1/institutions?environment=LIVE&applicationId=${APP_ID}`,
      ],
      ['POST', 'https://pay.merchant.example/api/v1/payments'],
    ]);
    expect(JSON.parse(String(requests[1]?.init?.body))).toEqual({
      environment: 'LIVE',
      applicationId: APP_ID,
      institutionId: BANK,
      paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
      merchantPaymentId: 'order-1042',
      agentType: 'WEB_BROWSER',
    });
    expect(log.openedUrls()).toEqual(['https://bank.example/authorise?p=1']);
    expect(log.errors()).toEqual([]);
  });

  it('SANDBOX without baseUrl talks to the local sandbox', async () => {
    const { requests } = stubNetwork();
    const { session } = setup({ transport: undefined });
    session.mount();
    await until(session, (s) => s.institutionsState === 'ready');
    expect(requests.map((r) => r.url)).toEqual([
      `http://127.0.0.1:4010/v1/institutions?environment=SANDBOX&applicationId=${APP_ID}`,
    ]);
  });

  it('an explicit transport wins over baseUrl', async () => {
    const { fetch } = stubNetwork();
    const transport = createFakeTransport();
    const { session } = setup({
      environment: 'LIVE',
      transport,
      baseUrl: 'https://pay.merchant.example',
    });
    session.mount();
    await until(session, (s) => s.institutionsState === 'ready');
    expect(transport.fetchCalls).toHaveLength(1);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reports the backend {error} message verbatim at fetchInstitutions', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'Unknown applicationId for SANDBOX' }), {
            status: 404,
            headers: { 'Content-Type': 'application/json' },
          }),
      ),
    );
    const { session, log } = setup({ transport: undefined });
    session.mount();
    await until(session, (s) => s.institutionsState === 'failed');
    expect(log.entries).toEqual([
      'event:mounted',
      'error:fetchInstitutions:Unknown applicationId for SANDBOX',
    ]);
  });
});
