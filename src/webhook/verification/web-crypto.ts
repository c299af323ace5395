/**
 * SHA256withRSA on WebCrypto (spec 5.1), for edge runtimes: importing public keys and
 * verifying. No Node built-ins, no Buffer (test/webhook/web.runtime.test.ts keeps it so).
 */
import { bodyBytes, decodeBase64, signatureFromAuthorization } from './encoding';
import type { WebhookBody } from './encoding';
import { WebhookConfigError, WebhookKeyError } from '../errors';
import { KeyCache, keyTypeError, normalisePublicKey, shortKeyError } from './public-key';
import type { CryptoProvider } from './public-key';

const RSA_PKCS1_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

/** Import promises by text; a failed import is forgotten so the next call tries again. */
const publicKeys = new KeyCache<Promise<CryptoKey>>();

/** A CryptoKey usable for SHA256withRSA verification; rejects with WebhookKeyError otherwise. */
function webPublicKey(input: unknown): Promise<CryptoKey> {
  if (typeof input === 'string') {
    const cached = publicKeys.get(input);
    if (cached !== undefined) return cached;
    const imported = publicKeys.set(input, importText(input));
    imported.catch(() => publicKeys.forget(input, imported));
    return imported;
  }
  try {
    return Promise.resolve(checkCryptoKey(input));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Duck-typed: `instanceof CryptoKey` fails across realms and the global is not everywhere. */
function isCryptoKey(value: unknown): value is CryptoKey {
  if (typeof value !== 'object' || value === null) return false;
  const key = value as Partial<CryptoKey>;
  return (
    typeof key.type === 'string' && typeof key.algorithm === 'object' && Array.isArray(key.usages)
  );
}

/** Throws WebhookKeyError unless `key` is a CryptoKey verifying RSASSA-PKCS1-v1_5 / SHA-256. */
function checkCryptoKey(key: unknown): CryptoKey {
  if (!isCryptoKey(key)) throw keyTypeError(key, 'a public CryptoKey');
  const algorithm = key.algorithm as Partial<RsaHashedKeyAlgorithm>;
  if (
    key.type !== 'public' ||
    algorithm.name !== RSA_PKCS1_SHA256.name ||
    algorithm.hash?.name !== RSA_PKCS1_SHA256.hash ||
    !key.usages.includes('verify')
  ) {
    throw new WebhookKeyError(
      `the CryptoKey must be a public RSASSA-PKCS1-v1_5 / SHA-256 key with the "verify" usage, got a ${key.type} ${algorithm.name ?? ''} key; import it with crypto.subtle.importKey('spki', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']).`,
    );
  }
  if ((algorithm.modulusLength ?? 0) < 2048) throw shortKeyError(algorithm.modulusLength ?? 0);
  return key;
}

async function importText(text: string): Promise<CryptoKey> {
  const { base64 } = normalisePublicKey(text);
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new WebhookConfigError(
      'WebCrypto (crypto.subtle) is not available in this runtime; on Node use servicepay/webhook instead.',
      'runtime',
    );
  }
  try {
    return await subtle.importKey('spki', decodeBase64(base64), RSA_PKCS1_SHA256, false, [
      'verify',
    ]);
  } catch (cause) {
    throw new WebhookKeyError(
      'the public key text is base64 but not a valid RSA public key (SubjectPublicKeyInfo DER); copy it again from <base>/.well-known/signature/pem.',
      { cause },
    );
  }
}

/**
 * Verifies a delivery's signature over its exact body bytes, with WebCrypto. Same inputs and
 * answers as the Node verifier, asynchronously.
 *
 * @param body The raw body bytes (Uint8Array, ArrayBuffer) or the exact JSON string sent
 *   (verified as its UTF-8 bytes).
 * @param authorization The `Authorization` header value; must be exactly
 *   `SHA256withRSA <base64>` (that casing, padded canonical base64: see encoding.ts).
 * @param publicKey The text served at `<base>/.well-known/signature/pem`, a full PEM, or a
 *   public RSASSA-PKCS1-v1_5 / SHA-256 CryptoKey. Imported keys are cached.
 * @returns true only for a valid signature; any malformed input gives false, never a rejection.
 * @throws (rejects with) WebhookKeyError when the public key cannot be used.
 */
export async function verifyWebhookSignature(
  body: WebhookBody,
  authorization: string | null | undefined,
  publicKey: string | CryptoKey,
): Promise<boolean> {
  const key = await webPublicKey(publicKey);
  const signature = signatureFromAuthorization(authorization);
  if (signature === null) return false;
  const data = bodyBytes(body);
  if (data === null) return false;
  try {
    return await crypto.subtle.verify(
      RSA_PKCS1_SHA256,
      key,
      decodeBase64(signature),
      data as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}

/**
 * The receiver's crypto on WebCrypto. A text key is checked synchronously at creation (form,
 * length, RSA size: normalisePublicKey); importKey itself runs at the first delivery.
 */
export const webCrypto: CryptoProvider<CryptoKey> = {
  verify: verifyWebhookSignature,
  checkKey: (key) => {
    if (typeof key === 'string') normalisePublicKey(key);
    else checkCryptoKey(key);
  },
};
