/**
 * SHA256withRSA on node:crypto (spec 5.1): parsing public keys, verifying, and signing (for
 * merchants' own tests and the sandbox). `servicepay/webhook` only; the edge entry uses
 * web-crypto.ts.
 */
import { createPrivateKey, createPublicKey, KeyObject, sign, verify } from 'node:crypto';
import {
  bodyBytes,
  formatAuthorization,
  isArrayBuffer,
  signatureText,
  zeroPaddingBits,
} from './encoding';
import type { WebhookBody } from './encoding';
import { WebhookKeyError, WebhookPayloadError } from '../errors';
import { KeyCache, keyTypeError, normalisePublicKey, notDer, shortKeyError } from './public-key';
import type { CryptoProvider } from './public-key';

const publicKeys = new KeyCache<KeyObject>();
const privateKeys = new KeyCache<KeyObject>(8);

/** A KeyObject usable for SHA256withRSA verification, throwing WebhookKeyError otherwise. */
function nodePublicKey(input: unknown): KeyObject {
  if (typeof input === 'string')
    return publicKeys.get(input) ?? publicKeys.set(input, parse(input));
  if (input instanceof KeyObject) return checkPublicKey(input);
  throw keyTypeError(input, 'a public KeyObject');
}

function parse(text: string): KeyObject {
  const { pem } = normalisePublicKey(text);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw notDer(cause);
  }
  return checkPublicKey(key);
}

