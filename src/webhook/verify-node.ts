/** SHA256withRSA verification on node:crypto (spec 5.1). */
import { verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { AUTHORIZATION_PREFIX, MAX_SIGNATURE_CHARS } from './authorization';
import { isArrayBuffer } from './bytes';
import type { WebhookBody } from './bytes';
import { nodePublicKey } from './node-key';

/**
 * Verifies a delivery's signature over its exact body bytes.
 *
 * @param body The raw body bytes (Buffer, Uint8Array, ArrayBuffer) or the exact JSON string
 *   sent (verified as its UTF-8 bytes). Never a re-serialised object.
 * @param authorization The `Authorization` header value; must be exactly
 *   `SHA256withRSA <base64>`.
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

/**
 * The signature bytes of a well-formed header, or null: the rule of signatureFromAuthorization
 * (canonical padded base64), checked more cheaply. Node's decoder is lenient, but re-encoding
 * what it decoded gives back the same text only for canonical base64, and the decode is needed
 * anyway, so the check costs one encode instead of a regex scan per verification.
 */
function signatureBytes(header: unknown): Buffer | null {
  if (typeof header !== 'string' || !header.startsWith(AUTHORIZATION_PREFIX)) return null;
  const text = header.slice(AUTHORIZATION_PREFIX.length);
  if (text.length === 0 || text.length > MAX_SIGNATURE_CHARS) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** Like bodyBytes, but uses Buffer for strings (faster than TextEncoder on Node) and never copies bytes. */
function nodeBodyBytes(body: unknown): NodeJS.ArrayBufferView | null {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (ArrayBuffer.isView(body)) return body as NodeJS.ArrayBufferView;
  if (isArrayBuffer(body)) return new Uint8Array(body);
  return null;
}
