import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceTransportError, createHttpTransport } from '../../src/core';
import type { PaymentInitiation, ServiceTransport } from '../../src/core';
import { deferred } from '../helpers/deferred';
import { DEFAULT_INSTITUTIONS, defaultInitiatedPayment } from '../helpers/fake-transport';
import { startStallingBackend } from '../helpers/stalling-backend';
import type { StallingBackend } from '../helpers/stalling-backend';
import { APP_ID, VALID_PAYMENT, mountReady, setup, until } from './support/harness';

// createHttpTransport speaks the JSON contract of docs/http-contract.md (the sandbox serves
// it). These tests give it a fake `fetch` and check exactly what goes over the wire.

const BASE = 'https://pay.merchant.example';

interface SentRequest {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

/** A fetch that records each request and answers with `respond(request)`. */
function fakeFetch(respond: (req: SentRequest) => Response | Promise<Response>) {
  const sent: SentRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req: SentRequest = {
      url: String(input),
      method: init?.method,
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
      signal: init?.signal ?? undefined,
    };
    sent.push(req);
    return respond(req);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

/** A fetch that never answers but, like the real one, rejects when its signal aborts. */
function hangingFetch() {
  const sent: SentRequest[] = [];
  const fetch = vi.fn(
    (input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal ?? undefined;
        sent.push({
          url: String(input),
          method: init?.method,
          headers: {},
          body: undefined,
          signal,
        });
        const fail = () =>
          reject(signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
        if (signal?.aborted) fail();
        signal?.addEventListener('abort', fail);
      }),
  );
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent };
}

const json = (body: unknown, status = 200, statusText = 'OK') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

const payment: PaymentInitiation = {
  environment: 'SANDBOX',
  applicationId: APP_ID,
  institutionId: 'ob-monzo',
  paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
  merchantPaymentId: 'order-1042',
  paymentMetadata: { basket: { lines: 2 } },
  agentType: 'MOBILE_APPLICATION',
};

afterEach(() => {
  vi.useRealTimers();
});

describe('createHttpTransport: fetchInstitutions', () => {
  it('GETs /v1/institutions with environment and applicationId, and returns the list', async () => {
    const { fetch, sent } = fakeFetch(() =>
      json({
        institutions: [
          { id: 'ob-monzo', name: 'Monzo', iconUrl: 'https://cdn.example/monzo.svg' },
          { id: 'ob-nationwide', name: 'Nationwide' },
        ],
      }),
    );
    const transport = createHttpTransport({ baseUrl: `${BASE}/`, fetch });

    const list = await transport.fetchInstitutions({ environment: 'LIVE', applicationId: APP_ID });

    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: `${BASE}/v1/institutions?environment=LIVE&applicationId=${APP_ID}`,
      method: 'GET',
      headers: { Accept: 'application/json' },
      body: undefined,
    });
    expect(list).toEqual([
      { id: 'ob-monzo', name: 'Monzo', iconUrl: 'https://cdn.example/monzo.svg' },
      { id: 'ob-nationwide', name: 'Nationwide' },
    ]);
  });

  it('resolves relative icon URLs against baseUrl, and leaves the checks to the session', async () => {
    const { fetch } = fakeFetch(() =>
      json({
        institutions: [
          { id: 'a', name: 'Absolute path', iconUrl: '/icons/a.svg' },
          { id: 'b', name: 'Relative path', iconUrl: 'icons/b.svg' },
          { id: 'c', name: 'Script', iconUrl: 'javascript:alert(1)' },
          { id: 'd', name: 42 },
          null,
        ],
      }),
    );
    const transport = createHttpTransport({ baseUrl: `${BASE}/sandbox`, fetch });

    const list = await transport.fetchInstitutions({
      environment: 'SANDBOX',
      applicationId: APP_ID,
    });

    // The session drops or repairs c, d and null and reports them (transport-answers.test.ts).
    expect(list).toEqual([
      { id: 'a', name: 'Absolute path', iconUrl: `${BASE}/icons/a.svg` },
      { id: 'b', name: 'Relative path', iconUrl: `${BASE}/sandbox/icons/b.svg` },
      { id: 'c', name: 'Script', iconUrl: 'javascript:alert(1)' },
      { id: 'd', name: 42 },
      null,
    ]);
  });

  it('leaves a 200 answer without an institutions array to the session, which reports it', async () => {
    const { fetch } = fakeFetch(() => json({ banks: [] }));
    const { session, log } = setup({ transport: createHttpTransport({ baseUrl: BASE, fetch }) });
    session.mount();
    await until(session, (s) => s.institutionsState === 'failed');
    // One check, at the session's boundary, whatever the transport (issue 21, item 1).
    expect(log.errors()).toEqual([
      {
        location: 'fetchInstitutions',
        error: 'servicepay: fetchInstitutions resolved with undefined, not an array',
      },
    ]);
  });
});