function checkPublicKey(key: KeyObject): KeyObject {
  if (key.type !== 'public') {
    throw new WebhookKeyError(
      `the KeyObject is a ${key.type} key; verification needs the service public key (crypto.createPublicKey).`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new WebhookKeyError(
      `the public key is ${key.asymmetricKeyType ?? 'not'} an RSA key; SHA256withRSA signatures need the service RSA public key.`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) throw shortKeyError(bits);
  return key;
}

/**
 * Verifies a delivery's signature over its exact body bytes.
 *
 * @param body The raw body bytes (Buffer, Uint8Array, ArrayBuffer) or the exact JSON string
 *   sent (verified as its UTF-8 bytes). Never a re-serialised object.
 * @param authorization The `Authorization` header value; must be exactly
 *   `SHA256withRSA <base64>` (that casing, padded canonical base64: see encoding.ts).
 * @param publicKey The text served at `<base>/.well-known/signature/pem`, a full PEM, or a
 *   public RSA KeyObject. Parsed keys are cached.
 * @returns true only for a valid signature; any malformed input gives false, never an exception.
 * @throws WebhookKeyError when the public key cannot be used (a configuration error).
 */
export function verifyWebhookSignature(
  body: WebhookBody,
  authorization: string | null | undefined,
  publicKey: string | KeyObject,
): boolean {
  // The key is resolved first so a misconfigured key fails loudly on every call, not only on
  // the calls that happen to carry a well-formed header.
  const key = nodePublicKey(publicKey);
  const signature = signatureBytes(authorization);
  if (signature === null) return false;
  const data = nodeBodyBytes(body);
  if (data === null) return false;
  try {
    return verify('sha256', data, key, signature);
  } catch {
    return false;
  }
}

/** The signature bytes of a well-formed header, or null (encoding.ts's rule, checked below). */
function signatureBytes(header: unknown): Buffer | null {
  const text = signatureText(header);
  return text === null ? null : canonicalBase64Bytes(text);
}

/**
 * The bytes of `text` when it is canonical padded base64, else null: exactly the texts
 * encoding.ts's isCanonicalBase64 accepts (the alphabet A-Z a-z 0-9 + /, a length that is a
 * multiple of 4, at most two `=` and only at the end, zero padding bits;
 * verify.properties.test.ts proves the two the same). Strict because Buffer's decoder is
 * lenient: it skips characters outside the alphabet, reads base64url's `-` and `_`, stops at
 * an `=` anywhere, ignores padding bits, and reads a character above U+00FF as its low byte
 * (`Ł`, U+0141, as `A`). Each of those is another spelling of the same signature bytes, and one
 * signature must have one spelling (encoding.ts, the note at the top).
 *
 * Checked by arithmetic on what the decode, needed anyway, produced rather than by a scan in
 * JavaScript: the text is ASCII (as many UTF-8 bytes as characters), the decoder kept every
 * character (any character skipped, or an `=` before the end, leaves at least one byte fewer
 * than the length predicts, for every length that is a multiple of 4), none was `-` or `_`,
 * and the padding bits are zero. That leans on what Node's decoder does with what it cannot
 * read (skip it, or stop); verify.properties.test.ts pins it on the Node that runs the tests
 * (Node 20.20, 22.23 and 24.22 checked: docs/decisions.md, "The webhook hot path").
 * Decision (issue w48): measured in place, between RSA
 * verifications (ten calls of each way in turn, against the same path with no check), this
 * costs about 2% of a verification, re-encoding and comparing 3-5%, encoding.ts's pattern about
 * 4%, a charCodeAt loop over a lookup table 5-6% (alone, in a tight loop, each costs a third
 * of that: after the RSA arithmetic their code and data are out of the caches). The webhook
 * bench's verify budget is 0.95 of bare crypto.verify.
 */
export function canonicalBase64Bytes(text: string): Buffer | null {
  const length = text.length;
  if (length === 0 || length % 4 !== 0) return null;
  if (Buffer.byteLength(text, 'utf8') !== length) return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== Buffer.byteLength(text, 'base64')) return null;
  if (text.indexOf('-') !== -1 || text.indexOf('_') !== -1) return null;
  return zeroPaddingBits(text) ? bytes : null;
}

/** Like bodyBytes, but uses Buffer for strings (faster than TextEncoder on Node) and never copies bytes. */
function nodeBodyBytes(body: unknown): NodeJS.ArrayBufferView | null {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (ArrayBuffer.isView(body)) return body as NodeJS.ArrayBufferView;
  if (isArrayBuffer(body)) return new Uint8Array(body);
  return null;
}

/** The receiver's crypto on Node. */
export const nodeCrypto: CryptoProvider<KeyObject> = {
  verify: verifyWebhookSignature,
  checkKey: (key) => void nodePublicKey(key),
};

/**
 * Signs a body as the service does and returns the `Authorization` header value,
 * `SHA256withRSA <base64>`.
 *
 * @param body The exact bytes (or JSON string, signed as UTF-8) that will be sent.
 * @param privateKey An RSA private key: PEM (PKCS#8 or PKCS#1) or a private KeyObject.
 * @throws WebhookKeyError when the key is not an RSA private key.
 * @throws WebhookPayloadError when the body is not a string or bytes.
 */
export function signWebhookPayload(body: WebhookBody, privateKey: string | KeyObject): string {
  const key = privateKeyObject(privateKey);
  const data = bodyBytes(body);
  if (data === null) {
    throw new WebhookPayloadError(
      'signWebhookPayload needs the exact body as a string or bytes; serialise the object once (JSON.stringify) and send and sign those same bytes.',
    );
  }
  return formatAuthorization(sign('sha256', data, key).toString('base64'));
}

function privateKeyObject(input: unknown): KeyObject {
  if (input instanceof KeyObject) return checkPrivateKey(input);
  if (typeof input !== 'string') {
    throw new WebhookKeyError(
      'the private key must be a PEM string or a private KeyObject (crypto.createPrivateKey).',
    );
  }
  const cached = privateKeys.get(input);
  if (cached !== undefined) return cached;
  let key: KeyObject;
  try {
    // Literal "\n" sequences: a PEM pasted into an environment variable.
    key = createPrivateKey(input.replace(/\\r|\\n/g, '\n'));
  } catch (cause) {
    throw new WebhookKeyError(
      'the private key could not be parsed; pass an RSA private key PEM ("PRIVATE KEY" or "RSA PRIVATE KEY") or a KeyObject.',
      { cause },
    );
  }
  return privateKeys.set(input, checkPrivateKey(key));
}

function checkPrivateKey(key: KeyObject): KeyObject {
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') {
    throw new WebhookKeyError(
      `signing needs an RSA private key, got a ${key.type} ${key.asymmetricKeyType ?? ''} key.`,
    );
  }
  return key;
}
