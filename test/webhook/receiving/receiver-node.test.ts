// @vitest-environment node
// createWebhookHandler over real HTTP on 127.0.0.1: what the service gets back, and what
// reached onNotification and the idempotency store.
import { request } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  MemoryIdempotencyStore,
  WebhookRequestError,
  WebhookSignatureError,
} from '../../../src/webhook/index';
import type { IdempotencyStore, WebhookHandlerOptions } from '../../../src/webhook/index';
import { deferred } from '../../helpers/deferred';
import { serviceKeys } from '../support/keys';
import { delay, listen, send, trickle } from '../support/http';
import type { Answer, TestServer } from '../support/http';
import { notification, signed } from '../support/notifications';
import { recorder, RecordingStore } from '../support/receivers';
import type { Recorder } from '../support/receivers';

const keys = serviceKeys();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Receiver {
  url: string;
  record: Recorder;
  store: RecordingStore;
}

async function start(
  options: Partial<WebhookHandlerOptions> = {},
  record: Recorder = recorder(),
  wrap: (handler: RequestListener) => RequestListener = (h) => h,
): Promise<Receiver> {
  const store = new RecordingStore(options.store);
  const handler = createWebhookHandler({
    publicKey: keys.publicText,
    expectedPayment: 'unreconciled',
    onNotification: record.onNotification,
    onError: record.onError,
    ...options,
    store,
  });
  const server = await listen(wrap(handler));
  servers.push(server);
  return { url: `${server.url}/webhooks/servicepay`, record, store };
}

function deliver(url: string, delivery: { body: string; authorization: string }): Promise<Answer> {
  return send(url, delivery.body, { authorization: delivery.authorization });
}

/** Sends until the service would stop: a 200. Returns every status seen. */
async function deliverUntilOk(
  url: string,
  delivery: { body: string; authorization: string },
): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < 100; attempt++) {
    const { status } = await deliver(url, delivery);
    statuses.push(status);
    if (status === 200) return statuses;
    await delay(5);
  }
  throw new Error(`never answered 200: ${statuses.join(',')}`);
}