describe('createHttpTransport: initiatePayment', () => {
  it('POSTs /v1/payments with the PaymentInitiation as JSON and the id as Idempotency-Key', async () => {
    const { fetch, sent } = fakeFetch(() =>
      json(
        { paymentId: 'p-1', authorisationUrl: 'https://bank.example/authorise?p=1' },
        201,
        'Created',
      ),
    );
    const transport = createHttpTransport({ baseUrl: BASE, fetch });

    const answer = await transport.initiatePayment(payment);

    expect(answer).toEqual({
      paymentId: 'p-1',
      authorisationUrl: 'https://bank.example/authorise?p=1',
    });
    expect(sent).toEqual([
      {
        url: `${BASE}/v1/payments`,
        method: 'POST',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'Idempotency-Key': 'order-1042',
        },
        body: payment,
        signal: expect.any(AbortSignal),
      },
    ]);
  });

  it('leaves a 2xx answer without an authorisationUrl to the session, which opens nothing', async () => {
    const { fetch } = fakeFetch((req) =>
      req.method === 'POST'
        ? json({ paymentId: 'p-1' }, 201)
        : json({ institutions: [{ id: 'ob-monzo', name: 'Monzo' }] }),
    );
    const { session, log } = setup({ transport: createHttpTransport({ baseUrl: BASE, fetch }) });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution('ob-monzo');
    expect(log.openedUrls()).toEqual([]);
    expect(log.errors()).toEqual([
      {
        location: 'payWithBankInstitution',
        error: 'servicepay: refused to open a non-http(s) authorisation URL: undefined',
      },
    ]);
  });
});

describe('createHttpTransport: errors', () => {
  it('reports the {error} of an error body verbatim, with the status', async () => {
    const message =
      'Input validation error: field=[paymentRequest.reference], value=[ABCDEFGHIJKLMNOPQRS], error=[must not be longer than 18 characters]';
    const { fetch } = fakeFetch(() => json({ error: message }, 400, 'Bad Request'));
    const transport = createHttpTransport({ baseUrl: BASE, fetch });

    const error = await transport.initiatePayment(payment).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServiceTransportError);
    expect(error).toMatchObject({ message, status: 400 });
  });

  it('reports a non-JSON error as "HTTP <status> <statusText>"', async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response('<html><body>Service Unavailable</body></html>', {
          status: 503,
          statusText: 'Service Unavailable',
          headers: { 'Content-Type': 'text/html' },
        }),
    );
    const transport = createHttpTransport({ baseUrl: BASE, fetch });

    await expect(
      transport.fetchInstitutions({ environment: 'SANDBOX', applicationId: APP_ID }),
    ).rejects.toMatchObject({ message: 'HTTP 503 Service Unavailable', status: 503 });
  });

  it('reports a network failure with the address it could not reach', async () => {
    const cause = new TypeError('fetch failed');
    const { fetch } = fakeFetch(() => Promise.reject(cause));
    const transport = createHttpTransport({ baseUrl: BASE, fetch });

    const error = await transport
      .fetchInstitutions({ environment: 'SANDBOX', applicationId: APP_ID })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ServiceTransportError);
    expect(error).toMatchObject({
      message: `Network error: could not reach ${BASE}`,
      status: undefined,
      cause,
    });
  });

  it('gives up after timeoutMs with a clear message', async () => {
    vi.useFakeTimers();
    const { fetch, sent } = hangingFetch();
    const transport = createHttpTransport({ baseUrl: BASE, fetch, timeoutMs: 2000 });

    const result = transport.initiatePayment(payment).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent[0]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(sent[0]?.signal?.aborted).toBe(true);
    expect(await result).toMatchObject({ message: 'The service did not answer within 2000 ms' });
  });
});

