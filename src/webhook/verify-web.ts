/** SHA256withRSA verification on WebCrypto (spec 5.1), for edge runtimes. No Node built-ins. */
import { signatureFromAuthorization } from './authorization';
import { decodeBase64 } from './base64';
import { bodyBytes } from './bytes';
import type { WebhookBody } from './bytes';
import { RSA_PKCS1_SHA256, webPublicKey } from './web-key';

/**
 * Verifies a delivery's signature over its exact body bytes, with WebCrypto. Same inputs and
 * answers as the Node verifier, asynchronously.
 *
 * @param body The raw body bytes (Uint8Array, ArrayBuffer) or the exact JSON string sent
 *   (verified as its UTF-8 bytes).
 * @param authorization The `Authorization` header value; must be exactly
 *   `SHA256withRSA <base64>`.
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
