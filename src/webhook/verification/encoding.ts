/**
 * The wire encodings of a delivery (spec 5.1.1-5): the body as bytes, strict base64, and the
 * `Authorization: SHA256withRSA <base64>` header. Runtime-neutral: no Buffer, no Node built-ins.
 *
 * Strictness, decided: the header must read exactly `SHA256withRSA` (that casing), one space,
 * then canonical padded base64 (RFC 4648 section 4). Java's `Signature.getInstance` accepts any
 * casing of the algorithm name and `Base64.getDecoder()` accepts unpadded input, but the service
 * itself always sends this exact form, so a header in another form did not come from it. One
 * accepted spelling per signature means nothing downstream (logs, replay records, idempotency
 * keyed by header) can be fooled by two spellings of one signature, and a decoder difference
 * between runtimes can never make one receiver accept what another refuses. A merchant verifying
 * in another language should apply the same rule (docs/webhooks.md, "Verifying without Node").
 */

/** A webhook body: the raw bytes received, or the exact JSON string that was sent. */
export type WebhookBody = string | ArrayBuffer | ArrayBufferView;

const encoder = new TextEncoder();
const toStringTag = Object.prototype.toString;

/** Realm-safe: `instanceof ArrayBuffer` fails for buffers made in another realm (vm, iframes). */
export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return toStringTag.call(value) === '[object ArrayBuffer]';
}

/** The bytes of a body, viewed without copying when already binary; null when not a body. */
export function bodyBytes(body: unknown): Uint8Array | null {
  if (typeof body === 'string') return encoder.encode(body);
  if (ArrayBuffer.isView(body)) {
    return body instanceof Uint8Array
      ? body
      : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  }
  if (isArrayBuffer(body)) return new Uint8Array(body);
  return null;
}

/**
 * Reads a stream whole, up to `limit` bytes. Past the limit it cancels the stream at once
 * (nothing more is pulled from the peer) and returns null. Rejects when the stream errors.
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  // One chunk is the common case: use it as is rather than copy it.
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// Base64 ------------------------------------------------------------------------------------
// Decoders are lenient (Node ignores bad characters and missing padding), hence the checks.

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
  return isPaddedBase64(text) && zeroPaddingBits(text);
}

/**
 * For padded base64 (checked otherwise): true when the bits that the padding leaves unused in
 * the last data character are zero, as an encoder writes them and lenient decoders ignore.
 */
export function zeroPaddingBits(text: string): boolean {
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

// The Authorization header --------------------------------------------------------------------

/** The only algorithm token the service uses (exactly this casing: see the note at the top). */
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
  const signature = signatureText(header);
  return signature !== null && isCanonicalBase64(signature) ? signature : null;
}

/**
 * What follows the prefix of a header value shaped like a signature (the prefix, at most
 * MAX_SIGNATURE_CHARS after it), or null; not yet checked to be canonical base64, which
 * signatureFromAuthorization does here and node-crypto.ts's verifier does its own way.
 */
export function signatureText(header: unknown): string | null {
  if (typeof header !== 'string' || !header.startsWith(AUTHORIZATION_PREFIX)) return null;
  const text = header.slice(AUTHORIZATION_PREFIX.length);
  return text.length > MAX_SIGNATURE_CHARS ? null : text;
}

/** The header value for a base64 signature. */
export function formatAuthorization(signatureBase64: string): string {
  return AUTHORIZATION_PREFIX + signatureBase64;
}

/** An error's message, or the value itself, for a one-line report. */
export function messageOf(error: unknown): string {
  return String((error as Error | undefined)?.message ?? error);
}

/**
 * The raw-body pitfall, spelled out where the merchant will see it: in the 500 answer and, via
 * onError, in the logs. One text for both front doors, naming the fix for each: express.raw()
 * on the route does not help once a global express.json() has read the body. The words alone:
 * the answer and the error put the prefix before them.
 */
export const BODY_ALREADY_PARSED =
  'the request body was consumed before the webhook handler (by express.json() or another body parser, or by request.json()/request.text()), so the exact bytes the signature covers are lost. Mount the webhook route before express.json() (app.put(path, handler) above app.use(express.json())); in a route handler, pass the untouched Request.';
