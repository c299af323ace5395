/**
 * The Authorization header of a delivery (spec 5.1.1-2): `SHA256withRSA <base64 signature>`,
 * one space, nothing else. Any other token, scheme or shape is not a signature.
 */
import { isCanonicalBase64 } from './base64';

/** The only algorithm token the service uses. */
export const SIGNATURE_ALGORITHM = 'SHA256withRSA';

/** The header up to the signature: the token and one space. */
export const AUTHORIZATION_PREFIX = `${SIGNATURE_ALGORITHM} `;

/**
 * Longest signature text accepted: an RSA-16384 signature (2048 bytes) is 2732 characters.
 * Rejecting longer input early keeps a hostile header from costing a regex scan of megabytes.
 */
export const MAX_SIGNATURE_CHARS = 2732;

/** The base64 signature carried by a well-formed header value, or null for anything else. */
export function signatureFromAuthorization(header: unknown): string | null {
  if (typeof header !== 'string' || !header.startsWith(AUTHORIZATION_PREFIX)) return null;
  const signature = header.slice(AUTHORIZATION_PREFIX.length);
  if (signature.length > MAX_SIGNATURE_CHARS || !isCanonicalBase64(signature)) return null;
  return signature;
}

/** The header value for a base64 signature. */
export function formatAuthorization(signatureBase64: string): string {
  return AUTHORIZATION_PREFIX + signatureBase64;
}
