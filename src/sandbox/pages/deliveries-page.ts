/**
 * The deliveries page's routes: the page (its HTML: deliveries-view.ts) and its event stream.
 * Its forms' actions are the command layer's (commands/).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkCaseView, checkPart } from './receiver-check-page';
import type { CheckState } from './receiver-check-page';
import { attemptSummary, notificationSection } from './deliveries-notification';
import { armedList, deliveriesPage } from './deliveries-view';
import type { Deliverer } from '../deliveries';
import type { ReceiverCheck } from '../diagnosis';
import { DELIVERIES_FORM, startEventStream } from '../http';
import type { Doors } from '../http';
import type { ResolvedOptions } from '../options';
import { pageCsp, sendHtml } from './page';
import type { WebhookDeliveryAttempt } from '../types';

/** What the deliveries page's routes use of a running sandbox. */
export interface DeliveriesParts {
  options: Pick<ResolvedOptions, 'webhookUrl' | 'deliveryHistory' | 'maxPayments'>;
  doors: Pick<Doors, 'token'>;
  deliverer: Deliverer;
  checker: ReceiverCheck;
}

/** Notifications per page of /deliveries: enough to scan, few enough to render at once. */
export const NOTIFICATIONS_PER_PAGE = 20;

function checkState({ checker, options }: DeliveriesParts): CheckState {
  return { ...checker.state(), available: options.webhookUrl !== undefined };
}

/** The deliveries page: `?page=n` for older notifications (only the first page is live). */
export function showDeliveries(
  res: ServerResponse,
  query: URLSearchParams,
  parts: DeliveriesParts,
): void {
  const { options, doors, deliverer } = parts;
  const all = deliverer.notifications();
  const pages = Math.max(1, Math.ceil(all.length / NOTIFICATIONS_PER_PAGE));
  const asked = Number(query.get('page') ?? '1');
  const page = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), pages) : 1;
  const start = (page - 1) * NOTIFICATIONS_PER_PAGE;
  const html = deliveriesPage({
    webhookUrl: options.webhookUrl?.href,
    token: doors.token(DELIVERIES_FORM),
    notifications: all.slice(start, start + NOTIFICATIONS_PER_PAGE),
    page,
    pages,
    kept: { attempts: options.deliveryHistory, payments: options.maxPayments },
    armed: deliverer.armed(),
    check: checkState(parts),
    lastAttemptId: deliverer.lastAttemptId(),
  });
  sendHtml(
    res,
    200,
    html,
    // As on the bank page: its forms must send the real Origin, which the actions compare.
    { 'Referrer-Policy': 'same-origin' },
    pageCsp([], { script: true }),
  );
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
  parts: DeliveriesParts,
): void {
  const { doors, deliverer, checker } = parts;
  startEventStream(res);
  const token = doors.token(DELIVERIES_FORM);
  const write = (event: string, data: unknown, id?: number) => {
    if (res.writableEnded) return;
    const line = id === undefined ? '' : `id: ${id}\n`;
    res.write(`${line}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const sendAttempt = (attempt: WebhookDeliveryAttempt) => {
    const view = deliverer.notification(attempt.paymentId);
    if (view === undefined || view.attempts.length === 0) return;
    const html = notificationSection(view, token, checkCaseView(view, checkState(parts)));
    write('attempt', { html: String(html), summary: attemptSummary(attempt) }, attempt.id);
  };
  const sendCheck = (announce: boolean) => {
    const state = checkState(parts);
    const failed = state.report?.cases.filter((c) => !c.passed).length ?? 0;
    const summary = !announce
      ? ''
      : state.running
        ? 'The receiver check is running.'
        : `The receiver check has ended: ${failed === 0 ? 'every case as expected' : `${failed} cases not as expected`}.`;
    write('check', { html: String(checkPart(state, token)), summary });
  };
  const sendArmed = () => write('section', { html: String(armedList(deliverer.armed())) });
  // What happened between the page's rendering (or a dropped connection: the browser then
  // sends Last-Event-ID) and now, so that an attempt made meanwhile is not missed.
  const after = Number(req.headers['last-event-id'] ?? query.get('after') ?? Number.NaN);
  if (Number.isInteger(after)) {
    const missed = new Map<string, WebhookDeliveryAttempt>();
    for (const attempt of deliverer.attemptsAfter(after)) {
      missed.delete(attempt.paymentId);
      missed.set(attempt.paymentId, attempt);
    }
    for (const attempt of missed.values()) sendAttempt(attempt);
    sendCheck(false);
    sendArmed();
  }
  const offAttempts = deliverer.subscribe(sendAttempt);
  const offCheck = checker.subscribe(() => sendCheck(true));
  const offArmed = deliverer.subscribeArmed(sendArmed);
  res.on('close', () => {
    offAttempts();
    offCheck();
    offArmed();
  });
}
