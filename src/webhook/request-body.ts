/**
 * Reading a Fetch API Request body with a size limit, on any runtime. Bytes are kept as
 * received because the signature covers them exactly.
 */
export type RequestBody =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'too-large' }
  | { kind: 'already-parsed' }
  | { kind: 'unreadable'; error: unknown };

export async function readRequestBody(request: Request, limit: number): Promise<RequestBody> {
  // request.json() or request.text() ran first: the bytes are gone (the Fetch form of the
  // raw-body pitfall).
  if (request.bodyUsed) return { kind: 'already-parsed' };
  if (request.body === null) return { kind: 'bytes', bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > limit) {
        // Stop pulling from the client at once instead of buffering what will be refused.
        reader.cancel().catch(() => {});
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { kind: 'unreadable', error };
  }
  if (chunks.length === 1) return { kind: 'bytes', bytes: chunks[0] as Uint8Array };
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'bytes', bytes };
}
