/**
 * Strict base64 (RFC 4648 section 4, canonical): the alphabet with `+` and `/`, length a
 * multiple of 4, correct padding, and zero pad bits, so exactly one text encodes a signature.
 * Decoders are lenient (Node ignores bad characters and missing padding), hence the check first.
 */

/**
 * Alphabet and trailing `=` only. Together with the length rule this fixes the padding: a
 * multiple of 4 with at most two `=` at the end. One simple regex is measurably cheaper than
 * a pattern that encodes the groups, and this check runs on every verification.
 */
const SHAPE = /^[A-Za-z0-9+/]+={0,2}$/;

/** Last data character before `==` / `=` whose unused low bits are zero (canonical form). */
const CANONICAL_BEFORE_TWO_PADS = 'AQgw';
const CANONICAL_BEFORE_ONE_PAD = 'AEIMQUYcgkosw048';

/** True for non-empty, padded base64. Enough for key text. */
export function isPaddedBase64(text: string): boolean {
  return text.length > 0 && text.length % 4 === 0 && SHAPE.test(text);
}

/** True for non-empty, canonical, padded base64. */
export function isCanonicalBase64(text: string): boolean {
  if (!isPaddedBase64(text)) return false;
  const n = text.length;
  if (text.charCodeAt(n - 1) !== 61 /* = */) return true;
  if (text.charCodeAt(n - 2) === 61) return CANONICAL_BEFORE_TWO_PADS.includes(text.charAt(n - 3));
  return CANONICAL_BEFORE_ONE_PAD.includes(text.charAt(n - 2));
}

/** Decodes base64 already checked by one of the functions above, without Buffer (edge-safe). */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
