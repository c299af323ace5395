// @vitest-environment node
// Configuration mistakes fail when the handler is created, with a typed error naming the
// option and saying what to pass.
import { describe, expect, it } from 'vitest';
import {
  createFetchWebhookHandler,
  createWebhookHandler,
  WebhookConfigError,
  WebhookKeyError,
} from '../../src/webhook/index';
import type { WebhookHandlerOptions } from '../../src/webhook/index';
import { serviceKeys } from './support/keys';

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
  it('needs exactly one of publicKey, publicKeyUrl and environment', () => {
    configError({ onNotification }, 'publicKey', /needs the service public key/);
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
        environment: 'LIVE',
        publicKeyBaseUrl: 'https://live.example',
      }),
    ).not.toThrow();
  });

  it('checks a fixed key at creation', () => {
    expect(() => createWebhookHandler({ onNotification, publicKey: 'not a key' })).toThrow(
      WebhookKeyError,
    );
    expect(() => createWebhookHandler({ onNotification, publicKey: keys.privateKey })).toThrow(
      WebhookKeyError,
    );
    expect(() => createWebhookHandler({ onNotification, publicKey: keys.publicKey })).not.toThrow();
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
        publicKey: keys.publicText,
        allowedSourceAddresses: ['203.0.113.7'],
      }),
    ).toThrow(/getSourceAddress/);
  });
});
