// The types of fetch-event-source.mjs.

/**
 * An EventSource class whose streams are asked of `fetch`; `opened(url)` is told of every
 * connection (the first and each reconnection).
 */
export declare function fetchEventSource(
  fetch: (input: string, init: RequestInit) => Promise<Response>,
  opened?: (url: string) => void,
): typeof EventSource;