describe('createWebhookHandler over node:http', () => {
  it('a valid delivery gets 200 after one onNotification call with the parsed notification', async () => {
    const r = await start();
    const sent = notification();
    const delivery = signed(sent, keys.privateKey);
    const answer = await deliver(r.url, delivery);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-length')).toBe('0');
    expect(r.record.notifications).toEqual([sent]);
    const [context] = r.record.contexts;
    expect(context?.idempotencyKey).toBe(`${sent.paymentId}:COMPLETED`);
    expect(Buffer.from(context?.rawBody ?? []).toString()).toBe(delivery.body);
    expect(context?.sourceAddress).toMatch(/127\.0\.0\.1/);
    expect(r.store.calls).toEqual([
      `claim ${sent.paymentId}:COMPLETED -> claimed`,
      `complete ${sent.paymentId}:COMPLETED`,
    ]);
    expect(r.record.errors).toEqual([]);
  });

  it('a tampered body gets 401, and nothing is parsed, stored or called', async () => {
    const r = await start();
    const delivery = signed(notification(), keys.privateKey);
    const tampered = delivery.body.replace('12.5', '1250');
    const answer = await deliver(r.url, { ...delivery, body: tampered });
    expect(answer.status).toBe(401);
    expect(r.record.notifications).toEqual([]);
    expect(r.store.calls).toEqual([]);
    expect(r.record.errors[0]?.error).toBeInstanceOf(WebhookSignatureError);
    expect(r.record.errors[0]?.context).toMatchObject({
      outcome: 'invalid-signature',
      status: 401,
    });
  });

  it('a missing or malformed Authorization header gets 401', async () => {
    const r = await start();
    const delivery = signed(notification(), keys.privateKey);
    expect((await send(r.url, delivery.body)).status).toBe(401);
    const bearer = delivery.authorization.replace('SHA256withRSA', 'Bearer');
    expect((await deliver(r.url, { ...delivery, authorization: bearer })).status).toBe(401);
    expect(r.record.notifications).toEqual([]);
  });

  it('a body re-serialised after signing gets 401 (spec 5.1.4)', async () => {
    const r = await start();
    const delivery = signed(notification(), keys.privateKey);
    const pretty = JSON.stringify(JSON.parse(delivery.body), null, 2);
    expect((await deliver(r.url, { ...delivery, body: pretty })).status).toBe(401);
  });

  it('a duplicate delivery gets 200 without a second call', async () => {
    const r = await start();
    const delivery = signed(notification(), keys.privateKey);
    expect((await deliver(r.url, delivery)).status).toBe(200);
    expect((await deliver(r.url, delivery)).status).toBe(200);
    expect(r.record.notifications).toHaveLength(1);
    expect(r.store.calls.at(-1)).toMatch(/-> completed$/);
  });

  it('50 concurrent duplicates: one call, and every delivery ends in 200', async () => {
    const r = await start(
      {},
      recorder(() => delay(50)),
    );
    const delivery = signed(notification(), keys.privateKey);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () => deliverUntilOk(r.url, delivery)),
    );
    expect(r.record.notifications).toHaveLength(1);
    // In one process the duplicates wait for the first delivery's outcome: 200 at once.
    expect(statuses).toEqual(Array.from({ length: 50 }, () => [200]));
    expect(r.store.calls.filter((c) => c.startsWith('complete'))).toHaveLength(1);
  });

  it('two instances sharing a store: one call; the other instance asks for a resend, none lost', async () => {
    const shared = new MemoryIdempotencyStore();
    const record = recorder(() => delay(50));
    const a = await start({ store: shared }, record);
    const b = await start({ store: shared }, record);
    const delivery = signed(notification(), keys.privateKey);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deliverUntilOk(i % 2 ? a.url : b.url, delivery)),
    );
    expect(record.notifications).toHaveLength(1);
    expect(statuses.flat()).toContain(409);
    expect(statuses.every((s) => s.at(-1) === 200)).toBe(true);
  });

  it('a failing onNotification gets 500 and releases the claim; the resend is processed', async () => {
    const r = await start(
      {},
      recorder((_n, attempt) => {
        if (attempt === 1) throw new Error('database unavailable');
      }),
    );
    const sent = notification();
    const delivery = signed(sent, keys.privateKey);
    const first = await deliver(r.url, delivery);
    expect(first.status).toBe(500);
    expect(first.text).not.toMatch(/database/); // internals are not sent back
    expect(r.record.notifications).toEqual([]);
    expect(r.record.errors[0]?.context).toMatchObject({ outcome: 'handler-failed', status: 500 });
    expect((r.record.errors[0]?.error as Error).message).toBe('database unavailable');
    expect(r.store.calls).toContain(`release ${sent.paymentId}:COMPLETED`);

    expect((await deliver(r.url, delivery)).status).toBe(200);
    expect(r.record.notifications).toEqual([sent]);
    expect((await deliver(r.url, delivery)).status).toBe(200);
    expect(r.record.notifications).toHaveLength(1);
  });

  it('concurrent duplicates of a failing delivery all get non-200, then the resend is processed', async () => {
    // The first attempt fails only once all ten bodies have been read, and 30 ms later (the
    // others' signature checks): concurrent however busy the machine. With a bare 30 ms from
    // the first's start, a loaded run once let a late duplicate become the resend (200).
    let bodies = 0;
    const read = deferred<void>();
    const r = await start(
      {},
      recorder(async (_n, attempt) => {
        if (attempt !== 1) return;
        await read.promise;
        await delay(30);
        throw new Error('first attempt fails');
      }),
      (handler) => (req, res) => {
        req.on('end', () => ++bodies === 10 && read.resolve());
        void handler(req, res);
      },
    );
    const delivery = signed(notification(), keys.privateKey);
    const first = await Promise.all(Array.from({ length: 10 }, () => deliver(r.url, delivery)));
    expect(first.every((a) => a.status >= 500)).toBe(true);
    expect(first.some((a) => a.status === 503 && a.headers.get('retry-after') !== null)).toBe(true);
    expect(await deliverUntilOk(r.url, delivery)).toEqual([200]);
    expect(r.record.notifications).toHaveLength(1);
  });

  it('COMPLETED and FAILED of one payment are distinct notifications', async () => {
    const r = await start();
    const completed = notification();
    const failed = { ...completed, paymentStatus: 'FAILED' as const, errorDescription: 'x' };
    expect((await deliver(r.url, signed(completed, keys.privateKey))).status).toBe(200);
    expect((await deliver(r.url, signed(failed, keys.privateKey))).status).toBe(200);
    expect(r.record.notifications.map((n) => n.paymentStatus)).toEqual(['COMPLETED', 'FAILED']);
  });

  it('a verified body that is not a notification gets 400 and no call', async () => {
    const r = await start();
    const answer = await deliver(r.url, signed({ hello: 'world' }, keys.privateKey));
    expect(answer.status).toBe(400);
    expect(r.record.notifications).toEqual([]);
    expect(r.store.calls).toEqual([]);
    expect(r.record.errors[0]?.context.outcome).toBe('invalid-notification');
  });

  it('a Content-Length over maxBodyBytes gets 413 before the body is read', async () => {
    const r = await start({ maxBodyBytes: 1024 });
    const big = signed(
      notification({ paymentMetadata: { pad: 'x'.repeat(2000) } }),
      keys.privateKey,
    );
    const answer = await deliver(r.url, big);
    expect(answer.status).toBe(413);
    expect(r.record.notifications).toEqual([]);
    expect(r.record.errors[0]?.error).toBeInstanceOf(WebhookRequestError);
  });

  it('a chunked body growing over maxBodyBytes gets 413 while it is still arriving', async () => {
    const r = await start({ maxBodyBytes: 1024 });
    const delivery = signed(notification(), keys.privateKey);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(r.url, {
        method: 'PUT',
        headers: { authorization: delivery.authorization, 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      // The server may close while chunks are still being written; the answer is what counts.
      req.on('error', (error) => setTimeout(() => reject(error), 500));
      let sent = 0;
      const pump = (): void => {
        if (sent >= 64) {
          req.end();
          return;
        }
        sent++;
        req.write('x'.repeat(256), () => setTimeout(pump, 2));
      };
      pump();
    });
    expect(status).toBe(413);
    expect(r.record.notifications).toEqual([]);
  });

  it.each(['GET', 'POST', 'PATCH', 'DELETE'])('%s gets 405 with Allow: PUT', async (method) => {
    const r = await start();
    const delivery = signed(notification(), keys.privateKey);
    const answer = await send(
      r.url,
      method === 'GET' ? undefined : delivery.body,
      { authorization: delivery.authorization },
      method,
    );
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('PUT');
    expect(r.record.notifications).toEqual([]);
  });

  it('a body consumed by express.json() first gets 500 explaining the raw-body pitfall', async () => {
    // What express.json() does: read the stream, then leave the parsed object in req.body.
    const jsonParser =
      (handler: RequestListener): RequestListener =>
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          (req as IncomingMessage & { body?: unknown }).body = JSON.parse(
            Buffer.concat(chunks).toString(),
          );
          handler(req, res);
        });
      };
    const r = await start({}, recorder(), jsonParser);
    const answer = await deliver(r.url, signed(notification(), keys.privateKey));
    expect(answer.status).toBe(500);
    expect(answer.text).toMatch(/express\.json\(\)/);
    expect(answer.text).toMatch(/Mount the webhook route before express\.json\(\)/);
    expect(r.record.notifications).toEqual([]);
    expect(r.record.errors[0]?.context.outcome).toBe('body-already-parsed');
    // What the merchant's log shows (onError; by default console.error): the one rule that
    // fixes it. express.raw() on the route does not help once a global express.json() ran.
    expect((r.record.errors[0]?.error as Error).message).toMatch(
      /Mount the webhook route before express\.json\(\)/,
    );
  });

  it('a Buffer left in req.body by express.raw() is verified as the exact bytes', async () => {
    const rawParser =
      (handler: RequestListener): RequestListener =>
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          (req as IncomingMessage & { body?: unknown }).body = Buffer.concat(chunks);
          handler(req, res);
        });
      };
    const r = await start({}, recorder(), rawParser);
    expect((await deliver(r.url, signed(notification(), keys.privateKey))).status).toBe(200);
    expect(r.record.notifications).toHaveLength(1);
  });

  it('an Express-style body parser that skipped the route (req.body = {}) leaves the stream to the handler', async () => {
    const skipping =
      (handler: RequestListener): RequestListener =>
      (req, res) => {
        (req as IncomingMessage & { body?: unknown }).body = {};
        handler(req, res);
      };
    const r = await start({}, recorder(), skipping);
    expect((await deliver(r.url, signed(notification(), keys.privateKey))).status).toBe(200);
  });

  it('allowedSourceAddresses: other addresses get 403, listed ones are processed', async () => {
    const delivery = signed(notification(), keys.privateKey);
    const closed = await start({ allowedSourceAddresses: ['203.0.113.7'] });
    expect((await deliver(closed.url, delivery)).status).toBe(403);
    expect(closed.record.notifications).toEqual([]);
    expect(closed.record.errors[0]?.context.outcome).toBe('forbidden-source');

    const open = await start({ allowedSourceAddresses: ['::ffff:127.0.0.1'] });
    expect((await deliver(open.url, delivery)).status).toBe(200);
    expect(open.record.notifications).toHaveLength(1);
  });

  it('getSourceAddress decides the address checked', async () => {
    const r = await start({
      allowedSourceAddresses: ['198.51.100.1'],
      getSourceAddress: (req) => String(req.headers['x-peer'] ?? ''),
    });
    const delivery = signed(notification(), keys.privateKey);
    const headers = { authorization: delivery.authorization, 'x-peer': '198.51.100.1' };
    expect((await send(r.url, delivery.body, headers)).status).toBe(200);
  });

  it('a failing store gets 503 without calling onNotification; the resend is processed', async () => {
    let down = true;
    const memory = new MemoryIdempotencyStore();
    const flaky: IdempotencyStore = {
      claim: (key, ttl) => {
        if (down) throw new Error('redis down');
        return memory.claim(key, ttl);
      },
      renew: (key, token, ttl) => memory.renew(key, token, ttl),
      complete: (key, token, ttl) => memory.complete(key, token, ttl),
      release: (key, token) => memory.release(key, token),
    };
    const r = await start({ store: flaky });
    const delivery = signed(notification(), keys.privateKey);
    const answer = await deliver(r.url, delivery);
    expect(answer.status).toBe(503);
    expect(r.record.notifications).toEqual([]);
    down = false;
    expect((await deliver(r.url, delivery)).status).toBe(200);
    expect(r.record.notifications).toHaveLength(1);
  });

  it('a store that fails to record completion still answers 200 and reports it', async () => {
    const memory = new MemoryIdempotencyStore();
    const r = await start({
      store: {
        claim: (key, ttl) => memory.claim(key, ttl),
        renew: (key, token, ttl) => memory.renew(key, token, ttl),
        complete: () => Promise.reject(new Error('write failed')),
        release: (key, token) => memory.release(key, token),
      },
    });
    expect((await deliver(r.url, signed(notification(), keys.privateKey))).status).toBe(200);
    expect(r.record.notifications).toHaveLength(1);
    expect(r.record.errors[0]?.context).toMatchObject({
      outcome: 'store-unavailable',
      status: 200,
    });
  });

  it('no exception escapes: throwing hooks become 500, a throwing onError changes nothing', async () => {
    const r = await start({
      idempotencyKey: () => {
        throw new Error('bad key function');
      },
      onError: () => {
        throw new Error('logger broken');
      },
    });
    const answer = await deliver(r.url, signed(notification(), keys.privateKey));
    expect(answer.status).toBe(500);
    // The server is still healthy.
    const ok = await start();
    expect((await deliver(ok.url, signed(notification(), keys.privateKey))).status).toBe(200);
  });

  it('a client that aborts mid-body is reported and does not disturb the next delivery', async () => {
    let reported: (outcome: string) => void = () => {};
    const outcome = new Promise<string>((resolve) => (reported = resolve));
    const r = await start({ onError: (_e, c) => reported(c.outcome) });
    const req = request(r.url, {
      method: 'PUT',
      headers: { 'content-length': '1000', authorization: 'SHA256withRSA AAAA' },
    });
    req.on('error', () => {});
    req.write('{"paymentId":', () => setTimeout(() => req.destroy(), 20));
    expect(await outcome).toBe('body-unreadable');
    expect((await deliver(r.url, signed(notification(), keys.privateKey))).status).toBe(200);
  });

  it('in a bare node:http server (Node’s 300 s requestTimeout), a trickled body is cut at bodyTimeoutMs: 400, onError told, the connection closed', async () => {
    // Issue 46: a server the merchant made with no deadlines of its own held it for 300 s.
    const r = await start({ bodyTimeoutMs: 300 });
    const delivery = signed(notification(), keys.privateKey);
    const opening =
      `PUT /webhooks/servicepay HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Authorization: ${delivery.authorization}\r\nContent-Length: ${delivery.body.length}\r\n\r\n`;
    // 20 ms a byte: the whole body would take several seconds.
    const result = await trickle(r.url, opening, delivery.body);
    expect(result.cut).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(result.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(r.record.notifications).toEqual([]);
    expect(
      r.record.errors.map(({ error, context }) => [context.outcome, (error as Error).message]),
    ).toEqual([
      [
        'body-unreadable',
        'servicepay: the request body did not arrive within 300 ms (bodyTimeoutMs): the connection is closed',
      ],
    ]);
    // A delivery sent at once is not touched by the limit.
    expect((await deliver(r.url, delivery)).status).toBe(200);
  });

  it('refuses a bodyTimeoutMs that is not a positive number', () => {
    expect(() =>
      createWebhookHandler({
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        onNotification() {},
        bodyTimeoutMs: 0,
      }),
    ).toThrow(/bodyTimeoutMs/);
  });

  it('works as an Express handler (req, res, next): next is never called', async () => {
    let nextCalled = false;
    const r = await start({}, recorder(), (handler) => (req, res) => {
      const express = handler as unknown as (
        q: IncomingMessage,
        s: ServerResponse,
        next: () => void,
      ) => void;
      express(req, res, () => (nextCalled = true));
    });
    expect((await deliver(r.url, signed(notification(), keys.privateKey))).status).toBe(200);
    expect(nextCalled).toBe(false);
  });
});
