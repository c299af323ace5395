/**
 * Two of the command layer's doors, `POST /deliveries/<command>`: the deliveries
 * page's forms (their token, same origin; answered 303 back to the page) and JSON from a tool
 * on this machine (Doors.fromTool; the CLI is one). Each reads its input into a command, runs
 * it, and answers a refusal with the status of its code (HTTP_STATUS).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpStatusOf } from '../api/errors';
import {
  DELIVERIES_FORM,
  MAX_FORM_BYTES,
  formFields,
  readBody,
  sendError,
  sendJson,
} from '../server/http';
import type { Doors } from '../server/http';
import { notificationAnchor } from '../pages/deliveries-notification';
import { sendMessagePage, sendRedirect } from '../pages/page';
import { commandFromForm, commandFromJson } from './commands';
import type { CommandName, CommandResult, Commands, DeliveriesCommand } from './commands';
import { prefixed } from '../../webhook/prefixed';

export interface CommandRouteParts {
  commands: Commands;
  doors: Pick<Doors, 'fromOwnPage' | 'fromTool' | 'origin'>;
  log: (line: string) => void;
}

const isJson = (req: IncomingMessage) =>
  /^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '');

/** `POST /deliveries/<name>`, from the page's form or a tool's JSON. */
export async function commandRoute(
  req: IncomingMessage,
  res: ServerResponse,
  name: CommandName,
  parts: CommandRouteParts,
): Promise<void> {
  const body = await readBody(req, MAX_FORM_BYTES);
  return isJson(req)
    ? fromTool(req, res, name, body, parts)
    : fromPage(req, res, name, body, parts);
}

/** Where the page shows a command's effect: the payment's notifications (a new one's, for a second attempt), the armed faults, the check. */
function anchorOf(command: DeliveriesCommand, result: CommandResult): string {
  if (command.name === 'break') return '/deliveries#break';
  if (command.name === 'check') return '/deliveries#receiver-check';
  const paymentId = 'payment' in result ? result.payment.paymentId : command.paymentId;
  return `/deliveries#${encodeURIComponent(notificationAnchor(paymentId))}`;
}

function fromPage(
  req: IncomingMessage,
  res: ServerResponse,
  name: CommandName,
  body: Buffer,
  { commands, doors, log }: CommandRouteParts,
): void {
  const fields = formFields(body);
  if (!doors.fromOwnPage(req, DELIVERIES_FORM, fields.get('token'))) {
    log(`deliveries ${name} refused: not from the deliveries page`);
    return sendMessagePage(
      res,
      403,
      'Action refused',
      'The sandbox accepts the actions of its deliveries page (Resend, break it, the receiver check, a late COMPLETED, paying an order again) only from that page. Open the deliveries page again and use its buttons.',
    );
  }
  const command = commandFromForm(name, fields);
  let result: CommandResult;
  try {
    result = commands.run(command);
    // The page shows the check running, then its report (live, or on reload).
    if ('report' in result) {
      result.report.catch((error: unknown) => log(`receiver check failed: ${String(error)}`));
    }
  } catch (error) {
    const status = httpStatusOf(error);
    if (status === undefined) throw error;
    return sendMessagePage(res, status, 'Not done', (error as Error).message);
  }
  sendRedirect(res, anchorOf(command, result));
}

async function fromTool(
  req: IncomingMessage,
  res: ServerResponse,
  name: CommandName,
  body: Buffer,
  { commands, doors, log }: CommandRouteParts,
): Promise<void> {
  if (!doors.fromTool(req)) {
    log(`deliveries ${name} refused: a page elsewhere sent it`);
    return sendError(
      res,
      403,
      prefixed(
        'the sandbox accepts this action only from its own deliveries page or a tool on this machine.',
      ),
    );
  }
  let input: Record<string, unknown>;
  try {
    const parsed: unknown = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    input = parsed as Record<string, unknown>;
  } catch {
    return sendError(res, 400, prefixed('the request body must be a JSON object.'));
  }
  const command = commandFromJson(name, input);
  try {
    const result = commands.run(command);
    if ('report' in result) return sendJson(res, 200, await result.report);
    if ('armed' in result) return sendJson(res, 200, result);
    return sendJson(res, 202, {
      ...result,
      deliveries: `${doors.origin(req)}${anchorOf(command, result)}`,
    });
  } catch (error) {
    const status = httpStatusOf(error);
    if (status === undefined) throw error;
    return sendError(res, status, (error as Error).message);
  }
}
