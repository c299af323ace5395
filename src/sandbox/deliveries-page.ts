/**
 * The deliveries page's routes: the page (its HTML: deliveries-view.ts), its event stream, and
 * its actions, from the page's forms or, as JSON, from the CLI and scripts on this machine.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkCaseView, checkPart } from './receiver-check-page';
import type { CheckState } from './receiver-check-page';
import { attemptSummary, notificationAnchor, notificationSection } from './deliveries-notification';
import { armedList, deliveriesPage } from './deliveries-view';
import { checkFaults } from './faults';
import { SandboxError } from './errors';
import {
  DELIVERIES_FORM,
  MAX_FORM_BYTES,
  formFields,
  readBody,
  send,
  sendError,
  sendJson,
  startEventStream,
} from './http';
import { messagePage, pageCsp, sendPage, sendRedirect } from './pages';
import type { SandboxContext } from './service';
import type { DeliveryFaults, DeliveryFaultTarget, WebhookDeliveryAttempt } from './types';

/** Notifications per page of /deliveries: enough to scan, few enough to render at once. */
export const NOTIFICATIONS_PER_PAGE = 20;

function checkState(ctx: SandboxContext): CheckState {
  return { ...ctx.checker.state(), available: ctx.options.webhookUrl !== undefined };
}

/** The deliveries page: `?page=n` for older notifications (only the first page is live). */
export function showDeliveries(
  res: ServerResponse,
  query: URLSearchParams,
  ctx: SandboxContext,
): void {
  const all = ctx.deliverer.notifications();
  const pages = Math.max(1, Math.ceil(all.length / NOTIFICATIONS_PER_PAGE));
  const asked = Number(query.get('page') ?? '1');
  const page = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), pages) : 1;
  const start = (page - 1) * NOTIFICATIONS_PER_PAGE;
  const html = deliveriesPage({
    webhookUrl: ctx.options.webhookUrl?.href,
    token: ctx.doors.token(DELIVERIES_FORM),
    notifications: all.slice(start, start + NOTIFICATIONS_PER_PAGE),
    page,
    pages,
    kept: { attempts: ctx.options.deliveryHistory, payments: ctx.options.maxPayments },
    armed: ctx.deliverer.armed(),
    check: checkState(ctx),
    lastAttemptId: ctx.deliverer.lastAttemptId(),
  });
  send(res, 200, String(html), {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp([], { script: true }),
    // As on the bank page: its forms must send the real Origin, which the actions compare.
    'Referrer-Policy': 'same-origin',
  });
}

/**
 * The deliveries page's event stream: each new attempt as its notification's section, the
 * receiver check's part when a check starts or ends, and the armed faults when they change.
 * Nothing but what the page shows, and only to this origin (no CORS).
 */