describe('createHttpTransport: abort', () => {
  it("aborts the fetch when the caller's signal aborts, and rejects with an AbortError", async () => {
    const { fetch, sent } = hangingFetch();
    const transport = createHttpTransport({ baseUrl: BASE, fetch });
    const controller = new AbortController();

    const result = transport.initiatePayment(payment, controller.signal).catch((e: unknown) => e);
    expect(sent[0]?.signal?.aborted).toBe(false);
    controller.abort();

    expect(sent[0]?.signal?.aborted).toBe(true);
    expect(await result).toMatchObject({ name: 'AbortError' });
  });

  it('an already-aborted signal aborts the fetch at once', async () => {
    const { fetch, sent } = hangingFetch();
    const transport = createHttpTransport({ baseUrl: BASE, fetch });

    const error = await transport
      .fetchInstitutions({ environment: 'SANDBOX', applicationId: APP_ID }, AbortSignal.abort())
      .catch((e: unknown) => e);

    expect(sent[0]?.signal?.aborted).toBe(true);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

// A real server and the real fetch: a backend (or a proxy in front of it) that sends its
// headers and then stalls, or never stops sending, must not hold a call open past timeoutMs.
describe('createHttpTransport against a real server that stalls after its headers', () => {
  let backend: StallingBackend | undefined;
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
  });

  const institutions = (transport: ServiceTransport, signal?: AbortSignal) =>
    transport
      .fetchInstitutions({ environment: 'SANDBOX', applicationId: APP_ID }, signal)
      .catch((e: unknown) => e);

  it('fetchInstitutions: the timeout covers the body; the connection is closed', async () => {
    backend = await startStallingBackend(() => 'stall');
    const transport = createHttpTransport({ baseUrl: backend.url, timeoutMs: 1000 });

    const error = await institutions(transport);

    expect(error).toBeInstanceOf(ServiceTransportError);
    expect(error).toMatchObject({ message: 'The service did not answer within 1000 ms' });
    await backend.requests[0]!.cutOff;
    expect(backend.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'GET /v1/institutions',
    ]);
  });

  it('initiatePayment: the timeout covers the body; the connection is closed', async () => {
    backend = await startStallingBackend(() => 'stall');
    const transport = createHttpTransport({ baseUrl: backend.url, timeoutMs: 1000 });

    const error = await transport.initiatePayment(payment).catch((e: unknown) => e);

    expect(error).toMatchObject({ message: 'The service did not answer within 1000 ms' });
    await backend.requests[0]!.cutOff;
    expect(JSON.parse(backend.requests[0]!.body)).toEqual(payment);
  });

  it("the caller's abort after the headers ends the call and closes the connection", async () => {
    backend = await startStallingBackend(() => 'stall');
    const headers = deferred<void>();
    const transport = createHttpTransport({
      baseUrl: backend.url,
      fetch: async (...args) => {
        const response = await globalThis.fetch(...args);
        headers.resolve();
        return response;
      },
    });
    const controller = new AbortController();
    const result = institutions(transport, controller.signal);
    await headers.promise;
    expect(backend.requests[0]!.wasCutOff).toBe(false);

    controller.abort();

    expect(await result).toMatchObject({ name: 'AbortError' });
    await backend.requests[0]!.cutOff;
  });

  it('an answer without end is cut at maxResponseBytes', async () => {
    backend = await startStallingBackend(() => 'endless');
    const transport = createHttpTransport({
      baseUrl: backend.url,
      maxResponseBytes: 256 * 1024,
    });

    const error = await institutions(transport);

    expect(error).toBeInstanceOf(ServiceTransportError);
    expect(error).toMatchObject({
      message: `The service sent an answer larger than ${256 * 1024} bytes`,
    });
    await backend.requests[0]!.cutOff;
  });

  it('a well-behaved server still answers in full', async () => {
    backend = await startStallingBackend(() => 'answer');
    const transport = createHttpTransport({ baseUrl: backend.url, timeoutMs: 5000 });
    expect(await institutions(transport)).toEqual(DEFAULT_INSTITUTIONS);
    expect(await transport.initiatePayment(payment)).toEqual(defaultInitiatedPayment(1));
  });
});

describe('createHttpTransport: answer size', () => {
  it('stops reading an answer once it passes maxResponseBytes', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1000).fill(32));
      },
    });
    const { fetch } = fakeFetch(() => new Response(endless, { status: 201 }));
    const transport = createHttpTransport({ baseUrl: BASE, fetch, maxResponseBytes: 10_000 });
    await expect(transport.initiatePayment(payment)).rejects.toThrow(
      'The service sent an answer larger than 10000 bytes',
    );
    const read = pulled;
    // Cancelled: nothing more is pulled from the body.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBe(read);
    expect(pulled).toBeLessThan(20);
  });

  it('times out a body that never ends even when the fetch does not abort it', async () => {
    vi.useFakeTimers();
    const neverEnding = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const { fetch } = fakeFetch(() => new Response(neverEnding, { status: 201 }));
    const transport = createHttpTransport({ baseUrl: BASE, fetch, timeoutMs: 2000 });

    const result = transport.initiatePayment(payment).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2000);

    expect(await result).toMatchObject({ message: 'The service did not answer within 2000 ms' });
  });
});
