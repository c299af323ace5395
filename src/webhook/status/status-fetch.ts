/**
 * The payment status endpoint's Fetch front door (status.ts decides): Next.js route handlers,
 * edge runtimes, Deno, Bun.
 */
import { createStatusCore, STREAM_HEADERS } from './status';
import { observed } from './status-telemetry';
import type { PaymentStatusHandlerOptions, StatusAnswer, StatusCore } from './status';
import { clientOfAddress } from './status-limits';

/** Options of createFetchPaymentStatusHandler. */
export interface FetchPaymentStatusHandlerOptions extends PaymentStatusHandlerOptions {
  /**
   * Who a stream request comes from, for `maxStreamsPerClient`. A Fetch request carries no
   * connection: give the address your platform vouches for (Cloudflare:
   * `(request) => request.headers.get('cf-connecting-ip') ?? undefined`). `undefined` counts
   * the request in `maxStreams` only.
   * @default the address Deno.serve or Bun.serve hands the handler; elsewhere none
   */
  streamClient?: (request: Request) => string | undefined;
}

/** A Fetch API handler for the payment status; its promise never rejects. */
export interface FetchPaymentStatusHandler {
  /**
   * `info`: what Deno.serve (`{ remoteAddr }`) or Bun.serve (the server, `requestIP`) hands a
   * handler beside the request, where the client's address is read from by default.
   */
  (request: Request, info?: unknown): Promise<Response>;
  /** Ends every open event stream of this handler. */
  close(): Promise<void>;
}

/**
 * The payment status endpoint as `(request: Request) => Promise<Response>`: Next.js route
 * handlers, edge runtimes, Deno, Bun. Behaves as createPaymentStatusHandler.
 *
 * @throws WebhookConfigError when the store records no outcomes or an option is unusable.
 */
export function createFetchPaymentStatusHandler(
  options: FetchPaymentStatusHandlerOptions,
): FetchPaymentStatusHandler {
  return fetchHandlerWith(observed(createStatusCore)(options, 'createFetchPaymentStatusHandler'));
}

/** The client's address where the runtime hands it to the handler: Deno.serve, Bun.serve. */
function runtimeAddress(request: Request, info: unknown): string | undefined {
  try {
    const { remoteAddr, requestIP } = (info ?? {}) as {
      remoteAddr?: { hostname?: unknown };
      requestIP?: (request: Request) => { address?: unknown } | null;
    };
    const address =
      remoteAddr?.hostname ??
      (typeof requestIP == 'function' ? requestIP.call(info, request)?.address : undefined);
    return typeof address == 'string' ? clientOfAddress(address) : undefined;
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();

function fetchHandlerWith(core: StatusCore): FetchPaymentStatusHandler {
  const handler = async (request: Request, info?: unknown): Promise<Response> => {
    const checked = core.check(request.method, request.url);
    if ('status' in checked) return toResponse(checked);
    if (!core.wantsStream(request.headers.get('accept'))) {
      return toResponse(await core.answer(checked));
    }
    const client = core.client(request, () => runtimeAddress(request, info));
    const refused = core.reserve(client);
    if (refused !== null) return toResponse(refused);
    let stop: (() => void) | undefined;
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let ended = false;
        void core
          .stream(
            checked,
            {
              write: (chunk) => {
                // Not after the client cancelled: enqueue would throw.
                if (!ended && !cancelled) controller.enqueue(encoder.encode(chunk));
              },
              end: () => {
                if (ended) return;
                ended = true;
                try {
                  controller.close();
                } catch {
                  // Cancelled by the client meanwhile.
                }
              },
            },
            client,
          )
          .then((end) => {
            stop = end;
            if (cancelled) end();
          });
      },
      cancel() {
        cancelled = true;
        stop?.();
      },
    });
    request.signal?.addEventListener('abort', () => {
      cancelled = true;
      stop?.();
    });
    return new Response(body, { status: 200, headers: STREAM_HEADERS });
  };
  return Object.assign(handler, { close: () => core.close() });
}

function toResponse(answer: StatusAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
