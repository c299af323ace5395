// @vitest-environment node
// Hostile and broken key endpoints (issue 14, findings 1-3): the key decides which webhooks are
// genuine, so its fetch is bounded in size, kept to https and one origin, and never repeated
// for every forged delivery while the endpoint fails.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFetchWebhookHandler as createFetchOnNode,
  createWebhookHandler,
  fetchPublicKey,
  WebhookConfigError,
  WebhookKeyError,
  WebhookKeyFetchError,
} from '../../../src/webhook/index';
import { createFetchWebhookHandler as createFetchOnWeb } from '../../../src/webhook/web';
import { fetchAdapter, listen, send } from '../support/http';
import type { TestServer } from '../support/http';
import { createKeyPair } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder } from '../support/receivers';

const PATH = '/.well-known/signature/pem';
const service = createKeyPair();
const attacker = createKeyPair();

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(listener: Parameters<typeof listen>[0]): Promise<TestServer> {
  const server = await listen(listener);
  servers.push(server);
  return server;
}

describe('finding 1: a key endpoint streaming megabytes', () => {
  it('the fetch rejects with a size error and the connection is closed long before the end', async () => {
    const CHUNK = Buffer.alloc(64 * 1024, 'A');
    const TOTAL = 64 * 1024 * 1024; // what the endpoint would send if nobody stopped it
    let sent = 0;
    let finished = false;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // no Content-Length: streamed
      res.on('close', () => closed());
      const pump = (): void => {
        // Honour backpressure, as a real server does: only what the client reads is sent.
        while (sent < TOTAL && !res.destroyed) {
          sent += CHUNK.length;
          if (!res.write(CHUNK)) return void res.once('drain', pump);
        }
        if (sent >= TOTAL) {
          finished = true;
          res.end();
        }
      };
      pump();
    });

    const error = await fetchPublicKey({ url: server.url + PATH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookKeyError);
    expect((error as Error).message).toBe(
      `servicepay: ${server.url + PATH} answered more than 65536 bytes, which is not a public key; the request was aborted.`,
    );
    await connectionClosed;
    expect(finished).toBe(false);
    // What was sent stays within the limit plus socket buffers, far below the 64 MB offered.
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });

  it('a declared Content-Length over the limit is refused before its body is read', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    let sent = 0;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(32 * 1024 * 1024) });
      res.on('close', () => closed());
      const chunk = Buffer.alloc(64 * 1024, 'A');
      const pump = (): void => {
        while (!res.destroyed && sent < 32 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });
    await expect(fetchPublicKey({ url: server.url + PATH })).rejects.toThrow(
      /answered more than 65536 bytes/,
    );
    await connectionClosed;
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('finding 2: https only, one origin', () => {
  it('a redirect to another origin is refused and the other origin is never asked', async () => {
    let foreignRequests = 0;
    const foreign = await serve((_req, res) => {
      foreignRequests++;
      res.writeHead(200, { 'content-type': 'text/plain' }).end(attacker.publicText);
    });
    // Two loopback servers on different ports are different origins.
    const redirecting = await serve((_req, res) => {
      res.writeHead(302, { location: foreign.url + PATH }).end();
    });
    const error = await fetchPublicKey({ url: redirecting.url + PATH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookKeyFetchError);
    expect((error as Error).message).toBe(
      `servicepay: the public-key endpoint ${redirecting.url + PATH} redirected to ${foreign.url}, another origin; the key is only taken from the configured origin. Configure the address that serves the key itself.`,
    );
    expect(foreignRequests).toBe(0);
  });

  it.each(['node:http', 'fetch (node:crypto)', 'fetch (WebCrypto)'] as const)(
    '%s receiver: a forged delivery signed with the key a redirect points to is not accepted',
    async (kind) => {
      const foreign = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(attacker.publicText);
      });
      const redirecting = await serve((_req, res) => {
        res.writeHead(302, { location: foreign.url + PATH }).end();
      });
      const record = recorder();
      const options = {
        publicKeyUrl: redirecting.url + PATH,
        expectedPayment: 'unreconciled' as const,
        onNotification: record.onNotification,
        onError: record.onError,
      };
      const receiver = await serve(
        kind === 'node:http'
          ? createWebhookHandler(options)
          : fetchAdapter(
              kind === 'fetch (WebCrypto)' ? createFetchOnWeb(options) : createFetchOnNode(options),
            ),
      );
      const forged = signed(notification(), attacker.privateKey);
      const answer = await send(receiver.url, forged.body, {
        authorization: forged.authorization,
      });
      expect(answer.status).toBe(503);
      expect(record.notifications).toEqual([]);
      expect(record.errors[0]?.error).toBeInstanceOf(WebhookKeyFetchError);
    },
  );

  it('a same-origin redirect is followed (a moved path on the same server)', async () => {
    const server = await serve((req, res) => {
      if (req.url === PATH) return res.writeHead(301, { location: '/keys/current' }).end();
      res.writeHead(200, { 'content-type': 'text/plain' }).end(service.publicText);
    });
    expect(await fetchPublicKey({ url: server.url + PATH })).toBe(service.publicPem);
  });

  it('an https address redirecting to http (a downgrade) is refused without a second request', async () => {
    const requested: string[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      requested.push(String(input));
      expect(init?.redirect).toBe('manual');
      return new Response(null, {
        status: 302,
        headers: { location: 'http://keys.example/.well-known/signature/pem' },
      });
    }) as typeof fetch;
    const error = await fetchPublicKey(
      { url: 'https://keys.example/.well-known/signature/pem' },
      { fetch: fakeFetch },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookKeyFetchError);
    expect((error as Error).message).toMatch(
      /redirected to http:\/\/keys\.example, another origin/,
    );
    expect(requested).toEqual(['https://keys.example/.well-known/signature/pem']);
  });

  it('a fetch that follows redirects by itself is still held to the origin', async () => {
    const fakeFetch = (async () => {
      const response = new Response(attacker.publicText);
      Object.defineProperty(response, 'redirected', { value: true });
      Object.defineProperty(response, 'url', { value: 'https://elsewhere.example/pem' });
      return response;
    }) as unknown as typeof fetch;
    await expect(
      fetchPublicKey({ url: 'https://keys2.example/pem' }, { fetch: fakeFetch }),
    ).rejects.toThrow(/redirected to https:\/\/elsewhere\.example, another origin/);
  });

  it('plain http is refused except for loopback addresses and the SANDBOX environment', async () => {
    const error = await fetchPublicKey({ url: 'http://keys.example/pem' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookConfigError);
    expect((error as Error).message).toBe(
      'servicepay: the public-key address "http://keys.example/pem" must be https (plain http only for loopback addresses and the SANDBOX environment): the key decides which webhooks are genuine.',
    );
    for (const url of ['ftp://keys.example/pem', 'file:///etc/key.pem']) {
      await expect(fetchPublicKey({ url })).rejects.toBeInstanceOf(WebhookConfigError);
    }
    const answered = (async () => new Response(service.publicText)) as unknown as typeof fetch;
    for (const url of [
      'http://127.0.0.1:1/pem',
      'http://localhost:1/pem',
      'http://[::1]:1/pem',
      'https://keys3.example/pem',
    ]) {
      expect(await fetchPublicKey({ url }, { fetch: answered })).toBe(service.publicPem);
    }
    expect(
      await fetchPublicKey(
        { environment: 'SANDBOX', baseUrl: 'http://sandbox.internal:4010' },
        { fetch: answered },
      ),
    ).toBe(service.publicPem);
  });

  it('LIVE with an http base address is refused when the handler is created', () => {
    const create = (): unknown =>
      createWebhookHandler({
        environment: 'LIVE',
        publicKeyBaseUrl: 'http://live.example',
        expectedPayment: 'unreconciled',
        onNotification: () => {},
      });
    expect(create).toThrow(WebhookConfigError);
    expect(create).toThrow(
      'servicepay: the LIVE public key must be fetched over https, got "http://live.example/.well-known/signature/pem"; pass the https base address given by the service (baseUrl / publicKeyBaseUrl).',
    );
    expect(() =>
      createFetchOnWeb({
        environment: 'LIVE',
        publicKeyBaseUrl: 'http://live.example',
        expectedPayment: 'unreconciled',
        onNotification: () => {},
      }),
    ).toThrow(/LIVE public key must be fetched over https/);
  });
});

