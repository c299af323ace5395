/**
 * Public keys for WebCrypto. importKey is asynchronous and far costlier than a verification,
 * so the import promise is cached by the exact text given; a failed import is not cached.
 */
import { decodeBase64 } from './base64';
import { WebhookConfigError, WebhookKeyError } from './errors';
import { keyTypeError, normalisePublicKey } from './public-key-text';

export const RSA_PKCS1_SHA256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;

const MAX_CACHED_KEYS = 32;
const cache = new Map<string, Promise<CryptoKey>>();

/** A CryptoKey usable for SHA256withRSA verification; rejects with WebhookKeyError otherwise. */
export function webPublicKey(input: unknown): Promise<CryptoKey> {
  if (typeof input === 'string') {
    const cached = cache.get(input);
    if (cached !== undefined) return cached;
    const imported = importText(input);
    remember(input, imported);
    imported.catch(() => {
      if (cache.get(input) === imported) cache.delete(input);
    });
    return imported;
  }
  if (isCryptoKey(input)) {
    try {
      return Promise.resolve(checkCryptoKey(input));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return Promise.reject(keyTypeError(input, 'a public CryptoKey'));
}

/** Duck-typed: `instanceof CryptoKey` fails across realms and the global is not everywhere. */
export function isCryptoKey(value: unknown): value is CryptoKey {
  if (typeof value !== 'object' || value === null) return false;
  const key = value as Partial<CryptoKey>;
  return (
    typeof key.type === 'string' && typeof key.algorithm === 'object' && Array.isArray(key.usages)
  );
}

/** Throws WebhookKeyError unless the CryptoKey verifies RSASSA-PKCS1-v1_5 with SHA-256. */
export function checkCryptoKey(key: CryptoKey): CryptoKey {
  const algorithm = key.algorithm as Partial<RsaHashedKeyAlgorithm>;
  if (
    key.type !== 'public' ||
    algorithm.name !== RSA_PKCS1_SHA256.name ||
    algorithm.hash?.name !== RSA_PKCS1_SHA256.hash ||
    !key.usages.includes('verify')
  ) {
    throw new WebhookKeyError(
      `servicepay: the CryptoKey must be a public RSASSA-PKCS1-v1_5 / SHA-256 key with the "verify" usage, got a ${key.type} ${algorithm.name ?? ''} key; import it with crypto.subtle.importKey('spki', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']).`,
    );
  }
  return key;
}

async function importText(text: string): Promise<CryptoKey> {
  const { base64 } = normalisePublicKey(text);
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new WebhookConfigError(
      'servicepay: WebCrypto (crypto.subtle) is not available in this runtime; on Node use servicepay/webhook instead.',
      'runtime',
    );
  }
  try {
    return await subtle.importKey('spki', decodeBase64(base64), RSA_PKCS1_SHA256, false, [
      'verify',
    ]);
  } catch (cause) {
    throw new WebhookKeyError(
      'servicepay: the public key text is base64 but not a valid RSA public key (SubjectPublicKeyInfo DER); copy it again from <base>/.well-known/signature/pem.',
      { cause },
    );
  }
}

function remember(text: string, key: Promise<CryptoKey>): void {
  if (cache.size >= MAX_CACHED_KEYS) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(text, key);
}
