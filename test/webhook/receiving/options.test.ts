// @vitest-environment node
// Configuration mistakes fail when the handler is created, with a typed error naming the
// option and saying what to pass.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFetchWebhookHandler,
  createWebhookHandler,
  WebhookConfigError,
  WebhookKeyError,
} from '../../../src/webhook/index';
import type { WebhookHandlerOptions } from '../../../src/webhook/index';
import { createFetchWebhookHandler as createFetchOnWeb } from '../../../src/webhook/web';
import { fetchAdapter, listen, send } from '../support/http';
import { endpointText, serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder } from '../support/receivers';

const keys = serviceKeys();
const onNotification = (): void => {};

function configError(
  options: Partial<WebhookHandlerOptions>,
  option: string,
  message: RegExp,
): void {
  let error: unknown;
  try {
    createWebhookHandler(options as WebhookHandlerOptions);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(WebhookConfigError);
  expect((error as WebhookConfigError).option).toBe(option);
  expect((error as Error).message).toMatch(/^servicepay: /);
  expect((error as Error).message).toMatch(message);
}

describe('handler options', () => {
  it('refuses more than one of publicKey, publicKeyUrl and environment', () => {
    configError(
      { onNotification, publicKey: keys.publicText, environment: 'SANDBOX' },
      'publicKey',
      /only one of/,
    );
  });

  it('LIVE without an address is refused; with publicKeyBaseUrl it is accepted', () => {
    configError(
      { onNotification, environment: 'LIVE' },
      'baseUrl',
      /no public-key address is known for LIVE/,
    );
    expect(() =>
      createWebhookHandler({
        onNotification,
        expectedPayment: 'unreconciled',
        environment: 'LIVE',
        publicKeyBaseUrl: 'https://live.example',
      }),
    ).not.toThrow();
  });

  it('checks a fixed key at creation', () => {
    expect(() =>
      createWebhookHandler({
        onNotification,
        expectedPayment: 'unreconciled',
        publicKey: 'not a key',
      }),
    ).toThrow(WebhookKeyError);
    expect(() =>
      createWebhookHandler({
        onNotification,
        expectedPayment: 'unreconciled',
        publicKey: keys.privateKey,
      }),
    ).toThrow(WebhookKeyError);
    expect(() =>
      createWebhookHandler({
        onNotification,
        expectedPayment: 'unreconciled',
        publicKey: keys.publicKey,
      }),
    ).not.toThrow();
  });

  it('refuses a missing onNotification, a bad store and bad numbers', () => {
    configError({ publicKey: keys.publicText }, 'onNotification', /must be a function/);
    configError(
      { onNotification, publicKey: keys.publicText, store: {} as never },
      'store',
      /claim\(key, ttlMs\)/,
    );
    configError(
      { onNotification, publicKey: keys.publicText, maxBodyBytes: 0 },
      'maxBodyBytes',
      /positive number of bytes/,
    );
    configError(
      { onNotification, publicKey: keys.publicText, claimTtlMs: -1 },
      'claimTtlMs',
      /milliseconds/,
    );
    configError(
      { onNotification, publicKey: keys.publicText, publicKeyUrl: 'relative/path' } as never,
      'publicKey',
      /only one/,
    );
    configError({ onNotification, publicKeyUrl: 'relative/path' }, 'url', /not an absolute URL/);
    configError(
      { onNotification, publicKey: keys.publicText, allowedSourceAddresses: ['localhost'] },
      'allowedSourceAddresses',
      /not an IP address/,
    );
  });

  it('the Fetch handler needs getSourceAddress with allowedSourceAddresses', () => {
    expect(() =>
      createFetchWebhookHandler({
        onNotification,
        expectedPayment: 'unreconciled',
        publicKey: keys.publicText,
        allowedSourceAddresses: ['203.0.113.7'],
      }),
    ).toThrow(/getSourceAddress/);
  });
});

const MISSING =
  'servicepay: the webhook handler has no public key: set SERVICEPAY_PUBLIC_KEY to the text served at <base>/.well-known/signature/pem and pass it as publicKey (or pass publicKeyUrl or environment). Until then every delivery is answered 500.';

describe('configuration errors at the right moment (issue 13, item 6)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a route module creating its handler at import builds with no key, then answers 500 naming the variable', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const saved = process.env.SERVICEPAY_PUBLIC_KEY;
    delete process.env.SERVICEPAY_PUBLIC_KEY;
    const errors: { error: unknown; context: { status: number } }[] = [];
    (globalThis as { routeErrors?: unknown[] }).routeErrors = errors;
    try {
      const route = await import('../support/route-module');
      expect(warn).toHaveBeenCalledWith(MISSING);
      const delivery = signed(notification(), keys.privateKey);
      const response = await route.PUT(
        new Request('http://localhost/api/webhooks/servicepay', {
          method: 'PUT',
          headers: { authorization: delivery.authorization },
          body: delivery.body,
        }),
      );
      expect(response.status).toBe(500);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.error).toBeInstanceOf(WebhookConfigError);
      expect((errors[0]?.error as Error).message).toBe(MISSING);
    } finally {
      if (saved !== undefined) process.env.SERVICEPAY_PUBLIC_KEY = saved;
      delete (globalThis as { routeErrors?: unknown[] }).routeErrors;
    }
  });

  it.each([
    ['node:http', undefined],
    ['node:http', ''],
    ['node:http', '  \n'],
    ['fetch (WebCrypto)', undefined],
  ] as const)(
    '%s: publicKey %j only warns at creation; a delivery gets 500 and onError the reason',
    async (kind, publicKey) => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const record = recorder();
      const options = {
        publicKey,
        expectedPayment: 'unreconciled' as const,
        onNotification: record.onNotification,
        onError: record.onError,
      };
      const handler =
        kind === 'node:http'
          ? createWebhookHandler(options)
          : fetchAdapter(createFetchOnWeb(options));
      const server = await listen(handler);
      try {
        // Once; the other line a receiver may say (once per process) is of reconciliation.
        expect(warn.mock.calls.filter(([line]) => line === MISSING)).toHaveLength(1);
        const delivery = signed(notification(), keys.privateKey);
        const answer = await send(server.url, delivery.body, {
          authorization: delivery.authorization,
        });
        expect(answer.status).toBe(500);
        expect(record.notifications).toEqual([]);
        expect(record.errors[0]?.error).toBeInstanceOf(WebhookConfigError);
        expect((record.errors[0]?.error as WebhookConfigError).option).toBe('publicKey');
        expect((record.errors[0]?.error as Error).message).toMatch(/SERVICEPAY_PUBLIC_KEY/);
      } finally {
        await server.close();
      }
    },
  );

  const shortPem = generateKeyPairSync('rsa', { modulusLength: 1024 })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
  const firstLine = keys.publicText.split('\n')[0] as string;

  it.each([
    [
      'only the first line of the key (an unquoted multi-line .env value)',
      firstLine,
      /^servicepay: the public key is cut short \(48 of 294 bytes\): a multi-line value in a \.env file must be quoted/,
    ],
    [
      'only the BEGIN line of a full PEM (an unquoted multi-line .env value)',
      '-----BEGIN PUBLIC KEY-----',
      /^servicepay: the public key holds only its "-----BEGIN PUBLIC KEY-----" line: a multi-line value in a \.env file must be quoted/,
    ],
    [
      'a key missing its last characters',
      keys.publicText.replace(/\s+/g, '').slice(0, 300),
      /cut short .*\.env file must be quoted/,
    ],
    ['an RSA-1024 key', endpointText(shortPem), /^servicepay: the public key is RSA-1024; .*2048/],
    ['not base64', 'paste the key here', /not base64 PEM text/],
  ])('%s is refused at creation by both entries, naming the cause', (_name, publicKey, message) => {
    for (const create of [createWebhookHandler, createFetchWebhookHandler, createFetchOnWeb]) {
      expect(() => create({ publicKey, onNotification } as never)).toThrow(WebhookKeyError);
      expect(() => create({ publicKey, onNotification } as never)).toThrow(message);
    }
  });

  it('an RSA-1024 KeyObject or CryptoKey is refused at creation', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() =>
      createWebhookHandler({
        publicKey: pair.publicKey,
        onNotification,
        expectedPayment: 'unreconciled',
      }),
    ).toThrow(/RSA-1024/);
    const cryptoKey = await crypto.subtle.importKey(
      'spki',
      pair.publicKey.export({ type: 'spki', format: 'der' }),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    expect(() =>
      createFetchOnWeb({ publicKey: cryptoKey, onNotification, expectedPayment: 'unreconciled' }),
    ).toThrow(/RSA-1024/);
  });
});
