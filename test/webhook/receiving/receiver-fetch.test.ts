// @vitest-environment node
// createFetchWebhookHandler, from both entries (node:crypto and WebCrypto): with real Request
// objects, and over real HTTP through a node:http adapter as a platform would serve it.
import { describe, expect, it } from 'vitest';
import { createFetchWebhookHandler as createOnNode } from '../../../src/webhook/index';
import {
  createFetchWebhookHandler as createOnWeb,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../../src/webhook/web';
import type { FetchWebhookHandlerOptions } from '../../../src/webhook/web';
import { serviceKeys } from '../support/keys';
import { delay, fetchAdapter, listen, send } from '../support/http';
import { notification, signed } from '../support/notifications';
import { recorder } from '../support/receivers';
import type { Recorder } from '../support/receivers';

const keys = serviceKeys();
const URL_ = 'https://merchant.example/api/webhook';

type Create = (options: FetchWebhookHandlerOptions) => (request: Request) => Promise<Response>;
const variants: [string, Create][] = [
  ['servicepay/webhook/web (WebCrypto)', createOnWeb],
  ['servicepay/webhook (node:crypto)', createOnNode as unknown as Create],
];

function put(body: BodyInit | null, headers: Record<string, string> = {}, method = 'PUT'): Request {
  return new Request(URL_, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === null ? {} : { body }),
  });
}

