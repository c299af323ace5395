/**
 * startSandbox: the local simulator of the service on node:http, and its routes. A request
 * passes the Host check, then goes to its route; unknown paths get 404 JSON, wrong methods
 * 405. What the routes do is in api.ts (what the component calls), bank-page.ts, index-page.ts
 * and deliveries-page.ts; what they act on is in service.ts.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_KEY_PATH } from '../core/index';
import {
  SCRIPT_HOST_PATH,
  createPayment,
  listInstitutions,
  sendIcon,
  serveScriptHost,
  showPayment,
} from './api';
import { decide, showBankPage } from './bank-page';
import { deliveriesAction, deliveryEvents, showDeliveries } from './deliveries-page';
import { SandboxError } from './errors';
import {
  BodyTooLargeError,
  corsHeaders,
  foreignHostMessage,
  preflightHeaders,
  send,
  sendError,
  sendJson,
} from './http';
import { keysAction, rotateKey, showKeys } from './key-rotation';
import { loadKeys } from './keys';
import { describeFailure } from './notification';
import { resolveOptions } from './options';
import { showIndex } from './index-page';
import {
  DELIVERIES_SCRIPT_PATH,
  STYLESHEET_PATH,
  sendDeliveriesScript,
  sendStylesheet,
} from './page-assets';
import { SANDBOX_APPLICATION_ID, checkOutcome, createSandboxContext } from './service';
import type { SandboxContext } from './service';
import type { Sandbox, SandboxOptions, SandboxPayment, SettleOutcome } from './types';

/**
 * Starts the sandbox: the service's HTTP contract, a bank page per payment, signed webhooks
 * with retries. Resolves once it listens.
 *
 * @throws SandboxConfigError for invalid options or an unusable key file.
 * @throws SandboxError when it cannot listen (port taken, address not local).
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = resolveOptions(options);
  const keys = await loadKeys(config.keyFile);
  let baseUrl = '';
  const ctx = createSandboxContext(config, keys, () => baseUrl);
  const { payments, deliverer, checker } = ctx;
  const server = createServer(createRequestHandler(ctx));
  try {
    await listen(server, config.port, config.host);
  } catch (cause) {
    await deliverer.stop();
    const code = (cause as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? ' Is another sandbox running? Choose another port (port option, --port).'
        : code === 'EADDRNOTAVAIL'
          ? ' The host is not an address of this machine.'
          : '';
    throw new SandboxError(
      `servicepay: the sandbox could not listen on ${config.host}:${config.port} (${code ?? (cause as Error).message}).${hint}`,
      { cause },
    );
  }
  baseUrl = `http://${urlHost(config.host)}:${(server.address() as AddressInfo).port}`;
  config.log(`sandbox listening at ${baseUrl}`);

  let stopped: Promise<void> | undefined;
  return {
    url: baseUrl,
    // A getter: rotateKey changes the key in place.
    get publicKey() {
      return keys.publicKeyPem;
    },
    async rotateKey() {
      const { current, previous } = await rotateKey(keys, config.log);
      return { publicKey: current, previousPublicKey: previous as string };
    },
    applicationId: SANDBOX_APPLICATION_ID,
    settlePayment(paymentId: string, outcome: SettleOutcome): SandboxPayment {
      const { status, errorDescription } = checkOutcome(outcome);
      const payment = ctx.settle(paymentId, status, errorDescription);
      if (payment === undefined) {
        throw new SandboxError(
          `servicepay: no sandbox payment has the id ${JSON.stringify(paymentId)}.`,
        );
      }
      return payment;
    },
    get deliveries() {
      return deliverer.attempts();
    },
    resendNotification: ctx.resend,
    breakDeliveries: ctx.breakDeliveries,
    get armedFaults() {
      return deliverer.armed();
    },
    checkReceiver: () => checker.run(),
    get payments() {
      return new Map(payments.list().map((payment) => [payment.paymentId, payment]));
    },
    stop() {
      stopped ??= Promise.all([closeServer(server), deliverer.stop()]).then(() => {
        config.log('sandbox stopped');
      });
      return stopped;
    },
  };
}

type Handler = () => void | Promise<void>;

interface Route {
  /** Handlers by method; HEAD is served by GET (node drops the body). */
  methods: Partial<Record<'GET' | 'POST', Handler>>;
  /**
   * Whether other origins may read it: what the component calls from the merchant's page (the
   * institutions, the payment request, the icons, the script host) and the public key.
   */
  cors: boolean;
}

