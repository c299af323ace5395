/**
 * Public keys for node:crypto. Parsing a PEM costs far more than the RSA verification itself,
 * so parsed keys are cached by the exact text given: a lookup hashes a string V8 has usually
 * hashed already, and the call then costs the verification and little else.
 */
import { createPublicKey, KeyObject } from 'node:crypto';
import { WebhookKeyError } from './errors';
import { keyTypeError, normalisePublicKey } from './public-key-text';

/** Enough for key rotation overlap and a few environments; bounded so odd inputs cannot grow it. */
const MAX_CACHED_KEYS = 32;
const cache = new Map<string, KeyObject>();

/** A KeyObject usable for SHA256withRSA verification, throwing WebhookKeyError otherwise. */
export function nodePublicKey(input: unknown): KeyObject {
  if (typeof input === 'string') {
    const cached = cache.get(input);
    if (cached !== undefined) return cached;
    return remember(input, parse(input));
  }
  if (input instanceof KeyObject) return checkKeyObject(input);
  throw keyTypeError(input, 'a public KeyObject');
}

function parse(text: string): KeyObject {
  const { pem } = normalisePublicKey(text);
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new WebhookKeyError(
      'servicepay: the public key text is base64 but not a valid public key (SubjectPublicKeyInfo DER); copy it again from <base>/.well-known/signature/pem.',
      { cause },
    );
  }
  return checkKeyObject(key);
}

function checkKeyObject(key: KeyObject): KeyObject {
  if (key.type !== 'public') {
    throw new WebhookKeyError(
      `servicepay: the KeyObject is a ${key.type} key; verification needs the service public key (crypto.createPublicKey).`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new WebhookKeyError(
      `servicepay: the public key is ${key.asymmetricKeyType ?? 'not'} an RSA key; SHA256withRSA signatures need the service RSA public key.`,
    );
  }
  return key;
}

function remember(text: string, key: KeyObject): KeyObject {
  if (cache.size >= MAX_CACHED_KEYS) {
    // Map iteration is insertion order: drop the oldest entry.
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(text, key);
  return key;
}
