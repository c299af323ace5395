// @vitest-environment node
// The payment status endpoint (createPaymentStatusHandler over real node:http, and
// createFetchPaymentStatusHandler): outcomes the receiver recorded reach the return page as
// JSON or as an event stream; other people's payments look exactly pending; streams are bounded.
import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFetchPaymentStatusHandler,
  createFetchWebhookHandler,
  createPaymentStatusHandler,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../../src/webhook/index';
import type {
  ExposedFields,
  IdempotencyStore,
  PaymentOutcome,
  WebhookNotification,
} from '../../../src/webhook/index';
import { readEventStream } from '../support/event-stream';
import { delay, listen } from '../support/http';
import type { TestServer } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder } from '../support/receivers';

const keys = serviceKeys();
const servers: TestServer[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A receiver and a status endpoint on one store, as a merchant's server mounts them. */
async function merchant(
  store: MemoryIdempotencyStore = new MemoryIdempotencyStore(),
  options: Partial<Parameters<typeof createPaymentStatusHandler>[0]> = {},
) {
  const receive = createFetchWebhookHandler({
    publicKey: keys.publicText,
    expectedPayment: 'unreconciled',
    store,
    ...recorder(),
  });
  const status = createPaymentStatusHandler({ store, ...options });
  closers.push(() => status.close());
  const server = await listen(status);
  servers.push(server);
  return {
    store,
    status,
    async deliver(n: WebhookNotification): Promise<number> {
      const d = signed(n, keys.privateKey);
      const response = await receive(
        new Request('http://localhost/', {
          method: 'PUT',
          body: d.body,
          headers: { authorization: d.authorization },
        }),
      );
      return response.status;
    },
    url: (paymentId: string, merchantPaymentId: string) =>
      `${server.url}/api/payments/status?paymentId=${encodeURIComponent(paymentId)}&merchantPaymentId=${encodeURIComponent(merchantPaymentId)}`,
  };
}

/** Everything a client can see of a JSON answer, the date aside. */
async function seen(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const headers = Object.fromEntries(
    [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive'),
  );
  return { status: response.status, headers, body: await response.text() };
}

describe('the payment status as JSON', () => {
  it('pending until the verified notification is handled, then its final status', async () => {
    const m = await merchant();
    const n = notification();
    const url = m.url(n.paymentId, n.merchantPaymentId as string);
    expect(await seen(url)).toEqual({
      status: 200,
      headers: expect.objectContaining({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      }),
      body: '{"status":"PENDING"}',
    });
    expect(await m.deliver(n)).toBe(200);
    expect((await seen(url, { headers: { accept: 'application/json' } })).body).toBe(
      '{"status":"COMPLETED"}',
    );
    const failed = notification({ paymentStatus: 'FAILED', errorDescription: 'Rejected' });
    expect(await m.deliver(failed)).toBe(200);
    expect((await seen(m.url(failed.paymentId, failed.merchantPaymentId as string))).body).toBe(
      '{"status":"FAILED"}',
    );
  });

  it('is no oracle: unknown, mismatched and not yet recorded payments get the pending answer, byte for byte', async () => {
    const m = await merchant();
    const n = notification();
    const pendingBefore = await seen(m.url(n.paymentId, n.merchantPaymentId as string));
    expect(await m.deliver(n)).toBe(200);
    const unknown = await seen(m.url(randomUUID(), randomUUID()));
    const mismatched = await seen(m.url(n.paymentId, randomUUID()));
    const swapped = await seen(m.url(n.merchantPaymentId as string, n.paymentId));
    expect(unknown).toEqual(pendingBefore);
    expect(mismatched).toEqual(pendingBefore);
    expect(swapped).toEqual(pendingBefore);
    // Nothing but the status leaves the server: no amount, reference or description.
    const known = await seen(m.url(n.paymentId, n.merchantPaymentId as string));
    expect(JSON.parse(known.body)).toEqual({ status: 'COMPLETED' });
  });

  it('the first final status recorded for a payment stands', async () => {
    const m = await merchant();
    const failed = notification({ paymentStatus: 'FAILED', errorDescription: 'Rejected' });
    expect(await m.deliver(failed)).toBe(200);
    expect(await m.deliver({ ...failed, paymentStatus: 'COMPLETED', errorDescription: null })).toBe(
      200,
    );
    expect((await seen(m.url(failed.paymentId, failed.merchantPaymentId as string))).body).toBe(
      '{"status":"FAILED"}',
    );
  });

  it('answers 400 without both ids or with ids outside the component’s rule, and 405 to other methods', async () => {
    const m = await merchant();
    const base = m.url('p', 'm').split('?')[0] as string;
    for (const query of [
      '',
      '?paymentId=abc',
      '?merchantPaymentId=abc',
      '?paymentId=&merchantPaymentId=abc',
      '?paymentId=%20%20&merchantPaymentId=abc',
      `?paymentId=${'a'.repeat(201)}&merchantPaymentId=abc`,
      '?paymentId=abc&merchantPaymentId=order%0A1042',
      '?paymentId=abc&merchantPaymentId=a%00b',
    ]) {
      expect((await seen(base + query)).status, query).toBe(400);
    }
    // Every id createPayment accepts is looked up (the one rule, core/protocol.ts): spaces,
    // slashes, markup, unicode, 200 characters. Not recorded: pending, as any unknown payment.
    for (const id of [
      'order 1042',
      'shop/orders/1042',
      '<b>1042</b>',
      'café-ü-😀',
      'a'.repeat(200),
    ]) {
      expect(await seen(m.url(randomUUID(), id)), id).toMatchObject({
        status: 200,
        body: '{"status":"PENDING"}',
      });
    }
    const post = await seen(m.url('p', 'm'), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });

  it('maps more than the status only when the merchant asks, and never overrides it', async () => {
    const m = await merchant(undefined, {
      expose: (outcome) => ({
        order: `ORDER-${outcome.merchantPaymentId.slice(0, 4)}`,
        status: 'X',
      }),
    });
    const n = notification();
    await m.deliver(n);
    expect(
      JSON.parse((await seen(m.url(n.paymentId, n.merchantPaymentId as string))).body),
    ).toEqual({
      order: `ORDER-${(n.merchantPaymentId as string).slice(0, 4)}`,
      status: 'COMPLETED',
    });
    // A pending answer stays the bare pending one.
    expect((await seen(m.url(randomUUID(), randomUUID()))).body).toBe('{"status":"PENDING"}');
  });
});

describe('what was paid: expose’s paid (issue 47)', () => {
  const PAID = { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' };

  /** A merchant whose expose returns `extra`, with what onError heard. */
  async function exposing(extra: (outcome: PaymentOutcome) => ExposedFields | undefined) {
    const errors: unknown[] = [];
    const m = await merchant(undefined, { expose: extra, onError: (error) => errors.push(error) });
    const answer = async (paymentStatus: 'COMPLETED' | 'FAILED' = 'COMPLETED') => {
      const n = notification({ paymentStatus });
      await m.deliver(n);
      return (await seen(m.url(n.paymentId, n.merchantPaymentId as string))).body;
    };
    return { answer, errors };
  }
  const messages = (errors: unknown[]) =>
    errors.map((error) => {
      expect(error).toBeInstanceOf(WebhookConfigError);
      expect((error as WebhookConfigError).option).toBe('expose');
      return (error as Error).message;
    });

  it('sends it beside the status as given, a decimal string amount as a number of pounds', async () => {
    const { answer, errors } = await exposing(() => ({ paid: PAID, order: 7 }));
    expect(await answer()).toBe(`{"paid":${JSON.stringify(PAID)},"order":7,"status":"COMPLETED"}`);
    // As node-postgres reads a NUMERIC column.
    const fromDatabase = await exposing(() => ({ paid: { ...PAID, amount: '12.50' } }));
    expect(JSON.parse(await fromDatabase.answer())).toEqual({ paid: PAID, status: 'COMPLETED' });
    expect([...errors, ...fromDatabase.errors]).toEqual([]);
  });

  it('leaves out each field that breaks its rule, and tells onError which and why, never its value', async () => {
    const { answer, errors } = await exposing(() => ({
      paid: { amount: '12.505', payee: 'Example Coffee Co.', reference: 'ORDER\n1042' },
    }));
    expect(JSON.parse(await answer())).toEqual({
      paid: { payee: 'Example Coffee Co.' },
      status: 'COMPLETED',
    });
    expect(messages(errors)).toEqual([
      'servicepay: createPaymentStatusHandler expose returned paid whose amount is a string of 6 characters, but it must be a number of pounds above 0 in whole pence (12.5) or a decimal string (\'12.50\'), at most 13 digits of pounds: that field was left out (docs/after-the-bank.md, "What was paid").',
      'servicepay: createPaymentStatusHandler expose returned paid whose reference is a string of 10 characters, but it must be a non-blank string of at most 200 characters without control characters: that field was left out (docs/after-the-bank.md, "What was paid").',
    ]);
    expect(messages(errors).join(' ')).not.toContain('ORDER');
  });

  it.each([
    ['a number', 12.5, 'as a number'],
    ['null', null, 'as null'],
    ['an array', [PAID], 'as an array'],
  ])('leaves out a paid that is %s, and says so', async (_, paid, said) => {
    const { answer, errors } = await exposing(() => ({ paid: paid as ExposedFields['paid'] }));
    expect(await answer()).toBe('{"status":"COMPLETED"}');
    expect(messages(errors)).toEqual([
      `servicepay: createPaymentStatusHandler expose returned paid ${said}, not an object { amount?, payee?, reference? }: left out (docs/after-the-bank.md, "What was paid").`,
    ]);
  });

  it('names the keys of a paid the page does not read, and sends what it does', async () => {
    const { answer, errors } = await exposing(
      () => ({ paid: { total: 12.5, reference: 'ORDER-1042' } }) as unknown as ExposedFields,
    );
    expect(JSON.parse(await answer())).toEqual({
      paid: { reference: 'ORDER-1042' },
      status: 'COMPLETED',
    });
    expect(messages(errors)).toEqual([
      'servicepay: createPaymentStatusHandler expose returned paid with a key the result page does not read (keys given: total, reference; it reads amount, payee and reference) (docs/after-the-bank.md, "What was paid").',
    ]);
  });

  it('sends no paid with a payment that was not completed, and no report', async () => {
    const { answer, errors } = await exposing(() => ({ paid: PAID, order: 7 }));
    expect(await answer('FAILED')).toBe('{"order":7,"status":"FAILED"}');
    expect(errors).toEqual([]);
  });

  it('an expose that answers null or undefined leaves the answer exactly { status }', async () => {
    for (const nothing of [null, undefined]) {
      const { answer, errors } = await exposing(() => nothing as unknown as undefined);
      expect(await answer()).toBe('{"status":"COMPLETED"}');
      expect(errors).toEqual([]);
    }
  });
});

describe('the payment status as an event stream', () => {
  const stream = async (url: string) => {
    const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    return readEventStream(response.body as ReadableStream<Uint8Array>);
  };

  it('sends the current status at once, the final one the moment it is recorded, then ends', async () => {
    const m = await merchant();
    const n = notification();
    const events = await stream(m.url(n.paymentId, n.merchantPaymentId as string));
    expect(await events.next()).toBe('{"status":"PENDING"}');
    expect(await m.deliver(n)).toBe(200);
    expect(await events.next()).toBe('{"status":"COMPLETED"}');
    await events.ended;
    expect(events.events).toEqual(['{"status":"PENDING"}', '{"status":"COMPLETED"}']);
  });

  it('a client that connects after the outcome gets it at once, and the stream ends', async () => {
    const m = await merchant();
    const n = notification({ paymentStatus: 'FAILED', errorDescription: 'Rejected' });
    await m.deliver(n);
    const events = await stream(m.url(n.paymentId, n.merchantPaymentId as string));
    await events.ended;
    expect(events.events).toEqual(['{"status":"FAILED"}']);
  });

  it('a mismatched pair stays pending while the real one turns final', async () => {
    // The owner's stream has the same bound, and must still be open when the delivery is
    // stored: 1.5 s, not less, so that a loaded machine does not end it first.
    const m = await merchant(undefined, { streamTimeoutMs: 1_500, heartbeatMs: 100 });
    const n = notification();
    const stranger = await stream(m.url(n.paymentId, randomUUID()));
    const owner = await stream(m.url(n.paymentId, n.merchantPaymentId as string));
    expect(await stranger.next()).toBe('{"status":"PENDING"}');
    expect(await owner.next()).toBe('{"status":"PENDING"}');
    await m.deliver(n);
    expect(await owner.next()).toBe('{"status":"COMPLETED"}');
    await stranger.ended; // at its bound, still pending
    expect(stranger.events).toEqual(['{"status":"PENDING"}']);
    expect(stranger.comments).toContain('waiting');
  });

  it('holds at most maxStreams: past it 503 with Retry-After; a client that leaves frees its place; close() ends them', async () => {
    const m = await merchant(undefined, { maxStreams: 2 });
    const a = await stream(m.url(randomUUID(), randomUUID()));
    const b = await stream(m.url(randomUUID(), randomUUID()));
    await a.next();
    await b.next();
    const third = await fetch(m.url(randomUUID(), randomUUID()), {
      headers: { accept: 'text/event-stream' },
    });
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('5');
    await third.text();
    // JSON answers are not streams: still served.
    expect((await seen(m.url(randomUUID(), randomUUID()))).status).toBe(200);
    await a.cancel();
    let again = 503;
    for (let i = 0; i < 50 && again === 503; i++) {
      await delay(20);
      const response = await fetch(m.url(randomUUID(), randomUUID()), {
        headers: { accept: 'text/event-stream' },
      });
      again = response.status;
      if (again === 200) void response.body?.cancel();
      else await response.text();
    }
    expect(again).toBe(200);
    await m.status.close();
    await b.ended;
  });
});

describe('the status endpoint’s bounds under faults', () => {
  /** A stream request from `localAddress` (127.0.0.0/8 is all this machine: real clients). */
  const openStream = (url: string, localAddress = '127.0.0.1', headers = {}) =>
    new Promise<{ status: number; retryAfter?: string; close(): void }>((resolve, reject) => {
      const req = get(
        url,
        { agent: false, localAddress, headers: { accept: 'text/event-stream', ...headers } },
        (res) => {
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode!, retryAfter, close: () => req.destroy() });
        },
      );
      req.on('error', reject);
      closers.push(async () => void req.destroy());
    });

  it('one client cannot take every stream place: a modest default per address, then 503; another client still gets its stream', async () => {
    const m = await merchant();
    const url = () => m.url(randomUUID(), randomUUID());
    const held = [];
    for (let i = 0; i < 20; i++) held.push(await openStream(url()));
    expect(held.map((s) => s.status)).toEqual(Array(20).fill(200));
    const refused = await openStream(url());
    expect({ status: refused.status, retryAfter: refused.retryAfter }).toEqual({
      status: 503,
      retryAfter: '5',
    });
    // Another shopper, at another address.
    expect((await openStream(url(), '127.0.0.2')).status).toBe(200);
    // The first client's place comes back when one of its streams ends.
    held[0]!.close();
    let again = 503;
    for (let i = 0; i < 50 && again === 503; i++) {
      await delay(20);
      const next = await openStream(url());
      again = next.status;
      next.close();
    }
    expect(again).toBe(200);
  });

  it('behind a proxy, clients as streamClient tells them apart', async () => {
    const m = await merchant(undefined, {
      maxStreamsPerClient: 2,
      streamClient: (req) => req.headers['x-shopper'] as string | undefined,
    });
    const url = () => m.url(randomUUID(), randomUUID());
    const shopper = (name: string) => openStream(url(), '127.0.0.1', { 'x-shopper': name });
    expect((await shopper('a')).status).toBe(200);
    expect((await shopper('a')).status).toBe(200);
    expect((await shopper('a')).status).toBe(503);
    expect((await shopper('b')).status).toBe(200);
    expect(() =>
      createPaymentStatusHandler({ store: m.store, streamClient: 'ip' as never }),
    ).toThrow(WebhookConfigError);
  });

  it('an expose answer longer than the page reads is sent as the status alone, and onError names the bound', async () => {
    const errors: unknown[] = [];
    const m = await merchant(undefined, {
      expose: (outcome) => ({ note: outcome.paymentId.length > 0 ? 'x'.repeat(1100) : '' }),
      onError: (error) => errors.push(error),
    });
    const n = notification();
    await m.deliver(n);
    const url = m.url(n.paymentId, n.merchantPaymentId as string);
    expect((await seen(url)).body).toBe('{"status":"COMPLETED"}');
    const events = readEventStream(
      (await fetch(url, { headers: { accept: 'text/event-stream' } }))
        .body as ReadableStream<Uint8Array>,
    );
    await events.ended;
    expect(events.events).toEqual(['{"status":"COMPLETED"}']);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBeInstanceOf(WebhookConfigError);
    expect((errors[0] as WebhookConfigError).message).toBe(
      'servicepay: createPaymentStatusHandler expose returned fields that make the answer 1132 bytes; the return page reads at most 1024, so the status was sent without them. Expose fewer or shorter fields.',
    );
  });

  it('an expose answer of exactly 1024 bytes is sent whole', async () => {
    const m = await merchant(undefined, { expose: () => ({ note: 'é'.repeat(496) }) });
    const n = notification();
    await m.deliver(n);
    const { body } = await seen(m.url(n.paymentId, n.merchantPaymentId as string));
    expect(Buffer.byteLength(body)).toBe(1024);
    expect(JSON.parse(body)).toEqual({ note: 'é'.repeat(496), status: 'COMPLETED' });
  });
});

describe('the Fetch status handler', () => {
  it('answers JSON and streams like the node:http one', async () => {
    const store = new MemoryIdempotencyStore();
    const receive = createFetchWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      store,
      ...recorder(),
    });
    const status = createFetchPaymentStatusHandler({ store });
    closers.push(() => status.close());
    const n = notification();
    const url = `https://shop.example/api/payments/status?paymentId=${n.paymentId}&merchantPaymentId=${n.merchantPaymentId}`;
    const json = await status(new Request(url));
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(await json.text()).toBe('{"status":"PENDING"}');
    const streamed = await status(new Request(url, { headers: { accept: 'text/event-stream' } }));
    const events = readEventStream(streamed.body as ReadableStream<Uint8Array>);
    expect(await events.next()).toBe('{"status":"PENDING"}');
    const d = signed(n, keys.privateKey);
    await receive(
      new Request('http://localhost/', {
        method: 'PUT',
        body: d.body,
        headers: { authorization: d.authorization },
      }),
    );
    expect(await events.next()).toBe('{"status":"COMPLETED"}');
    await events.ended;
    expect((await status(new Request(url, { method: 'DELETE' }))).status).toBe(405);
    expect((await status(new Request('https://shop.example/api/payments/status'))).status).toBe(
      400,
    );
  });
});

