// @vitest-environment node
import { afterEach, describe, expect, it } from 'vitest';
import {
  fetchPublicKey,
  publicKeyUrl,
  verifyWebhookSignature,
  WebhookConfigError,
  WebhookKeyError,
  WebhookKeyFetchError,
} from '../../../src/webhook/index';
import { delay, listen } from '../support/http';
import type { TestServer } from '../support/http';
import { vectorCase, vectors } from '../support/vectors';

const PATH = '/.well-known/signature/pem';

/** A key endpoint whose answer the test controls, counting the requests it receives. */
async function keyEndpoint(
  answer: () => { status?: number; body: string; delayMs?: number },
): Promise<TestServer & { requests: () => number }> {
  let requests = 0;
  const server = await listen((req, res) => {
    requests++;
    const { status = 200, body, delayMs = 0 } = answer();
    setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(body), delayMs);
  });
  return { ...server, requests: () => requests };
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function endpoint(
  answer: () => { status?: number; body: string; delayMs?: number },
): Promise<TestServer & { requests: () => number }> {
  const server = await keyEndpoint(answer);
  servers.push(server);
  return server;
}

describe('fetchPublicKey', () => {
  it('GETs <base>/.well-known/signature/pem and restores the PEM lines', async () => {
    const server = await endpoint(() => ({ body: vectors.publicKey }));
    const pem = await fetchPublicKey({ environment: 'SANDBOX', baseUrl: `${server.url}/` });
    expect(pem).toBe(vectors.publicKeyPem);
    const sample = vectorCase('completed');
    expect(verifyWebhookSignature(sample.body, sample.authorization, pem)).toBe(true);
  });

  it('accepts the key on one line, or as a full PEM', async () => {
    const oneLine = await endpoint(() => ({ body: vectors.publicKey.replace(/\s+/g, '') }));
    expect(await fetchPublicKey({ url: oneLine.url + PATH })).toBe(vectors.publicKeyPem);
    const full = await endpoint(() => ({ body: vectors.publicKeyPem }));
    expect(await fetchPublicKey({ url: full.url + PATH })).toBe(vectors.publicKeyPem);
  });

  it('caches the key per address: a second call sends no request', async () => {
    const server = await endpoint(() => ({ body: vectors.publicKey }));
    await fetchPublicKey({ url: server.url + PATH });
    await fetchPublicKey({ url: server.url + PATH });
    expect(server.requests()).toBe(1);
  });

  it('concurrent callers share one request', async () => {
    const server = await endpoint(() => ({ body: vectors.publicKey, delayMs: 50 }));
    const keys = await Promise.all(
      Array.from({ length: 20 }, () => fetchPublicKey({ url: server.url + PATH })),
    );
    expect(new Set(keys)).toEqual(new Set([vectors.publicKeyPem]));
    expect(server.requests()).toBe(1);
  });

  it('does not cache a failed fetch: the next call asks again', async () => {
    let status = 503;
    const server = await endpoint(() => ({
      status,
      body: status === 200 ? vectors.publicKey : 'down',
    }));
    const failure = await fetchPublicKey({ url: server.url + PATH }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WebhookKeyFetchError);
    expect((failure as WebhookKeyFetchError).status).toBe(503);
    expect((failure as Error).message).toMatch(/^servicepay: .*503/);
    status = 200;
    expect(await fetchPublicKey({ url: server.url + PATH })).toBe(vectors.publicKeyPem);
    expect(server.requests()).toBe(2);
  });

  it('forceRefresh asks again, concurrent refreshes share one request', async () => {
    const server = await endpoint(() => ({ body: vectors.publicKey, delayMs: 20 }));
    const url = server.url + PATH;
    await fetchPublicKey({ url });
    await Promise.all([
      fetchPublicKey({ url }, { forceRefresh: true }),
      fetchPublicKey({ url }, { forceRefresh: true }),
      fetchPublicKey({ url }),
    ]);
    expect(server.requests()).toBe(2);
  });

  it('a failed refresh keeps the previous key', async () => {
    let status = 200;
    const server = await endpoint(() => ({ status, body: vectors.publicKey }));
    const url = server.url + PATH;
    await fetchPublicKey({ url });
    status = 500;
    await expect(fetchPublicKey({ url }, { forceRefresh: true })).rejects.toBeInstanceOf(
      WebhookKeyFetchError,
    );
    expect(await fetchPublicKey({ url })).toBe(vectors.publicKeyPem);
    expect(server.requests()).toBe(2);
  });

  it('an answer that is not a key is a WebhookKeyError naming the address', async () => {
    const server = await endpoint(() => ({ body: '<html>Not here</html>' }));
    await expect(fetchPublicKey({ url: server.url + PATH })).rejects.toThrow(WebhookKeyError);
    await expect(fetchPublicKey({ url: server.url + PATH })).rejects.toThrow(server.url);
  });

  it('an unreachable address is a WebhookKeyFetchError', async () => {
    const server = await keyEndpoint(() => ({ body: '' }));
    await server.close(); // the port is now closed
    const error = await fetchPublicKey({ url: server.url + PATH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookKeyFetchError);
    expect((error as WebhookKeyFetchError).url).toBe(server.url + PATH);
  });

  it('uses the fetch option, and SANDBOX defaults to the local sandbox', async () => {
    const requested: string[] = [];
    const fakeFetch = (async (input: string | URL | Request) => {
      requested.push(String(input));
      await delay(1);
      return new Response(vectors.publicKey);
    }) as typeof fetch;
    const pem = await fetchPublicKey(
      { environment: 'SANDBOX' },
      { fetch: fakeFetch, forceRefresh: true },
    );
    expect(pem).toBe(vectors.publicKeyPem);
    expect(requested).toEqual(['http://127.0.0.1:4010/.well-known/signature/pem']);
  });

  it('LIVE has no default address: a clear WebhookConfigError', async () => {
    const error = await fetchPublicKey({ environment: 'LIVE' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookConfigError);
    expect((error as Error).message).toMatch(
      /^servicepay: no public-key address is known for LIVE/,
    );
    expect(publicKeyUrl({ environment: 'LIVE', baseUrl: 'https://live.example/' })).toBe(
      `https://live.example${PATH}`,
    );
  });

  it('an address that is not a URL, or an unknown environment, is a WebhookConfigError', async () => {
    await expect(fetchPublicKey({ url: 'not a url' })).rejects.toBeInstanceOf(WebhookConfigError);
    await expect(fetchPublicKey({ environment: 'PROD' as never })).rejects.toThrow(
      /"SANDBOX" or "LIVE"/,
    );
  });
});
