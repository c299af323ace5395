/**
 * Reading a node:http request body with a size limit. Bytes are kept as received (never
 * decoded to text) because the signature covers them exactly.
 */
import type { IncomingMessage } from 'node:http';
import { isArrayBuffer } from './bytes';

export type NodeBody =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'too-large' }
  | { kind: 'already-parsed' }
  | { kind: 'unreadable'; error: unknown };

/**
 * Reads the body of `req`, from the stream or from what a raw-body middleware left in
 * `req.body`, and calls `done` once. Callbacks rather than a promise: this runs for every
 * delivery, and the receiver's benchmark counts each allocation and microtask.
 * Over `limit`, buffering stops at once and the caller answers 413 with Connection: close, so
 * the socket is closed after the answer instead of kept alive to read the rest.
 */
export function readNodeBody(
  req: IncomingMessage,
  limit: number,
  done: (body: NodeBody) => void,
): void {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  // express.raw() leaves a Buffer, express.text() a string: both still hold the exact body.
  if (ArrayBuffer.isView(parsed) || isArrayBuffer(parsed) || typeof parsed === 'string') {
    const bytes =
      typeof parsed === 'string'
        ? Buffer.from(parsed, 'utf8')
        : ArrayBuffer.isView(parsed)
          ? new Uint8Array(parsed.buffer, parsed.byteOffset, parsed.byteLength)
          : new Uint8Array(parsed);
    return done(bytes.byteLength > limit ? { kind: 'too-large' } : { kind: 'bytes', bytes });
  }
  // The stream was read by someone else (express.json() and its object in req.body, or any
  // other consumer): the exact bytes are gone. Body-parser 1.x also sets req.body = {} without
  // reading when the content type does not match; the stream is intact then and is read here.
  if (req.readableDidRead || req.readableEnded) return done({ kind: 'already-parsed' });

  const chunks: Buffer[] = [];
  let length = 0;
  // `done` runs once even if 'error' and 'close' both fire. The listeners stay on (they go with
  // the request) rather than come off one by one on every delivery: cheaper, and a late 'error'
  // still has a listener, so it can never be thrown as unhandled.
  let settled = false;
  const finish = (result: NodeBody): void => {
    if (settled) return;
    settled = true;
    done(result);
  };
  const onData = (chunk: Buffer): void => {
    length += chunk.length;
    if (length > limit) {
      // Stop buffering the rest; the answer closes the connection.
      chunks.length = 0;
      req.off('data', onData);
      finish({ kind: 'too-large' });
      return;
    }
    chunks.push(chunk);
  };
  // One chunk is the common case for a webhook: use it as is rather than copy it.
  const onEnd = (): void =>
    finish({
      kind: 'bytes',
      bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length),
    });
  const onError = (error: unknown): void => finish({ kind: 'unreadable', error });
  // Closed before the end: the client gave up. Without this `done` would never run.
  const onClose = (): void => {
    if (!req.complete) {
      finish({ kind: 'unreadable', error: new Error('the client aborted the request') });
    }
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
  req.on('close', onClose);
}
