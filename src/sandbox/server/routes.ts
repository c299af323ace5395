/**
 * The sandbox's routes: each path with its methods, whether other origins may read it, and the
 * handler with the collaborators it uses, named here, rather than the whole running sandbox.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_KEY_PATH } from '../../core/index';
import { decide, showBankPage } from '../pages/bank-page';
import type { BankParts } from '../pages/bank-page';
import { COMMAND_NAMES } from '../commands/commands';
import type { CommandName } from '../commands/commands';
import { commandRoute } from '../commands/routes';
import type { CommandRouteParts } from '../commands/routes';
import { listInstitutions, sendIcon } from '../contract/institutions';
import { createPayment, showPayment } from '../contract/payments';
import type { PaymentParts } from '../contract/payments';
import { SCRIPT_HOST_PATH, serveScriptHost } from '../contract/script-host';
import { deliveryEvents, showDeliveries } from '../pages/deliveries-page';
import type { DeliveriesParts } from '../pages/deliveries-page';
import { send, sendJson } from './http';
import { keysAction, showKeys } from '../keys/rotation';
import type { KeysParts } from '../keys/rotation';
import { showIndex } from '../pages/index-page';
import type { IndexParts } from '../pages/index-page';
import {
  DELIVERIES_SCRIPT_PATH,
  STYLESHEET_PATH,
  sendDeliveriesScript,
  sendStylesheet,
} from '../pages/page';
import type { SandboxContext } from './service';

type Handler = () => void | Promise<void>;

export interface Route {
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

const isCommand = (name: string): name is CommandName =>
  (COMMAND_NAMES as readonly string[]).includes(name);

/** The route of a request's path, or undefined for an unknown path (404). */
export type Match = (req: IncomingMessage, res: ServerResponse, url: URL) => Route | undefined;

export function createRoutes(ctx: SandboxContext): Match {
  const { options, keys, doors, payments, deliverer, checker, lifecycle, commands } = ctx;
  const indexParts: IndexParts = {
    options,
    applicationId: ctx.applicationId,
    baseUrl: ctx.baseUrl,
    payments,
  };
  const bankParts: BankParts = { options, payments, doors, lifecycle };
  const deliveriesParts: DeliveriesParts = { options, doors, deliverer, checker, lifecycle };
  const paymentParts: PaymentParts = {
    institutions: options.institutions,
    payments,
    doors,
    log: options.log,
  };
  const commandParts: CommandRouteParts = { commands, doors, log: options.log };
  const keysParts: KeysParts = { keys, doors, log: options.log };

  return (req, res, url) => {
    const path = url.pathname;
    const get = (handler: Handler, cors = false): Route => ({ cors, methods: { GET: handler } });
    const post = (handler: Handler, cors = false): Route => ({ cors, methods: { POST: handler } });
    switch (path) {
      case '/':
        return get(() => showIndex(res, indexParts));
      case STYLESHEET_PATH:
        return get(() => sendStylesheet(res));
      case '/favicon.ico':
        // Browsers ask for it on every page; an empty answer keeps their consoles free of 404s.
        return get(() => send(res, 204, '', {}));
      case '/v1/institutions':
        return get(() => listInstitutions(req, res, url.searchParams, paymentParts), true);
      case '/v1/payments':
        return post(() => createPayment(req, res, paymentParts), true);
      case PUBLIC_KEY_PATH:
        return get(
          () => send(res, 200, keys.publicKeyText, { 'Content-Type': 'text/plain; charset=utf-8' }),
          true,
        );
      case '/keys':
        return get(() => showKeys(res, keysParts));
      case '/keys/next':
      case '/keys/rotate':
        return post(() =>
          keysAction(req, res, path === '/keys/next' ? 'next' : 'rotate', keysParts),
        );
      case DELIVERIES_SCRIPT_PATH:
        return get(() => sendDeliveriesScript(res));
      case '/deliveries':
        return get(() => showDeliveries(res, url.searchParams, deliveriesParts));
      case '/deliveries/events':
        return get(() => deliveryEvents(req, res, url.searchParams, deliveriesParts));
      case '/deliveries.json':
        // Every payment id, request and answer, and the receiver's address: for this machine's
        // tools, not for other origins (no CORS).
        return get(() =>
          sendJson(res, 200, {
            webhookUrl: options.webhookUrl?.href ?? null,
            deliveries: deliverer.attempts(),
            armedFaults: deliverer.armed(),
            receiverCheck: checker.state(),
            scheduled: lifecycle.scheduled(),
          }),
        );
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/deliveries\/([a-z-]+)$/.exec(path)) && isCommand(m[1]!)) {
      const name = m[1];
      return post(() => commandRoute(req, res, name, commandParts));
    }
    if (path === SCRIPT_HOST_PATH || path.startsWith(`${SCRIPT_HOST_PATH}/`)) {
      // `/js` and `/js/` are the bare script-host address (the newest script).
      const name = decodeSegment(path.slice(SCRIPT_HOST_PATH.length + 1));
      if (name === undefined) return undefined;
      return get(() => serveScriptHost(req, res, name, options.scriptDir), true);
    }
    if ((m = /^\/icons\/([^/]+)\.svg$/.exec(path))) {
      const id = decodeSegment(m[1]) ?? '';
      return get(() => sendIcon(res, id, options.institutions), true);
    }
    if ((m = /^\/v1\/payments\/([^/]+)$/.exec(path))) {
      const id = decodeSegment(m[1]);
      if (id === undefined) return undefined;
      return get(() => showPayment(req, res, id, paymentParts));
    }
    if ((m = /^\/bank\/([^/]+)(\/decision)?$/.exec(path))) {
      const id = decodeSegment(m[1]);
      if (id === undefined) return undefined;
      return m[2]
        ? post(() => decide(req, res, id, bankParts))
        : get(() => showBankPage(req, res, id, bankParts));
    }
    return undefined;
  };
}