describe.each(variants)('createFetchWebhookHandler from %s', (_name, create) => {
  function handler(
    options: Partial<FetchWebhookHandlerOptions> = {},
    record: Recorder = recorder(),
  ): { handle: (r: Request) => Promise<Response>; record: Recorder } {
    const handle = create({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      onNotification: record.onNotification,
      onError: record.onError,
      ...options,
    });
    return { handle, record };
  }

  it('valid 200 with one call; duplicate 200 without a second call', async () => {
    const { handle, record } = handler();
    const sent = notification();
    const d = signed(sent, keys.privateKey);
    const first = await handle(put(d.body, { authorization: d.authorization }));
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('');
    expect(first.headers.get('content-type')).toBeNull(); // an empty answer, typed as nothing
    expect((await handle(put(d.body, { authorization: d.authorization }))).status).toBe(200);
    expect(record.notifications).toEqual([sent]);
  });

  it('tampered 401 with nothing processed', async () => {
    const { handle, record } = handler();
    const d = signed(notification(), keys.privateKey);
    const answer = await handle(
      put(d.body.replace('GBP', 'EUR'), { authorization: d.authorization }),
    );
    expect(answer.status).toBe(401);
    expect(record.notifications).toEqual([]);
  });

  it('50 concurrent duplicates: one call, all 200', async () => {
    const { handle, record } = handler(
      {},
      recorder(() => delay(30)),
    );
    const d = signed(notification(), keys.privateKey);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => handle(put(d.body, { authorization: d.authorization }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 50 }, () => 200));
    expect(record.notifications).toHaveLength(1);
  });

  it('failing onNotification 500, then the resend is processed', async () => {
    const { handle, record } = handler(
      {},
      recorder((_n, attempt) => {
        if (attempt === 1) return Promise.reject(new Error('boom'));
      }),
    );
    const d = signed(notification(), keys.privateKey);
    expect((await handle(put(d.body, { authorization: d.authorization }))).status).toBe(500);
    expect((await handle(put(d.body, { authorization: d.authorization }))).status).toBe(200);
    expect(record.notifications).toHaveLength(1);
  });

  it('a hung onNotification does not block its notification for ever', async () => {
    const { handle, record } = handler(
      // Renewed every 333 ms while it runs, for at most 1 s: the claim lapses by 2 s.
      { claimTtlMs: 1000, maxHandlingMs: 1000 },
      recorder((_n, attempt) => (attempt === 1 ? new Promise<void>(() => {}) : undefined)),
    );
    const d = signed(notification(), keys.privateKey);
    const deliver = (): Promise<Response> =>
      handle(put(d.body, { authorization: d.authorization }));
    void deliver(); // hangs, as a handler stuck on a lock would
    await delay(10);
    const duplicate = await deliver();
    expect(duplicate.status).toBe(409); // waited for the claim's lifetime, then asks for a resend
    expect(duplicate.headers.get('retry-after')).not.toBeNull();
    await delay(1400);
    expect((await deliver()).status).toBe(200); // the claim lapsed: the resend is handled
    expect(record.notifications).toHaveLength(1);
  });

  it('oversize 413, by Content-Length and by a streamed body', async () => {
    const { handle, record } = handler({ maxBodyBytes: 100 });
    const d = signed(notification(), keys.privateKey);
    const declared = await handle(
      put(d.body, { authorization: d.authorization, 'content-length': String(d.body.length) }),
    );
    expect(declared.status).toBe(413);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64));
      },
    });
    const streamed = await handle(
      new Request(URL_, {
        method: 'PUT',
        body: endless,
        duplex: 'half',
        headers: { authorization: d.authorization },
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(10); // reading stopped soon after the limit
    expect(record.notifications).toEqual([]);
  });

  it('wrong method 405 with Allow: PUT', async () => {
    const { handle } = handler();
    const answer = await handle(put(null, {}, 'GET'));
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('PUT');
  });

  it('a body already read by request.json() gets 500 explaining why', async () => {
    const { handle, record } = handler();
    const d = signed(notification(), keys.privateKey);
    const request = put(d.body, { authorization: d.authorization });
    await request.json();
    const answer = await handle(request);
    expect(answer.status).toBe(500);
    expect(await answer.text()).toMatch(/request\.json\(\)/);
    expect(record.notifications).toEqual([]);
  });

  it('malformed notification 400', async () => {
    const { handle } = handler();
    const d = signed('[1,2,3]', keys.privateKey);
    expect((await handle(put(d.body, { authorization: d.authorization }))).status).toBe(400);
  });

  it('allowedSourceAddresses needs getSourceAddress, then refuses other addresses with 403', async () => {
    expect(() => handler({ allowedSourceAddresses: ['203.0.113.7'] })).toThrow(WebhookConfigError);
    const { handle, record } = handler({
      allowedSourceAddresses: ['203.0.113.7'],
      getSourceAddress: (request) => request.headers.get('x-real-ip'),
    });
    const d = signed(notification(), keys.privateKey);
    const from = (ip: string): Request =>
      put(d.body, { authorization: d.authorization, 'x-real-ip': ip });
    expect((await handle(from('198.51.100.9'))).status).toBe(403);
    expect(record.notifications).toEqual([]);
    expect((await handle(from('203.0.113.7'))).status).toBe(200);
    expect(record.contexts[0]?.sourceAddress).toBe('203.0.113.7');
  });

  it('serves over real HTTP: valid, tampered, duplicate, concurrent, 405, 413, 403', async () => {
    const record = recorder(() => delay(20));
    const store = new MemoryIdempotencyStore();
    const handle = create({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      onNotification: record.onNotification,
      onError: record.onError,
      store,
      maxBodyBytes: 4096,
    });
    const server = await listen(fetchAdapter(handle));
    const guarded = await listen(
      fetchAdapter(
        create({
          publicKey: keys.publicText,
          expectedPayment: 'unreconciled',
          onNotification: record.onNotification,
          allowedSourceAddresses: ['203.0.113.7'],
          getSourceAddress: (request) => request.headers.get('x-forwarded-for'),
        }),
      ),
    );
    try {
      const d = signed(notification(), keys.privateKey);
      const auth = { authorization: d.authorization };
      expect((await send(server.url, d.body.replace('12.5', '0.5'), auth)).status).toBe(401);
      const concurrent = await Promise.all(
        Array.from({ length: 50 }, () => send(server.url, d.body, auth)),
      );
      expect(concurrent.map((a) => a.status)).toEqual(Array.from({ length: 50 }, () => 200));
      expect((await send(server.url, d.body, auth)).status).toBe(200);
      expect(record.notifications).toHaveLength(1);
      expect((await send(server.url, d.body, auth, 'POST')).status).toBe(405);
      const big = signed(
        notification({ paymentMetadata: { pad: 'y'.repeat(5000) } }),
        keys.privateKey,
      );
      expect((await send(server.url, big.body, { authorization: big.authorization })).status).toBe(
        413,
      );
      // The adapter reports the real peer (127.0.0.1), which is not allowed.
      expect(
        (await send(guarded.url, d.body, { ...auth, 'x-forwarded-for': '203.0.113.7' })).status,
      ).toBe(403);
      expect(record.notifications).toHaveLength(1);
    } finally {
      await server.close();
      await guarded.close();
    }
  });
});