export function deliveryEvents(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  ctx: SandboxContext,
): void {
  startEventStream(res);
  const token = ctx.doors.token(DELIVERIES_FORM);
  const write = (event: string, data: unknown, id?: number) => {
    if (res.writableEnded) return;
    const line = id === undefined ? '' : `id: ${id}\n`;
    res.write(`${line}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const sendAttempt = (attempt: WebhookDeliveryAttempt) => {
    const view = ctx.deliverer.notification(attempt.paymentId);
    if (view === undefined || view.attempts.length === 0) return;
    const html = notificationSection(view, token, checkCaseView(view, checkState(ctx)));
    write('attempt', { html: String(html), summary: attemptSummary(attempt) }, attempt.id);
  };
  const sendCheck = (announce: boolean) => {
    const state = checkState(ctx);
    const failed = state.report?.cases.filter((c) => !c.passed).length ?? 0;
    const summary = !announce
      ? ''
      : state.running
        ? 'The receiver check is running.'
        : `The receiver check has ended: ${failed === 0 ? 'every case as expected' : `${failed} cases not as expected`}.`;
    write('check', { html: String(checkPart(state, token)), summary });
  };
  const sendArmed = () => write('section', { html: String(armedList(ctx.deliverer.armed())) });
  // What happened between the page's rendering (or a dropped connection: the browser then
  // sends Last-Event-ID) and now, so that an attempt made meanwhile is not missed.
  const after = Number(req.headers['last-event-id'] ?? query.get('after') ?? Number.NaN);
  if (Number.isInteger(after)) {
    const missed = new Map<string, WebhookDeliveryAttempt>();
    for (const attempt of ctx.deliverer.attemptsAfter(after)) {
      missed.delete(attempt.paymentId);
      missed.set(attempt.paymentId, attempt);
    }
    for (const attempt of missed.values()) sendAttempt(attempt);
    sendCheck(false);
    sendArmed();
  }
  const offAttempts = ctx.deliverer.subscribe(sendAttempt);
  const offCheck = ctx.checker.subscribe(() => sendCheck(true));
  const offArmed = ctx.deliverer.subscribeArmed(sendArmed);
  res.on('close', () => {
    offAttempts();
    offCheck();
    offArmed();
  });
}

export type DeliveriesAction = 'resend' | 'break' | 'check';

const FAULT_FIELDS = ['twiceAtOnce', 'lateResend', 'networkFailures', 'delayMs'];

/** The fault fields of a deliveries form; empty numbers and zeros mean "not this fault". */
function faultsFromForm(fields: URLSearchParams): DeliveryFaults {
  const number = (name: string): number | undefined => {
    const value = fields.get(name)?.trim();
    return value === undefined || value === '' ? undefined : Number(value);
  };
  const faults: Record<string, unknown> = {};
  if (fields.has('twiceAtOnce')) faults.twiceAtOnce = true;
  if (fields.has('lateResend')) faults.lateResendMs = number('lateResendMs') ?? 0;
  const failures = number('networkFailures');
  if (failures !== 0 && failures !== undefined) faults.networkFailures = failures;
  const delay = number('delayMs');
  if (delay !== 0 && delay !== undefined) faults.delayMs = delay;
  return checkFaults(faults);
}

/** The HTTP status for a refused action: unknown (404), not possible now (409), invalid (400). */
function refusedStatus(error: SandboxError): number {
  if (/no sandbox payment|has sent no notification/.test(error.message)) return 404;
  if (/PENDING|webhook ?URL|webhookUrl|stopped/i.test(error.message)) return 409;
  return 400;
}

/**
 * Resend, break it on purpose, the receiver check: from the deliveries page's forms (its
 * token, same origin; answered 303 back to the page), or as JSON from a tool on this machine
 * (see Doors.fromTool).
 */
export async function deliveriesAction(
  req: IncomingMessage,
  res: ServerResponse,
  action: DeliveriesAction,
  ctx: SandboxContext,
): Promise<void> {
  const body = await readBody(req, MAX_FORM_BYTES);
  if (/^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '')) {
    return jsonAction(req, res, action, body, ctx);
  }
  const fields = formFields(body);
  if (!ctx.doors.fromOwnPage(req, DELIVERIES_FORM, fields.get('token'))) {
    ctx.options.log(`deliveries ${action} refused: not from the deliveries page`);
    return sendPage(
      res,
      403,
      messagePage(
        'Action refused',
        'The sandbox accepts Resend, break-it and receiver-check actions only from its own deliveries page. Open the deliveries page again and use its buttons.',
      ),
      ctx,
    );
  }
  let location: string;
  try {
    if (action === 'resend') {
      const paymentId = fields.get('paymentId') ?? '';
      const broken = FAULT_FIELDS.some((name) => fields.has(name));
      ctx.resend(paymentId, broken ? faultsFromForm(fields) : undefined);
      location = `/deliveries#${encodeURIComponent(notificationAnchor(paymentId))}`;
    } else if (action === 'break') {
      const target: DeliveryFaultTarget =
        fields.get('target') === 'payment'
          ? { paymentId: (fields.get('paymentId') ?? '').trim() }
          : { count: Number(fields.get('count') ?? '1') };
      ctx.breakDeliveries(faultsFromForm(fields), target);
      location = '/deliveries#break';
    } else {
      // The page shows the check running, then its report (live, or on reload).
      ctx.checker
        .run()
        .catch((error: unknown) => ctx.options.log(`receiver check failed: ${String(error)}`));
      location = '/deliveries#receiver-check';
    }
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return sendPage(res, refusedStatus(error), messagePage('Not done', error.message), ctx);
  }
  sendRedirect(res, location);
}

async function jsonAction(
  req: IncomingMessage,
  res: ServerResponse,
  action: DeliveriesAction,
  body: Buffer,
  ctx: SandboxContext,
): Promise<void> {
  if (!ctx.doors.fromTool(req)) {
    ctx.options.log(`deliveries ${action} refused: a page elsewhere sent it`);
    return sendError(
      res,
      403,
      'servicepay: the sandbox accepts this action only from its own deliveries page or a tool on this machine.',
    );
  }
  let input: Record<string, unknown>;
  try {
    const parsed: unknown = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    input = parsed as Record<string, unknown>;
  } catch {
    return sendError(res, 400, 'servicepay: the request body must be a JSON object.');
  }
  try {
    if (action === 'resend') {
      const paymentId = String(input.paymentId ?? '');
      const faults = input.faults === undefined ? undefined : checkFaults(input.faults);
      const copy = ctx.resend(paymentId, faults);
      return sendJson(res, 202, {
        paymentId,
        copy,
        deliveries: `${ctx.doors.origin(req)}/deliveries#${encodeURIComponent(notificationAnchor(paymentId))}`,
      });
    }
    if (action === 'break') {
      const faults = checkFaults(input.faults ?? {});
      const target: DeliveryFaultTarget =
        typeof input.paymentId === 'string'
          ? { paymentId: input.paymentId }
          : { count: input.count === undefined ? 1 : (input.count as number) };
      return sendJson(res, 200, { armed: ctx.breakDeliveries(faults, target) });
    }
    return sendJson(res, 200, await ctx.checker.run());
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return sendError(res, refusedStatus(error), error.message);
  }
}
