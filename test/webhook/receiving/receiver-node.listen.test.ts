// @vitest-environment node
// listenWebhook: a ready node:http server for the receiver (issue 14, finding 7). Slow clients
// are cut by the server's deadlines; Node's defaults would hold a trickled body for 300 s.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenWebhook, MemoryIdempotencyStore } from '../../../src/webhook/index';
import type { WebhookServer, WebhookServerOptions } from '../../../src/webhook/index';
import { deferred } from '../../helpers/deferred';
import { delay, send, trickle } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder } from '../support/receivers';

const keys = serviceKeys();
const running: WebhookServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(
  extra: Partial<WebhookServerOptions> = {},
): Promise<WebhookServer & { record: ReturnType<typeof recorder> }> {
  const record = recorder();
  const server = await listenWebhook({
    port: 0,
    publicKey: keys.publicText,
    expectedPayment: 'unreconciled',
    onNotification: record.onNotification,
    onError: record.onError,
    ...extra,
  });
  running.push(server);
  return Object.assign(server, { record });
}

describe('listenWebhook', () => {
  it('binds 127.0.0.1 by default and receives deliveries at its path', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/servicepay$/);
    expect(server.server.address()).toMatchObject({ address: '127.0.0.1' });
    const delivery = signed(notification(), keys.privateKey);
    const answer = await send(server.url, delivery.body, { authorization: delivery.authorization });
    expect(answer.status).toBe(200);
    expect(server.record.notifications).toHaveLength(1);
    const elsewhere = await send(server.url.replace('/webhooks/servicepay', '/other'), '{}');
    expect(elsewhere.status).toBe(404);
  });

  it('sets the documented timeouts on the node:http server', async () => {
    const { server } = await start();
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(15_000);
    expect(server.keepAliveTimeout).toBe(5_000);
  });

  it('a trickled body is answered 408 and the connection closed', async () => {
    const server = await start({ requestTimeoutMs: 300 });
    const body = signed(notification(), keys.privateKey).body;
    const { pathname } = new URL(server.url);
    const opening =
      `PUT ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    // 20 ms a byte: the whole body would take several seconds; the deadline is 300 ms.
    const result = await trickle(server.url, opening, body);
    expect(result.cut).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(server.record.notifications).toEqual([]);
  });

  it('trickled headers are cut too', async () => {
    const server = await start({ requestTimeoutMs: 300 });
    const { pathname } = new URL(server.url);
    const result = await trickle(
      server.url,
      `PUT ${pathname} HTTP/1.1\r\n`,
      'X-Slow: ' + 'a'.repeat(400) + '\r\n\r\n',
    );
    expect(result.cut).toBe(true);
    expect(server.record.notifications).toEqual([]);
  });

  it('a port already in use rejects', async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    await expect(
      listenWebhook({
        port,
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        onNotification: () => {},
      }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('listenWebhook: shutting down', () => {
  it('close() with a hung handler: the delivery is answered 503, its claim released, close() resolves', async () => {
    const store = new MemoryIdempotencyStore();
    // Set when the handler starts: close() is called while it runs, not after a guessed delay
    // (on a loaded machine the delivery may not have arrived yet).
    const handling = deferred<void>();
    const server = await listenWebhook({
      port: 0,
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      store,
      closeTimeoutMs: 300,
      onNotification: () => {
        handling.resolve();
        return new Promise<void>(() => {}); // never settles
      },
      onError: () => {},
    });
    const delivery = signed(notification(), keys.privateKey);
    const answered = send(server.url, delivery.body, { authorization: delivery.authorization });
    await handling.promise;
    await server.close(); // resolves: it would wait for ever before
    const answer = await answered;
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    // The claim was released: the service's resend (to a new instance) is handled.
    const key = `${(JSON.parse(delivery.body) as { paymentId: string }).paymentId}:COMPLETED`;
    expect(store.claim(key, 1000).state).toBe('claimed');
  });

  it('close() lets a delivery that finishes within closeTimeoutMs answer 200', async () => {
    const handling = deferred<void>();
    const record = recorder(() => {
      handling.resolve();
      return delay(200);
    });
    const server = await listenWebhook({
      port: 0,
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      closeTimeoutMs: 5_000,
      ...record,
    });
    const delivery = signed(notification(), keys.privateKey);
    const answered = send(server.url, delivery.body, { authorization: delivery.authorization });
    await handling.promise;
    await server.close();
    expect((await answered).status).toBe(200);
    expect(record.notifications).toHaveLength(1);
  });

  it('an oversized request with Expect: 100-continue gets 413 without "100 Continue"; a fitting one gets both', async () => {
    const server = await start({ maxBodyBytes: 1024 });
    const { hostname, port, pathname } = new URL(server.url);
    const ask = (length: number): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname);
        let answer = '';
        socket.setEncoding('latin1');
        socket.on('error', reject);
        socket.on('data', (chunk: string) => {
          answer += chunk;
          // Wait for a final answer (or, for the fitting one, the invitation alone).
          if (/HTTP\/1\.1 [2-5]\d\d (?!Continue)/.test(answer) || answer.includes('100 Continue')) {
            socket.end();
          }
        });
        socket.on('close', () => resolve(answer));
        socket.write(
          `PUT ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: ${length}\r\n` +
            'Expect: 100-continue\r\nContent-Type: application/json\r\n\r\n',
        );
      });
    const oversized = await ask(10 * 1024 * 1024);
    expect(oversized).toMatch(/^HTTP\/1\.1 413 /);
    expect(oversized).not.toContain('100 Continue');
    expect(await ask(100)).toMatch(/^HTTP\/1\.1 100 Continue/);
  });
});