describe('the Fetch status handler’s clients', () => {
  it('are the addresses Deno.serve and Bun.serve hand it; IPv6 by its /64', async () => {
    const status = createFetchPaymentStatusHandler({
      store: new MemoryIdempotencyStore(),
      maxStreamsPerClient: 2,
    });
    closers.push(() => status.close());
    const ask = async (info: unknown) => {
      const response = await status(
        new Request(
          `https://shop.example/api/payments/status?paymentId=${randomUUID()}&merchantPaymentId=m`,
          { headers: { accept: 'text/event-stream' } },
        ),
        info,
      );
      // Held open (not read): the handler's close() ends them.
      return response.status;
    };
    const deno = (hostname: string) => ({ remoteAddr: { hostname, port: 1, transport: 'tcp' } });
    const bun = (address: string) => ({ requestIP: () => ({ address, family: 'IPv6', port: 1 }) });
    expect(await ask(deno('2001:db8:1:2::10'))).toBe(200);
    expect(await ask(bun('2001:db8:1:2:ffff::1'))).toBe(200);
    // The same /64, however the address is written: the same client.
    expect(await ask(deno('2001:0db8:0001:0002:aaaa:0:0:1'))).toBe(503);
    expect(await ask(deno('2001:db8:1:3::10'))).toBe(200);
    expect(await ask(bun('::ffff:192.0.2.7'))).toBe(200);
  });
});