function decodeSegment(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function match(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: SandboxContext,
): Route | undefined {
  const path = url.pathname;
  switch (path) {
    case '/':
      return { cors: false, methods: { GET: () => showIndex(res, ctx) } };
    case STYLESHEET_PATH:
      return { cors: false, methods: { GET: () => sendStylesheet(res) } };
    case '/favicon.ico':
      // Browsers ask for it on every page; an empty answer keeps their consoles free of 404s.
      return { cors: false, methods: { GET: () => send(res, 204, '', {}) } };
    case '/v1/institutions':
      return {
        cors: true,
        methods: { GET: () => listInstitutions(req, res, url.searchParams, ctx) },
      };
    case '/v1/payments':
      return { cors: true, methods: { POST: () => createPayment(req, res, ctx) } };
    case PUBLIC_KEY_PATH:
      return {
        cors: true,
        methods: {
          GET: () =>
            send(res, 200, ctx.keys.publicKeyText, {
              'Content-Type': 'text/plain; charset=utf-8',
            }),
        },
      };
    case '/keys':
      return { cors: false, methods: { GET: () => showKeys(res, ctx) } };
    case '/keys/next':
    case '/keys/rotate': {
      const action = path === '/keys/next' ? 'next' : 'rotate';
      return { cors: false, methods: { POST: () => keysAction(req, res, action, ctx) } };
    }
    case DELIVERIES_SCRIPT_PATH:
      return { cors: false, methods: { GET: () => sendDeliveriesScript(res) } };
    case '/deliveries':
      return { cors: false, methods: { GET: () => showDeliveries(res, url.searchParams, ctx) } };
    case '/deliveries/events':
      return {
        cors: false,
        methods: { GET: () => deliveryEvents(req, res, url.searchParams, ctx) },
      };
    case '/deliveries/resend':
    case '/deliveries/break':
    case '/deliveries/check': {
      const action = path.slice('/deliveries/'.length) as 'resend' | 'break' | 'check';
      return { cors: false, methods: { POST: () => deliveriesAction(req, res, action, ctx) } };
    }
    case '/deliveries.json':
      // Every payment id, request and answer, and the receiver's address: for this machine's
      // tools, not for other origins (no CORS).
      return {
        cors: false,
        methods: {
          GET: () =>
            sendJson(res, 200, {
              webhookUrl: ctx.options.webhookUrl?.href ?? null,
              deliveries: ctx.deliverer.attempts(),
              armedFaults: ctx.deliverer.armed(),
              receiverCheck: ctx.checker.state(),
            }),
        },
      };
  }
  if (path === SCRIPT_HOST_PATH || path.startsWith(`${SCRIPT_HOST_PATH}/`)) {
    // `/js` and `/js/` are the bare script-host address (the newest script).
    const name = decodeSegment(path.slice(SCRIPT_HOST_PATH.length + 1));
    if (name === undefined) return undefined;
    return {
      cors: true,
      methods: { GET: () => serveScriptHost(req, res, name, ctx.options.scriptDir) },
    };
  }
  let m: RegExpExecArray | null;
  if ((m = /^\/icons\/([^/]+)\.svg$/.exec(path))) {
    const id = decodeSegment(m[1]) ?? '';
    return {
      cors: true,
      methods: {
        GET: () => {
          if (!sendIcon(res, id, ctx)) sendError(res, 404, `No institution has the id ${id}`);
        },
      },
    };
  }
  if ((m = /^\/v1\/payments\/([^/]+)$/.exec(path))) {
    const id = decodeSegment(m[1]);
    if (id === undefined) return undefined;
    return { cors: false, methods: { GET: () => showPayment(req, res, id, ctx) } };
  }
  if ((m = /^\/bank\/([^/]+)(\/decision)?$/.exec(path))) {
    const id = decodeSegment(m[1]);
    if (id === undefined) return undefined;
    return m[2]
      ? { cors: false, methods: { POST: () => decide(req, res, id, ctx) } }
      : { cors: false, methods: { GET: () => showBankPage(req, res, id, ctx) } };
  }
  return undefined;
}

export function createRequestHandler(ctx: SandboxContext) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      // Before anything else: a foreign Host is a page elsewhere reaching in (DNS rebinding).
      const host = ctx.doors.checkHost(req);
      if (!host.ok) {
        return send(res, 421, foreignHostMessage(host.name), {
          'Content-Type': 'text/plain; charset=utf-8',
        });
      }
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      } catch {
        return sendError(res, 400, 'The request target is not a valid path');
      }
      const route = match(req, res, url, ctx);
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (route === undefined) {
        return sendError(res, 404, `Not found: ${req.method} ${url.pathname}`, corsHeaders(req));
      }
      if (route.cors) {
        // Every answer of a route other origins may read carries the CORS headers, its errors
        // included: set here once, and writeHead adds each handler's own headers to them.
        for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value);
        if (req.method === 'OPTIONS') return send(res, 204, '', preflightHeaders(req));
      }
      const handler = route.methods[method as 'GET' | 'POST'];
      if (handler === undefined) {
        const allow = [
          ...Object.keys(route.methods),
          ...(route.methods.GET ? ['HEAD'] : []),
          ...(route.cors ? ['OPTIONS'] : []),
        ];
        return sendError(res, 405, `Method ${req.method} is not allowed on ${url.pathname}`, {
          Allow: allow.join(', '),
        });
      }
      await handler();
    } catch (error) {
      if (error instanceof BodyTooLargeError && !res.headersSent) {
        // Closing tells the client to stop sending the rest of a body that will not be read.
        return sendError(res, 413, error.message, { ...corsHeaders(req), Connection: 'close' });
      }
      ctx.options.log(`error answering ${req.method} ${req.url}: ${describeFailure(error)}`);
      if (!res.headersSent) sendError(res, 500, 'Internal sandbox error', corsHeaders(req));
      else res.destroy();
    }
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Stops accepting, drops idle keep-alive and open connections, resolves when closed. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The host part of the sandbox's URL: a wildcard bind is reached through loopback. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  if (host.includes(':') && !host.startsWith('[')) return `[${host}]`;
  return host;
}
