/**
 * Body input forms shared by both verifiers (spec 5.1.5): raw bytes, or the exact JSON string,
 * which is verified as its UTF-8 bytes. Runtime-neutral: no Buffer, so it runs on edge runtimes.
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
