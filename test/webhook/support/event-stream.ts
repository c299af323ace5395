/**
 * Reads a text/event-stream body as a browser's EventSource would, for tests in Node (which
 * has no EventSource): the `data` of each event, the comments, and whether the server ended it.
 */
export interface EventStreamReader {
  /** The data of every event so far, in order. */
  readonly events: string[];
  /** Comment lines so far (heartbeats), without the colon. */
  readonly comments: string[];
  /** Resolves with the data of the event after the `count` seen so far, or rejects if it ends first. */
  next(): Promise<string>;
  /** Resolves once the server has ended the stream. */
  readonly ended: Promise<void>;
  /** Stops reading (the client goes away). */
  cancel(): Promise<void>;
}

export function readEventStream(body: ReadableStream<Uint8Array>): EventStreamReader {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: string[] = [];
  const comments: string[] = [];
  const waiting: { resolve: (data: string) => void; reject: (error: Error) => void }[] = [];
  let consumed = 0;
  let buffer = '';
  let done = false;

  const ended = (async () => {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        break;
      }
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        }
        if (data.length > 0) {
          events.push(data.join('\n'));
          flush();
        }
      }
    }
    done = true;
    for (const waiter of waiting.splice(0)) waiter.reject(new Error('the stream ended'));
  })();

  function flush(): void {
    while (waiting.length > 0 && consumed < events.length) {
      waiting.shift()?.resolve(events[consumed++] as string);
    }
  }

  return {
    events,
    comments,
    next() {
      return new Promise((resolve, reject) => {
        if (done && consumed >= events.length) {
          reject(new Error('the stream ended'));
          return;
        }
        waiting.push({ resolve, reject });
        flush();
      });
    },
    ended,
    cancel: () => reader.cancel(),
  };
}