describe.each(['node:http', 'fetch (node:crypto)', 'fetch (WebCrypto)'] as const)(
  'finding 3: %s receiver, forged deliveries while the key endpoint fails',
  (kind) => {
    async function receiverFor(keyServer: TestServer, keyRefreshIntervalMs?: number) {
      const record = recorder();
      const options = {
        publicKeyUrl: keyServer.url + PATH,
        expectedPayment: 'unreconciled' as const,
        onNotification: record.onNotification,
        onError: record.onError,
        ...(keyRefreshIntervalMs === undefined ? {} : { keyRefreshIntervalMs }),
      };
      const server = await serve(
        kind === 'node:http'
          ? createWebhookHandler(options)
          : fetchAdapter(
              kind === 'fetch (WebCrypto)' ? createFetchOnWeb(options) : createFetchOnNode(options),
            ),
      );
      return { url: server.url, record };
    }

    async function forge(url: string, count: number): Promise<number[]> {
      const statuses: number[] = [];
      // Half one after another, half at once: neither may multiply the fetches.
      for (let i = 0; i < count / 2; i++) statuses.push(await forgedDelivery(url));
      statuses.push(
        ...(await Promise.all(Array.from({ length: count / 2 }, () => forgedDelivery(url)))),
      );
      return statuses;
    }

    async function forgedDelivery(url: string): Promise<number> {
      const forged = signed(notification(), attacker.privateKey);
      return (await send(url, forged.body, { authorization: forged.authorization })).status;
    }

    it.each([
      ['HTTP 500', 500, 'text/plain', 'down'],
      ['an HTML 200', 200, 'text/html', '<html><body>Maintenance</body></html>'],
    ])(
      'an endpoint answering %s is fetched once for 50 forged deliveries',
      async (_n, status, type, body) => {
        let fetches = 0;
        const keyServer = await serve((_req, res) => {
          fetches++;
          res.writeHead(status, { 'content-type': type }).end(body);
        });
        const r = await receiverFor(keyServer);
        const statuses = await forge(r.url, 50);
        expect(new Set(statuses)).toEqual(new Set([status === 500 ? 503 : 500]));
        expect(fetches).toBe(1);
        expect(r.record.notifications).toEqual([]);
      },
    );

    it('with a key cached, a failing refetch is made once, then forged deliveries get 401', async () => {
      let fetches = 0;
      let down = false;
      const keyServer = await serve((_req, res) => {
        fetches++;
        if (down) return res.writeHead(500).end('down');
        res.writeHead(200, { 'content-type': 'text/plain' }).end(service.publicText);
      });
      const r = await receiverFor(keyServer);
      const genuine = signed(notification(), service.privateKey);
      expect(
        (await send(r.url, genuine.body, { authorization: genuine.authorization })).status,
      ).toBe(200);
      down = true;
      const statuses = await forge(r.url, 50);
      expect(fetches).toBe(2); // the key, and one refetch that failed
      expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(49);
      expect(r.record.notifications).toHaveLength(1);
    });

    it('once the interval has passed the endpoint is asked again and a genuine delivery succeeds', async () => {
      let fetches = 0;
      let down = true;
      const keyServer = await serve((_req, res) => {
        fetches++;
        if (down) return res.writeHead(500).end('down');
        res.writeHead(200, { 'content-type': 'text/plain' }).end(service.publicText);
      });
      const r = await receiverFor(keyServer, 100);
      const genuine = signed(notification(), service.privateKey);
      const deliver = async (): Promise<number> =>
        (await send(r.url, genuine.body, { authorization: genuine.authorization })).status;
      expect(await deliver()).toBe(503);
      down = false;
      // Within the interval the failure is remembered; after it, the key is fetched again.
      let status = await deliver();
      expect([503, 200]).toContain(status);
      while (status !== 200) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = await deliver();
      }
      expect(fetches).toBe(2);
      expect(r.record.notifications).toHaveLength(1);
    });
  },
);
