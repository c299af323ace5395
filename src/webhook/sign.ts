/**
 * Signing, for merchants' own tests and for the sandbox: the exact header value the service
 * sends, over the exact bytes given.
 */
import { createPrivateKey, KeyObject, sign } from 'node:crypto';
import { formatAuthorization } from './authorization';
import { bodyBytes } from './bytes';
import type { WebhookBody } from './bytes';
import { WebhookKeyError, WebhookPayloadError } from './errors';

const MAX_CACHED_KEYS = 8;
const cache = new Map<string, KeyObject>();

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
      'servicepay: signWebhookPayload needs the exact body as a string or bytes; serialise the object once (JSON.stringify) and send and sign those same bytes.',
    );
  }
  return formatAuthorization(sign('sha256', data, key).toString('base64'));
}

function privateKeyObject(input: unknown): KeyObject {
  if (input instanceof KeyObject) return checkPrivateKey(input);
  if (typeof input !== 'string') {
    throw new WebhookKeyError(
      'servicepay: the private key must be a PEM string or a private KeyObject (crypto.createPrivateKey).',
    );
  }
  const cached = cache.get(input);
  if (cached !== undefined) return cached;
  let key: KeyObject;
  try {
    // Literal "\n" sequences: a PEM pasted into an environment variable.
    key = createPrivateKey(input.replace(/\\r|\\n/g, '\n'));
  } catch (cause) {
    throw new WebhookKeyError(
      'servicepay: the private key could not be parsed; pass an RSA private key PEM ("PRIVATE KEY" or "RSA PRIVATE KEY") or a KeyObject.',
      { cause },
    );
  }
  checkPrivateKey(key);
  if (cache.size >= MAX_CACHED_KEYS) cache.clear();
  cache.set(input, key);
  return key;
}

function checkPrivateKey(key: KeyObject): KeyObject {
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') {
    throw new WebhookKeyError(
      `servicepay: signing needs an RSA private key, got a ${key.type} ${key.asymmetricKeyType ?? ''} key.`,
    );
  }
  return key;
}
