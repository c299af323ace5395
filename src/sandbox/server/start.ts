/**
 * startSandbox: the local simulator of the service on node:http. A request passes the Host
 * check, then goes to its route (routes.ts); unknown paths get 404 JSON, wrong methods 405, and
 * a refusal no route answered the status of its code (HTTP_STATUS). What the routes act on is
 * in service.ts.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxError, httpStatusOf, unknownPayment } from '../api/errors';
import { corsHeaders, foreignHostMessage, preflightHeaders, send, sendError } from './http';
import { rotateKey } from '../keys/rotation';
import { loadKeys } from '../keys/keys';
import { describeFailure } from '../deliveries/notification';
import { resolveOptions } from '../api/options';
import { createRoutes } from './routes';
import { SANDBOX_APPLICATION_ID, checkOutcome, createSandboxContext } from './service';
import type { SandboxContext } from './service';
import type { Sandbox, SandboxPayment, SettleOutcome } from '../api/types';
import type { SandboxOptions } from '../api/options';

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
  const { payments, deliverer, lifecycle, commands } = ctx;
  const server = createServer(createRequestHandler(ctx));
  try {
    await listen(server, config.port, config.host);
  } catch (cause) {
    await ctx.stop();
    const code = (cause as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? ' Is another sandbox running? Choose another port (port option, --port).'
        : code === 'EADDRNOTAVAIL'
          ? ' The host is not an address of this machine.'
          : '';
    throw new SandboxError(
      'listen-failed',
      `the sandbox could not listen on ${config.host}:${config.port} (${code ?? (cause as Error).message}).${hint}`,
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
      const payment = lifecycle.move(paymentId, status, errorDescription);
      if (payment === undefined) throw unknownPayment(paymentId);
      return payment;
    },
    get deliveries() {
      return deliverer.attempts();
    },
    // The methods are a door of the command layer, as the page, the JSON API and the CLI are.
    resendNotification: (paymentId, faults) =>
      commands.run({ name: 'resend', paymentId, faults }).copy,
    breakDeliveries: (faults, target) => commands.run({ name: 'break', faults, target }).armed,
    get armedFaults() {
      return deliverer.armed();
    },
    // Async, so that a refusal is a rejection, as for a check that fails.
    checkReceiver: async () => commands.run({ name: 'check' }).report,
    completeLate: (paymentId) => commands.run({ name: 'complete-late', paymentId }).payment,
    payAgain: (paymentId) => commands.run({ name: 'pay-again', paymentId }).payment,
    get scheduled() {
      return lifecycle.scheduled();
    },
    get payments() {
      return new Map(payments.list().map((payment) => [payment.paymentId, payment]));
    },
    stop() {
      stopped ??= Promise.all([closeServer(server), ctx.stop()]).then(() => {
        config.log('sandbox stopped');
      });
      return stopped;
    },
  };
}

export function createRequestHandler(ctx: SandboxContext) {
  const match = createRoutes(ctx);
  const { doors, options } = ctx;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      // Before anything else: a foreign Host is a page elsewhere reaching in (DNS rebinding).
      const host = doors.checkHost(req);
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
      const route = match(req, res, url);
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
      // A refusal a route did not answer itself (a body too large): the status of its code.
      const status = httpStatusOf(error);
      if (status !== undefined && !res.headersSent) {
        // Closing tells the client to stop sending the rest of a body that will not be read.
        return sendError(res, status, (error as Error).message, {
          ...corsHeaders(req),
          Connection: 'close',
        });
      }
      options.log(`error answering ${req.method} ${req.url}: ${describeFailure(error)}`);
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
