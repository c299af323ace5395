// @vitest-environment node
// Properties of both verifiers: no input makes them throw, they always agree, and no single
// byte of a signed body can change without the signature failing.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import {
  signWebhookPayload,
  verifyWebhookSignature as verifyNode,
} from '../../../src/webhook/index';
import { verifyWebhookSignature as verifyWeb } from '../../../src/webhook/web';
import { isCanonicalBase64 } from '../../../src/webhook/verification/encoding';
import { canonicalBase64Bytes } from '../../../src/webhook/verification/node-crypto';
import { serviceKeys } from '../support/keys';
import { vectorCase, vectors } from '../support/vectors';

const sample = vectorCase('completed');
const sampleBytes = Buffer.from(sample.bodyBase64, 'base64');
const keys = serviceKeys();

const base64Char = fc.constantFrom(
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n'.split(''),
);

/** Header values: anything at all, and near-misses of the real shape. */
const header = fc.oneof(
  fc.constantFrom(null, undefined, '', 'SHA256withRSA', 'SHA256withRSA ', sample.authorization),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: base64Char }).map((s) => `SHA256withRSA ${s}`),
  fc
    .uint8Array({ maxLength: 300 })
    .map((b) => `SHA256withRSA ${Buffer.from(b).toString('base64')}`),
  fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a} ${b}`),
  fc.anything(),
);

/** Body values: bytes, text, and values that are not bodies. */
const body = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }),
  fc.uint8Array({ maxLength: 64 }).map((b) => b.buffer),
  fc.string({ unit: 'binary' }),
  fc.json(),
  fc.anything(),
);

describe('verifier properties', () => {
  test.prop([body, header], { numRuns: 300 })(
    'random bodies and headers never throw, and both verifiers agree',
    async (b, h) => {
      let fromNode: unknown;
      expect(() => {
        fromNode = verifyNode(b as never, h as never, vectors.publicKey);
      }).not.toThrow();
      const fromWeb = await verifyWeb(b as never, h as never, vectors.publicKey);
      expect(typeof fromNode).toBe('boolean');
      expect(fromWeb).toBe(fromNode);
      // Only the genuine pair verifies.
      if (fromNode === true) {
        expect(Buffer.from(b as Uint8Array).equals(sampleBytes)).toBe(true);
      }
    },
  );

  test.prop(
    [fc.uint8Array({ minLength: 1, maxLength: 1024 }), fc.nat(), fc.integer({ min: 1, max: 255 })],
    {
      numRuns: 200,
    },
  )('any single-byte change of a signed body fails', async (signedBytes, position, delta) => {
    const authorization = signWebhookPayload(signedBytes, keys.privateKey);
    expect(verifyNode(signedBytes, authorization, keys.publicText)).toBe(true);
    const changed = Uint8Array.from(signedBytes);
    const at = position % changed.length;
    changed[at] = ((changed[at] ?? 0) + delta) % 256;
    expect(verifyNode(changed, authorization, keys.publicText)).toBe(false);
    expect(await verifyWeb(changed, authorization, keys.publicText)).toBe(false);
  });

  test.prop([fc.nat(), fc.integer({ min: 1, max: 255 })], { numRuns: 200 })(
    'any single-byte change of a shared vector body fails',
    async (position, delta) => {
      const changed = Uint8Array.from(sampleBytes);
      const at = position % changed.length;
      changed[at] = ((changed[at] ?? 0) + delta) % 256;
      expect(verifyNode(changed, sample.authorization, vectors.publicKey)).toBe(false);
      expect(await verifyWeb(changed, sample.authorization, vectors.publicKey)).toBe(false);
    },
  );

  test.prop([fc.string({ unit: base64Char, maxLength: 12 })], { numRuns: 2000 })(
    'the strict base64 rule is exactly "decodes and re-encodes to itself" (the Node fast path)',
    (text) => {
      const roundTrips = text !== '' && Buffer.from(text, 'base64').toString('base64') === text;
      expect(isCanonicalBase64(text)).toBe(roundTrips);
    },
  );

  // What Node's decoder reads leniently: characters it skips, base64url's two, `=` anywhere, and
  // characters above U+00FF whose low byte is a base64 letter (U+0141 is read as `A`).
  const lenientChar = fc.constantFrom(
    ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n\t.!\0\u00c1\u0141\u0161\u012f\u{1F600}'.split(
      '',
    ),
  );

  test.prop([fc.string({ unit: lenientChar, maxLength: 16 })], { numRuns: 3000 })(
    'the Node verifier accepts exactly the texts of the strict rule, with the bytes Buffer decodes',
    (text) => {
      const bytes = canonicalBase64Bytes(text);
      expect(bytes !== null).toBe(isCanonicalBase64(text));
      if (bytes !== null) expect(bytes.equals(Buffer.from(text, 'base64'))).toBe(true);
    },
  );
});
