// The library's own messages get `servicepay: ` in one place (src/webhook/prefixed.ts, issue
// 48): the error classes' constructors and prefixed(), exactly once, never on the simulated
// service's own words. (eslint refuses a message typed with the prefix in src/webhook and
// src/sandbox.)
import { describe, expect, it } from 'vitest';
import { SandboxConfigError, SandboxError, startSandbox } from '../../src/sandbox/index';
import {
  IdempotencyStoreFullError,
  MemoryIdempotencyStore,
  WebhookConfigError,
  WebhookError,
  WebhookKeyError,
  WebhookKeyFetchError,
  WebhookPayloadError,
  WebhookRequestError,
  WebhookSignatureError,
} from '../../src/webhook/index';
import { IdempotencyStoreConformanceError } from '../../src/webhook/testing';
import { prefixed, unprefixed } from '../../src/webhook/prefixed';

describe('prefixed', () => {
  it('puts the prefix before the words, and unprefixed takes it off once', () => {
    expect(prefixed('the key is empty.')).toBe('servicepay: the key is empty.');
    expect(unprefixed('servicepay: the key is empty.')).toBe('the key is empty.');
    expect(unprefixed('The request body is not valid JSON')).toBe(
      'The request body is not valid JSON',
    );
  });
});

describe('every error class of the library adds the prefix once', () => {
  it.each<[string, Error]>([
    ['WebhookError', new WebhookError('words.')],
    ['WebhookKeyError', new WebhookKeyError('words.')],
    ['WebhookKeyFetchError', new WebhookKeyFetchError('words.', 'https://example.test/')],
    ['WebhookPayloadError', new WebhookPayloadError('words.', 'paymentId')],
    ['WebhookConfigError', new WebhookConfigError('words.', 'store')],
    ['WebhookSignatureError', new WebhookSignatureError('words.')],
    ['WebhookRequestError', new WebhookRequestError('words.', 405)],
    ['SandboxError', new SandboxError('invalid-argument', 'words.')],
    ['SandboxConfigError', new SandboxConfigError('words.', 'port')],
    ['IdempotencyStoreConformanceError', new IdempotencyStoreConformanceError('settles', 'words.')],
  ])('%s', (name, error) => {
    expect(error.name).toBe(name);
    expect(error.message).toMatch(
      /^servicepay: (the idempotency store breaks rule "settles": )?words\.$/,
    );
  });

  it('IdempotencyStoreFullError, thrown by a full memory store', () => {
    const store = new MemoryIdempotencyStore({ maxEntries: 1 });
    store.claim('a', 60_000);
    expect(() => store.claim('b', 60_000)).toThrow(IdempotencyStoreFullError);
    expect(() => store.claim('b', 60_000)).toThrow(/^servicepay: MemoryIdempotencyStore is full/);
  });

  it("the sandbox's answers in the service's own words carry no prefix; its own refusals do", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const tooLarge = await fetch(`${sandbox.url}/v1/payments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: 'x'.repeat(70_000),
      });
      expect(tooLarge.status).toBe(413);
      expect(await tooLarge.json()).toMatchObject({
        error: 'The request body is larger than 65536 bytes',
      });
      expect(() => sandbox.completeLate('nobody')).toThrow(
        'servicepay: no sandbox payment has the id "nobody".',
      );
    } finally {
      await sandbox.stop();
    }
  });
});
