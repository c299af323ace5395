// An EventSource for Node (which has none) over any fetch function, so that the result page's
// stream runs in Node tests and the bench against the real Fetch status handler in the same
// process (`fetch = (url, init) => handler(new Request(url, init))`). It follows the browser's
// EventSource where the page relies on it: readyState, `onmessage` with each event's data,
// `onerror` with CLOSED for a refused stream (not 200, or not text/event-stream) and with
// CONNECTING for one that was open and ended (the browser then reconnects by itself after the
// server's `retry`, as this does), `close()`. Not the whole standard: no named events, no
// Last-Event-ID.

/**
 * An EventSource class whose streams are asked of `fetch`; `opened(url)` is told of every
 * connection (the first and each reconnection).
 */
export function fetchEventSource(fetch, opened = () => {}) {
  return class FetchEventSource {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSED = 2;
    CONNECTING = 0;
    OPEN = 1;
    CLOSED = 2;
    readyState = 0;
    onmessage = null;
    onerror = null;
    onopen = null;
    #abort = new AbortController();
    #retry = 3000;

    constructor(url) {
      this.url = String(url);
      void this.#connect();
    }

    close() {
      this.readyState = 2;
      this.#abort.abort();
    }

    async #connect() {
      opened(this.url);
      let response;
      try {
        response = await fetch(this.url, {
          headers: { Accept: 'text/event-stream' },
          signal: this.#abort.signal,
        });
      } catch {
        return this.#ended();
      }
      if (this.readyState === 2) return void response.body?.cancel().catch(() => {});
      if (!response.ok || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
        void response.body?.cancel().catch(() => {});
        this.readyState = 2;
        return void this.onerror?.(new Event('error'));
      }
      this.readyState = 1;
      this.onopen?.(new Event('open'));
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || this.readyState === 2) break;
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
              else if (line.startsWith('retry:'))
                this.#retry = Number(line.slice(6)) || this.#retry;
            }
            if (data.length > 0 && this.readyState !== 2) {
              this.onmessage?.(Object.assign(new Event('message'), { data: data.join('\n') }));
            }
          }
        }
      } catch {
        // Cut off: as an end.
      }
      this.#ended();
    }

    /** An open stream ended: the browser says so with CONNECTING, then reconnects. */
    #ended() {
      if (this.readyState === 2) return;
      this.readyState = 0;
      this.onerror?.(new Event('error'));
      if (this.readyState === 0)
        setTimeout(() => this.readyState === 0 && void this.#connect(), this.#retry);
    }
  };
}
