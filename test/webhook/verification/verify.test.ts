// @vitest-environment node
// Inputs of both verifiers beyond the shared vectors: every key form a merchant holds, every
// body form, the strict header shape, and the one failure that throws (an unusable key).
import { generateKeyPairSync, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signWebhookPayload,
  verifyWebhookSignature as verifyNode,
  WebhookKeyError,
} from '../../../src/webhook/index';
import { verifyWebhookSignature as verifyWeb } from '../../../src/webhook/web';
import { createKeyPair, endpointText } from '../support/keys';
import { vectorCase, vectors } from '../support/vectors';

const sample = vectorCase('completed');
const bytes = Buffer.from(sample.bodyBase64, 'base64');
const signature = sample.authorization.slice('SHA256withRSA '.length);

/** Runs a check through both verifiers, which must give the same answer. */
async function both(body: unknown, authorization: unknown, key: unknown): Promise<boolean> {
  const fromNode = verifyNode(body as never, authorization as never, key as never);
  const fromWeb = await verifyWeb(body as never, authorization as never, key as never);
  expect(fromWeb).toBe(fromNode);
  return fromNode;
}

describe('public key forms', () => {
  const text = vectors.publicKey;
  it.each([
    ['endpoint text as served', text],
    ['endpoint text on one line', text.replace(/\s+/g, '')],
    ['endpoint text with CRLF line breaks', text.replace(/\n/g, '\r\n')],
    ['endpoint text with surrounding whitespace', `\n  ${text}\n\n`],
    ['full PEM', vectors.publicKeyPem],
    ['full PEM with CRLF', vectors.publicKeyPem.replace(/\n/g, '\r\n')],
    ['PEM from an environment variable (literal \\n)', vectors.publicKeyPem.replace(/\n/g, '\\n')],
  ])('%s verifies', async (_name, key) => {
    expect(await both(bytes, sample.authorization, key)).toBe(true);
  });

  it('a public KeyObject (node) and a CryptoKey (web) verify', async () => {
    const { createPublicKey } = await import('node:crypto');
    expect(verifyNode(bytes, sample.authorization, createPublicKey(vectors.publicKeyPem))).toBe(
      true,
    );
    const der = Buffer.from(vectors.publicKey.replace(/\s+/g, ''), 'base64');
    const cryptoKey = await webcrypto.subtle.importKey(
      'spki',
      der,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    expect(await verifyWeb(bytes, sample.authorization, cryptoKey as CryptoKey)).toBe(true);
  });

  it.each([
    ['empty text', ''],
    ['not base64', 'this is not a key'],
    ['base64 but not a key', Buffer.from('hello world, not DER').toString('base64')],
    ['a private key PEM', createKeyPair().privatePem],
    [
      'a PKCS#1 RSA PUBLIC KEY PEM',
      generateKeyPairSync('rsa', { modulusLength: 1024 })
        .publicKey.export({ type: 'pkcs1', format: 'pem' })
        .toString(),
    ],
    [
      'an EC public key',
      endpointText(
        generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .publicKey.export({ type: 'spki', format: 'pem' })
          .toString(),
      ),
    ],
    ['a number', 42],
    ['null', null],
    ['an object', { key: vectors.publicKey }],
  ])('%s throws WebhookKeyError (node) and rejects with it (web)', async (_name, key) => {
    expect(() => verifyNode(bytes, sample.authorization, key as never)).toThrow(WebhookKeyError);
    await expect(verifyWeb(bytes, sample.authorization, key as never)).rejects.toBeInstanceOf(
      WebhookKeyError,
    );
  });

  it('key errors start with servicepay: and say what to pass instead', () => {
    expect(() => verifyNode(bytes, sample.authorization, createKeyPair().privatePem)).toThrow(
      /^servicepay: .*private key.*public key/,
    );
  });

  it('a private KeyObject or a non-RSA KeyObject is refused', () => {
    const pair = createKeyPair();
    expect(() => verifyNode(bytes, sample.authorization, pair.privateKey)).toThrow(WebhookKeyError);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    expect(() => verifyNode(bytes, sample.authorization, ec)).toThrow(/not an RSA key|ec/);
  });

  it('a CryptoKey for another algorithm is refused', async () => {
    const { publicKey } = await webcrypto.subtle.generateKey(
      {
        name: 'RSA-PSS',
        modulusLength: 1024,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    );
    await expect(
      verifyWeb(bytes, sample.authorization, publicKey as CryptoKey),
    ).rejects.toBeInstanceOf(WebhookKeyError);
  });

  it('a key that is not the signer gives false, not an error', async () => {
    expect(await both(bytes, sample.authorization, createKeyPair().publicText)).toBe(false);
  });
});

describe('body forms', () => {
  const copy = new Uint8Array(bytes);
  /** The body inside a larger buffer, as a view with a non-zero byteOffset. */
  function offsetView(): Uint8Array {
    const larger = new Uint8Array(bytes.length + 2);
    larger.set(bytes, 2);
    return larger.subarray(2);
  }
  it.each([
    ['Buffer', bytes],
    ['Uint8Array', copy],
    ['ArrayBuffer', copy.buffer],
    ['Uint8Array view at an offset', offsetView()],
    ['DataView', new DataView(copy.buffer)],
    ['string', sample.body],
  ])('%s verifies', async (_name, body) => {
    expect(await both(body, sample.authorization, vectors.publicKey)).toBe(true);
  });

  it.each([
    ['a parsed object (the express.json() pitfall)', JSON.parse(sample.body)],
    ['a re-serialised object', JSON.stringify(JSON.parse(sample.body), null, 2)],
    ['null', null],
    ['undefined', undefined],
    ['a number', 1],
    ['an array of bytes', [...bytes]],
  ])('%s gives false', async (_name, body) => {
    expect(await both(body, sample.authorization, vectors.publicKey)).toBe(false);
  });
});

describe('Authorization header shape', () => {
  const pad = signature.endsWith('==') ? 2 : signature.endsWith('=') ? 1 : 0;
  it.each([
    ['two spaces', `SHA256withRSA  ${signature}`],
    ['a tab', `SHA256withRSA\t${signature}`],
    ['lower-case token', `sha256withrsa ${signature}`],
    // Java's Signature.getInstance accepts this casing; the service never sends it (encoding.ts).
    ['the token as SHA256WithRSA', `SHA256WithRSA ${signature}`],
    ['leading space', ` SHA256withRSA ${signature}`],
    ['trailing space', `SHA256withRSA ${signature} `],
    ['a third part', `SHA256withRSA ${signature} extra`],
    // java.util.Base64.getDecoder() accepts it; one spelling per signature is accepted here.
    ['missing padding', `SHA256withRSA ${signature.replace(/=+$/, '')}`],
    ['extra padding', `SHA256withRSA ${signature}=`],
    ['base64url alphabet', `SHA256withRSA ${signature.replace(/\+/g, '-').replace(/\//g, '_')}`],
    ['line-wrapped signature', `SHA256withRSA ${signature.slice(0, 64)}\n${signature.slice(64)}`],
    ['a JSON-quoted value', `"SHA256withRSA ${signature}"`],
    ['an array', [sample.authorization]],
    ['a number', 7],
    ['null', null],
    ['undefined', undefined],
    ['a very long value', `SHA256withRSA ${'A'.repeat(1_000_000)}`],
  ])('%s gives false', async (_name, header) => {
    expect(await both(bytes, header, vectors.publicKey)).toBe(false);
  });

  it('non-canonical padding bits give false although lenient decoders accept them', async () => {
    // Change the last data character to one that differs only in the unused low bits.
    expect(pad).toBeGreaterThan(0);
    const at = signature.length - pad - 1;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const index = alphabet.indexOf(signature.charAt(at));
    const twin = alphabet.charAt(index + 1);
    const variant = signature.slice(0, at) + twin + signature.slice(at + 1);
    expect(Buffer.from(variant, 'base64').equals(Buffer.from(signature, 'base64'))).toBe(true);
    expect(await both(bytes, `SHA256withRSA ${variant}`, vectors.publicKey)).toBe(false);
  });
  it('a character above U+00FF that Buffer reads as a base64 letter gives false', async () => {
    // Buffer's decoder reads such a character as its low byte: U+0141 (Ł) as `A` (0x41).
    const at = signature.search(/[A-Za-z0-9+/]/);
    const twin = String.fromCharCode(0x100 + signature.charCodeAt(at));
    const variant = signature.slice(0, at) + twin + signature.slice(at + 1);
    expect(Buffer.from(variant, 'base64').equals(Buffer.from(signature, 'base64'))).toBe(true);
    expect(await both(bytes, `SHA256withRSA ${variant}`, vectors.publicKey)).toBe(false);
  });
});

describe('signWebhookPayload', () => {
  const pair = createKeyPair();

  it('returns the header value both verifiers accept, for a PEM or a KeyObject', async () => {
    const body = '{"paymentId":"p-1"}';
    const fromPem = signWebhookPayload(body, pair.privatePem);
    const fromKey = signWebhookPayload(Buffer.from(body), pair.privateKey);
    expect(fromPem).toMatch(/^SHA256withRSA [A-Za-z0-9+/]+={0,2}$/);
    expect(fromKey).toBe(fromPem); // PKCS#1 v1.5 signatures are deterministic
    expect(await both(body, fromPem, pair.publicText)).toBe(true);
    expect(await both(body, fromPem, vectors.publicKey)).toBe(false);
  });

  it('signs PKCS#1 PEM keys and PEMs with literal \\n', async () => {
    const pkcs1 = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const header = signWebhookPayload('x', pkcs1.replace(/\n/g, '\\n'));
    expect(await both('x', header, pair.publicText)).toBe(true);
  });

  it('throws WebhookKeyError for a key that cannot sign', () => {
    expect(() => signWebhookPayload('x', pair.publicPem)).toThrow(WebhookKeyError);
    expect(() => signWebhookPayload('x', pair.publicKey)).toThrow(WebhookKeyError);
    expect(() => signWebhookPayload('x', 'nonsense')).toThrow(WebhookKeyError);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(() => signWebhookPayload('x', ec)).toThrow(/RSA private key/);
  });

  it('refuses a body that is not a string or bytes', () => {
    expect(() => signWebhookPayload({ a: 1 } as never, pair.privateKey)).toThrow(
      /^servicepay: .*exact body/,
    );
  });
});