describe('a custom store without outcome methods', () => {
  it('still receives webhooks as before; the status handler refuses it at creation, naming what is missing', async () => {
    const memory = new MemoryIdempotencyStore();
    const custom: IdempotencyStore = {
      claim: (key, ttl) => memory.claim(key, ttl),
      renew: (key, token, ttl) => memory.renew(key, token, ttl),
      complete: (key, token, ttl) => memory.complete(key, token, ttl),
      release: (key, token) => memory.release(key, token),
    };
    const record = recorder();
    const receive = createFetchWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      store: custom,
      ...record,
    });
    const d = signed(notification(), keys.privateKey);
    const deliver = () =>
      receive(
        new Request('http://localhost/', {
          method: 'PUT',
          body: d.body,
          headers: { authorization: d.authorization },
        }),
      );
    expect((await deliver()).status).toBe(200);
    expect((await deliver()).status).toBe(200);
    expect(record.notifications).toHaveLength(1);
    expect(record.errors).toEqual([]);
    let error: unknown;
    try {
      createPaymentStatusHandler({ store: custom as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebhookConfigError);
    expect((error as Error).message).toBe(
      "servicepay: createPaymentStatusHandler's store does not record payment outcomes: it lacks recordOutcome, readOutcome, subscribeOutcome. Use the receiver's MemoryIdempotencyStore, createPostgresStore or createRedisStore, or add those methods to your store (docs/after-the-bank.md).",
    );
  });
});
