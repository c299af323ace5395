// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  isFinalNotification,
  parseWebhookNotification,
  WebhookPayloadError,
} from '../../../src/webhook/index';
import { parseWebhookNotification as parseOnWeb } from '../../../src/webhook/web';
import { vectorCase, vectors } from '../support/vectors';

const base = {
  paymentId: '92fb6653-70ee-4d22-bf27-4de4e77d28a9',
  paymentStatus: 'COMPLETED',
  paymentRequest: { amount: 10, currency: 'GBP' },
};

function rejects(value: unknown, field: string | undefined, message: RegExp): void {
  let error: unknown;
  try {
    parseWebhookNotification(typeof value === 'string' ? value : JSON.stringify(value));
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(WebhookPayloadError);
  expect((error as WebhookPayloadError).field).toBe(field);
  expect((error as Error).message).toMatch(/^servicepay: /);
  expect((error as Error).message).toMatch(message);
}

describe('parseWebhookNotification', () => {
  it('parses every valid vector body, from bytes and from the string', () => {
    for (const c of vectors.cases.filter((v) => v.valid)) {
      const fromBytes = parseWebhookNotification(Buffer.from(c.bodyBase64, 'base64'));
      expect(parseWebhookNotification(c.body)).toEqual(fromBytes);
      expect(parseOnWeb(new Uint8Array(Buffer.from(c.bodyBase64, 'base64')))).toEqual(fromBytes);
      expect(['COMPLETED', 'FAILED']).toContain(fromBytes.paymentStatus);
    }
  });

  it('reads a COMPLETED notification with nested metadata and null refund data', () => {
    const n = parseWebhookNotification(vectorCase('completed').body);
    expect(n.paymentStatus).toBe('COMPLETED');
    expect(n.errorDescription).toBeNull();
    expect(typeof n.paymentRequest.amount).toBe('number');
    expect(n.paymentMetadata).toBeTypeOf('object');
    expect(n.paymentRefundData).toBeNull();
  });

  it('accepts a FAILED notification with a non-UUID merchantPaymentId', () => {
    const n = parseWebhookNotification(vectorCase('failed').body);
    expect(n.paymentStatus).toBe('FAILED');
    expect(n.merchantPaymentId).toMatch(/^order-/);
    expect(typeof n.errorDescription).toBe('string');
  });

  it('accepts absent optional fields', () => {
    const n = parseWebhookNotification(vectorCase('no-merchant-id').body);
    expect(n.merchantPaymentId).toBeUndefined();
    expect(n.paymentRequest.reference).toBeUndefined();
    expect(n.paymentMetadata).toBeUndefined();
    expect(parseWebhookNotification(JSON.stringify(base))).toEqual(base);
  });

  it('accepts nulls where the spec allows them, and keeps unknown fields', () => {
    const n = parseWebhookNotification(
      JSON.stringify({
        ...base,
        merchantPaymentId: null,
        errorDescription: null,
        paymentRequest: { amount: 0.01, currency: 'GBP', reference: null },
        paymentMetadata: { a: { b: { c: [1, 2, { d: null }] } } },
        paymentRefundData: { refundId: 'r1' },
        futureField: 'kept',
      }),
    );
    expect(n.paymentMetadata).toEqual({ a: { b: { c: [1, 2, { d: null }] } } });
    expect((n as unknown as Record<string, unknown>).futureField).toBe('kept');
  });

  it.each(['SETTLED', 'PENDING', 'REFUNDED_SOMEDAY'])(
    'accepts a %s notification as received, its unlisted fields kept',
    (status) => {
      const n = parseWebhookNotification(
        JSON.stringify({ ...base, paymentStatus: status, settledAt: '2025-01-01T00:00:00Z' }),
      );
      expect(n.paymentStatus).toBe(status);
      expect(isFinalNotification(n)).toBe(false);
      expect((n as unknown as Record<string, unknown>).settledAt).toBe('2025-01-01T00:00:00Z');
    },
  );

  it('rejects bodies that are not notifications, naming the field', () => {
    rejects('', undefined, /empty/);
    rejects('{"paymentId":', undefined, /not JSON/);
    rejects([base], undefined, /JSON object, got an array/);
    rejects('"text"', undefined, /JSON object/);
    rejects({ ...base, paymentId: undefined }, 'paymentId', /missing/);
    rejects({ ...base, paymentId: '' }, 'paymentId', /non-empty string/);
    rejects({ ...base, paymentId: 42 }, 'paymentId', /number 42/);
    rejects({ ...base, paymentStatus: 42 }, 'paymentStatus', /non-empty string, got number 42/);
    rejects({ ...base, paymentStatus: '' }, 'paymentStatus', /non-empty string/);
    rejects({ ...base, paymentStatus: undefined }, 'paymentStatus', /missing/);
    rejects({ ...base, merchantPaymentId: 7 }, 'merchantPaymentId', /string, null or absent/);
    rejects({ ...base, errorDescription: {} }, 'errorDescription', /an object/);
    rejects({ ...base, paymentRequest: undefined }, 'paymentRequest', /must be an object/);
    rejects({ ...base, paymentRequest: { currency: 'GBP' } }, 'paymentRequest.amount', /number/);
    rejects(
      { ...base, paymentRequest: { amount: '10.00', currency: 'GBP' } },
      'paymentRequest.amount',
      /string "10.00"/,
    );
    rejects({ ...base, paymentRequest: { amount: 1 } }, 'paymentRequest.currency', /string/);
    rejects(
      { ...base, paymentRequest: { amount: 1, currency: 'GBP', reference: 5 } },
      'paymentRequest.reference',
      /string, null or absent/,
    );
    rejects({ ...base, paymentMetadata: [1] }, 'paymentMetadata', /JSON object or null/);
    rejects({ ...base, paymentMetadata: 'x' }, 'paymentMetadata', /JSON object or null/);
  });

  it('rejects invalid UTF-8 and non-body values with WebhookPayloadError', () => {
    expect(() => parseWebhookNotification(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(
      /not valid UTF-8/,
    );
    expect(() => parseWebhookNotification({ already: 'parsed' } as never)).toThrow(
      WebhookPayloadError,
    );
  });

  it('does not echo long values into messages', () => {
    const long = 'x'.repeat(10_000);
    expect(() =>
      parseWebhookNotification(JSON.stringify({ ...base, paymentRequest: long })),
    ).toThrow(/^.{0,200}$/);
  });
});
