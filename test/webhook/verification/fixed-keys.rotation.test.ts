// @vitest-environment node
// Receivers that fetch the key from the public-key endpoint: a rotated key is picked up by one
// refetch on the first signature failure; forged signatures cannot flood the endpoint. And
// receivers given several keys (publicKey: [current, next]) for a rotation without downtime.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFetchWebhookHandler as createFetchOnNode,
  createWebhookHandler,
  WebhookConfigError,
  WebhookKeyError,
} from '../../../src/webhook/index';
import { createFetchWebhookHandler as createFetchOnWeb } from '../../../src/webhook/web';
import { createKeyPair } from '../support/keys';
import type { TestKeyPair } from '../support/keys';
import { fetchAdapter, listen, send } from '../support/http';
import type { TestServer } from '../support/http';
import { notification, signed } from '../support/notifications';
import { recorder } from '../support/receivers';

const PATH = '/.well-known/signature/pem';
const keyA = createKeyPair();
const keyB = createKeyPair();
/** A key the service never had. */
const forger = createKeyPair();

interface KeyEndpoint extends TestServer {
  serve(pair: TestKeyPair | 'down'): void;
  fetches(): number;
}

async function keyEndpoint(initial: TestKeyPair): Promise<KeyEndpoint> {
  let current: TestKeyPair | 'down' = initial;
  let fetches = 0;
  const server = await listen((req, res) => {
    fetches++;
    if (req.url !== PATH) return res.writeHead(404).end();
    if (current === 'down') return res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(current.publicText);
  });
  return { ...server, serve: (pair) => (current = pair), fetches: () => fetches };
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Kind = 'node:http' | 'fetch (node:crypto)' | 'fetch (WebCrypto)';

/** A receiver of the given kind over real HTTP, its key from `keys`. */
async function receiver(
  kind: Kind,
  keys: KeyEndpoint | (string | undefined)[],
  extra: { environment?: boolean; keyRefreshIntervalMs?: number } = {},
): Promise<{ url: string; record: ReturnType<typeof recorder> }> {
  const record = recorder();
  const keyOption = Array.isArray(keys)
    ? { publicKey: keys }
    : extra.environment
      ? { environment: 'SANDBOX' as const, publicKeyBaseUrl: keys.url }
      : { publicKeyUrl: keys.url + PATH };
  const options = {
    ...keyOption,
    expectedPayment: 'unreconciled' as const,
    onNotification: record.onNotification,
    onError: record.onError,
    ...(extra.keyRefreshIntervalMs === undefined
      ? {}
      : { keyRefreshIntervalMs: extra.keyRefreshIntervalMs }),
  };
  const listener =
    kind === 'node:http'
      ? createWebhookHandler(options)
      : fetchAdapter(
          kind === 'fetch (WebCrypto)' ? createFetchOnWeb(options) : createFetchOnNode(options),
        );
  const server = await listen(listener);
  servers.push(server);
  return { url: server.url, record };
}

async function endpoint(initial: TestKeyPair): Promise<KeyEndpoint> {
  const keys = await keyEndpoint(initial);
  servers.push(keys);
  return keys;
}

describe.each<Kind>(['node:http', 'fetch (node:crypto)', 'fetch (WebCrypto)'])(
  '%s receiver',
  (kind) => {
    it('a rotated key: the first failure refetches once, then 200', async () => {
      const keys = await endpoint(keyA);
      const r = await receiver(kind, keys);
      const url = r.url;
      expect((await send(url, ...parts(signed(notification(), keyA.privateKey)))).status).toBe(200);
      expect(keys.fetches()).toBe(1);

      keys.serve(keyB);
      expect((await send(url, ...parts(signed(notification(), keyB.privateKey)))).status).toBe(200);
      expect(keys.fetches()).toBe(2);
      expect((await send(url, ...parts(signed(notification(), keyB.privateKey)))).status).toBe(200);
      expect(keys.fetches()).toBe(2);
      expect(r.record.notifications).toHaveLength(3);

      // The old key no longer verifies, and a second refetch within the interval is not made.
      expect((await send(url, ...parts(signed(notification(), keyA.privateKey)))).status).toBe(401);
      expect(keys.fetches()).toBe(2);
    });

    it('concurrent deliveries after a rotation share one refetch and all succeed', async () => {
      const keys = await endpoint(keyA);
      const r = await receiver(kind, keys);
      expect((await send(r.url, ...parts(signed(notification(), keyA.privateKey)))).status).toBe(
        200,
      );
      keys.serve(keyB);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          send(r.url, ...parts(signed(notification(), keyB.privateKey))),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(keys.fetches()).toBe(2);
      expect(r.record.notifications).toHaveLength(21);
    });

    it('publicKey [old, new] accepts notifications signed by either; old alone refuses new (401)', async () => {
      const both = await receiver(kind, [keyA.publicText, keyB.publicPem]);
      for (const pair of [keyA, keyB, keyA]) {
        const d = parts(signed(notification(), pair.privateKey));
        expect((await send(both.url, ...d)).status).toBe(200);
      }
      expect(both.record.notifications).toHaveLength(3);
      expect(both.record.errors).toEqual([]);

      const old = await receiver(kind, [keyA.publicText]);
      expect((await send(old.url, ...parts(signed(notification(), keyB.privateKey)))).status).toBe(
        401,
      );
      expect((old.record.errors[0]?.error as Error).message).toMatch(
        /^servicepay: the webhook signature does not verify over the exact body received\. /,
      );
    });

    it.each([
      ['the same text', () => [keyA.publicText, keyA.publicText, keyB.publicText]],
      [
        'the same key, its lines broken otherwise',
        () => [keyA.publicText, keyA.publicPem, keyB.publicText],
      ],
    ])(
      'publicKey [OLD, OLD, NEW] accepts NEW after the service switched keys (a repeat hides no key after it): %s',
      async (_name, list) => {
        // Issue 46: lists built from environment variables repeat keys.
        const r = await receiver(kind, list());
        expect((await send(r.url, ...parts(signed(notification(), keyA.privateKey)))).status).toBe(
          200,
        );
        expect((await send(r.url, ...parts(signed(notification(), keyB.privateKey)))).status).toBe(
          200,
        );
        expect(r.record.notifications).toHaveLength(2);
        // Each different key is tried once: the repeat is gone from the list.
        const forged = parts(signed(notification(), forger.privateKey));
        expect((await send(r.url, ...forged)).status).toBe(401);
        expect((r.record.errors[0]?.error as Error).message).toMatch(
          /with each of the 2 keys of publicKey\. /,
        );
      },
    );

    it('a notification no key verifies: 401, and onError names every key tried', async () => {
      // An unset variable in the list (no rotation under way) is left out, not an error.
      const r = await receiver(kind, [keyA.publicText, undefined, keyB.publicText]);
      const forged = parts(signed(notification(), createKeyPair().privateKey));
      expect((await send(r.url, ...forged)).status).toBe(401);
      expect(r.record.errors).toHaveLength(1);
      expect((r.record.errors[0]?.error as Error).message).toMatch(
        /does not verify over the exact body received with each of the 2 keys of publicKey\. /,
      );
      expect(r.record.notifications).toEqual([]);
    });

    // Eleven signed deliveries and an RSA key pair made: past the 5 s default on a loaded machine.
    it('forged signatures cost at most one refetch per interval', { timeout: 30_000 }, async () => {
      const keys = await endpoint(keyA);
      const r = await receiver(kind, keys);
      const forger = createKeyPair();
      for (let i = 0; i < 10; i++) {
        expect(
          (await send(r.url, ...parts(signed(notification(), forger.privateKey)))).status,
        ).toBe(401);
      }
      expect(keys.fetches()).toBe(2); // the first fetch, and one refetch
      // Garbage headers never even fetch.
      const garbage = await receiver(kind, keys);
      await send(garbage.url, '{}', { authorization: 'Bearer nope' });
      expect(keys.fetches()).toBe(2);
      expect(r.record.notifications).toEqual([]);
    });

    it('an unreachable key endpoint gets 503 (resend), then, after the interval, the delivery succeeds', async () => {
      const keys = await endpoint(keyA);
      keys.serve('down');
      const r = await receiver(kind, keys, { environment: true, keyRefreshIntervalMs: 50 });
      const delivery = parts(signed(notification(), keyA.privateKey));
      expect((await send(r.url, ...delivery)).status).toBe(503);
      expect(r.record.errors[0]?.context.outcome).toBe('key-unavailable');
      keys.serve(keyA);
      // The failure is remembered for keyRefreshIntervalMs (test/webhook/verification/key-fetch.hostile.test.ts).
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect((await send(r.url, ...delivery)).status).toBe(200);
      expect(r.record.notifications).toHaveLength(1);
      expect(keys.fetches()).toBe(2);
    });
  },
);

describe('publicKey as a list', () => {
  const keyC = createKeyPair();
  const keyD = createKeyPair();

  it.each([
    ['createWebhookHandler', createWebhookHandler],
    ['createFetchWebhookHandler (node:crypto)', createFetchOnNode],
    ['createFetchWebhookHandler (WebCrypto)', createFetchOnWeb],
  ] as const)(
    '%s refuses more than 3 different keys at creation, with a WebhookConfigError; repeats do not count',
    (_name, create) => {
      const four = [keyA, keyB, keyC, keyD].map((pair) => pair.publicText);
      let thrown: unknown;
      try {
        create({ publicKey: four, expectedPayment: 'unreconciled', onNotification() {} });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WebhookConfigError);
      expect(thrown).toMatchObject({
        option: 'publicKey',
        message:
          'servicepay: publicKey lists 4 different keys; at most 3 are accepted (the key in use, the next, and one more while a rotation ends), since every forged delivery is verified against each. Remove the keys the service no longer signs with.',
      });
      // Three different keys, one of them listed twice (and once more as a full PEM): accepted.
      const three = [keyA.publicText, keyB.publicText, keyA.publicPem, keyC.publicText];
      expect(() =>
        create({ publicKey: three, expectedPayment: 'unreconciled', onNotification() {} }),
      ).not.toThrow();
    },
  );

  it('checks every key at creation: a malformed next key throws at once', () => {
    expect(() =>
      createWebhookHandler({
        publicKey: [keyA.publicText, 'MIIBnot-a-key'],
        expectedPayment: 'unreconciled',
        onNotification() {},
      }),
    ).toThrow(WebhookKeyError);
  });
});

function parts(d: { body: string; authorization: string }): [string, Record<string, string>] {
  return [d.body, { authorization: d.authorization }];
}
