/**
 * The deliveries page, a webhook workbench: what the sandbox does with notifications, break it
 * on purpose (with the faults armed), the receiver check, slow and lost payments (what is
 * scheduled, a late COMPLETED, a second paid attempt), and the notifications themselves
 * (deliveries-notification.ts); its routes, the page and its event stream. Plain forms that
 * work without script, whose actions are the command layer's (commands/); the page's one
 * script (deliveries-live.js, served as a file) only keeps it up to date.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deliverer } from '../deliveries/deliverer';
import type { ReceiverCheck } from '../deliveries/receiver-check';
import { describeFaults } from '../deliveries/faults';
import { DELIVERIES_FORM, startEventStream } from '../server/http';
import type { Doors } from '../server/http';
import type { Lifecycle } from '../payments/lifecycle';
import type { ResolvedOptions } from '../api/options';
import type { ArmedFaults, ScheduledStep, WebhookDeliveryAttempt } from '../api/types';
import {
  attemptSummary,
  faultFields,
  hidden,
  notificationSection,
} from './deliveries-notification';
import { html, joinHtml } from './html';
import type { Html } from './html';
import {
  DELIVERIES_SCRIPT_PATH,
  htmlDocument,
  orNone,
  pageCsp,
  sendHtml,
  timeElement,
} from './page';
import { checkCaseView, checkPart, checkSection } from './receiver-check-page';
import type { CheckState } from './receiver-check-page';

const WHEN: Record<ScheduledStep['reason'], string> = {
  'authorisation-window': 'when its authorisation window closes',
  'bank-check': 'when the bank’s check ends',
  settlement: 'when it settles',
};

/** The steps scheduled and not taken yet: replaced as a whole while the page is open. */
export function scheduledList(steps: readonly ScheduledStep[]): Html {
  const items = steps.map(
    (step) =>
      html`<li>Payment <code>${step.paymentId}</code>: ${step.status} ${WHEN[step.reason]}, at ${timeElement(step.at)}</li>`,
  );
  const list =
    items.length > 0
      ? html`<p>Scheduled:</p><ul>${joinHtml(items, html`\n`)}</ul>`
      : html`<p>Nothing scheduled.</p>`;
  return html`<div id="scheduled">${list}</div>`;
}

const minutes = (ms: number) => `${Number((ms / 60_000).toFixed(3))} min`;

function lifecycleSection({ options: waits, lifecycle }: DeliveriesParts, token: string): Html {
  const scale =
    waits.timeScale !== 1 &&
    html` The sandbox’s clock runs ${waits.timeScale} times faster (timeScale): these waits, and a delivery’s delay, take that much less real time.`;
  return html`<section id="lifecycle" aria-labelledby="lifecycle-heading">
<h2 id="lifecycle-heading">Slow and lost payments</h2>
<p>Beside Approve, Reject and Bank error, the bank page plays a shopper who leaves without deciding (FAILED when the authorisation window of ${minutes(waits.authorisationWindowMs)} closes), a bank still checking (PENDING at once, COMPLETED ${minutes(waits.bankCheckMs)} later) and a payment that settles later (COMPLETED, then SETTLED ${minutes(waits.settleAfterMs)} later).${scale} What was sent, and when, is under each notification below.</p>
${scheduledList(lifecycle.scheduled())}
<form method="post" action="/deliveries/complete-late">
${hidden('token', token)}
<div class="field"><label for="lifecycle-payment-id">Payment id</label><input type="text" name="paymentId" id="lifecycle-payment-id" autocomplete="off" spellcheck="false" required></div>
<p class="note">A late COMPLETED completes that payment now (one left undecided or FAILED), as a bank that confirms after the shop gave up on the order. Paying its order again makes a second payment of the same amount and metadata, COMPLETED, as a shopper who paid in two tabs.</p>
<div class="actions"><button type="submit">Send a late COMPLETED</button><button type="submit" formaction="/deliveries/pay-again">Pay the same order again</button></div>
</form>
</section>`;
}

/** The faults armed and not yet used: replaced as a whole while the page is open. */
export function armedList(armed: ArmedFaults): Html {
  const items = [
    armed.next &&
      html`<li>The next ${armed.next.remaining} notification${armed.next.remaining === 1 ? '' : 's'}: ${describeFaults(armed.next.faults)}</li>`,
    ...armed.payments.map(
      (p) =>
        html`<li>Payment <code>${p.paymentId}</code>, its next delivery: ${describeFaults(p.faults)}</li>`,
    ),
  ].filter((item) => item !== null);
  const list =
    items.length > 0
      ? html`<p>Armed, not used yet:</p><ul>${joinHtml(items, html`\n`)}</ul>`
      : html`<p>Nothing armed: notifications are sent plainly.</p>`;
  return html`<div id="armed-faults">${list}</div>`;
}

function breakSection(armed: ArmedFaults, token: string): Html {
  return html`<section id="break" aria-labelledby="break-heading">
<h2 id="break-heading">Break it on purpose</h2>
<p>What the real service may do to a notification, done on purpose so you can see your receiver do its work once: send it twice at the same moment, send it again after your 200, lose it on the network before it reaches you (then retry), or hold it back. Arm faults for the next notifications as payments settle, or for one payment by its id; to break one already sent, use “Resend it broken on purpose” below it.</p>
${armedList(armed)}
<details data-key="break-form"><summary>Arm faults</summary>
<form method="post" action="/deliveries/break">
${hidden('token', token)}
<fieldset><legend>Which notifications</legend>
<div class="field check"><input type="radio" name="target" value="next" id="break-target-next" checked><label for="break-target-next">The next notifications</label></div>
<div class="field"><label for="break-count">How many</label><input type="number" inputmode="numeric" name="count" id="break-count" min="0" max="1000" step="1" value="1"></div>
<div class="field check"><input type="radio" name="target" value="payment" id="break-target-payment"><label for="break-target-payment">One payment</label></div>
<div class="field"><label for="break-payment-id">Its payment id</label><input type="text" name="paymentId" id="break-payment-id" autocomplete="off" spellcheck="false"></div>
</fieldset>
<fieldset><legend>Faults</legend>
${faultFields('break')}
</fieldset>
<div class="actions"><button type="submit">Arm these faults</button></div>
</form>
</details>
</section>`;
}

function pageLinks(page: number, pages: number): Html | null {
  if (pages <= 1) return null;
  const links = [
    page > 1 &&
      html`<a href="/deliveries${page === 2 ? '' : `?page=${page - 1}`}">Newer notifications</a>`,
    page < pages && html`<a href="/deliveries?page=${page + 1}">Older notifications</a>`,
  ].filter((link) => link !== false);
  return html`<nav aria-label="Pages of notifications"><p>Page ${page} of ${pages}: ${joinHtml(links, html` · `)}</p></nav>`;
}

/** The deliveries page: `?page=n` for older notifications (only the first page is live). */
export function deliveriesPage(parts: DeliveriesParts, query: URLSearchParams): Html {
  const { options, deliverer } = parts;
  const token = parts.doors.token(DELIVERIES_FORM);
  const check = checkState(parts);
  const all = deliverer.notifications();
  const pages = Math.max(1, Math.ceil(all.length / NOTIFICATIONS_PER_PAGE));
  const asked = Number(query.get('page') ?? '1');
  const page = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), pages) : 1;
  const start = (page - 1) * NOTIFICATIONS_PER_PAGE;
  const live = page === 1;
  const groups = all
    .slice(start, start + NOTIFICATIONS_PER_PAGE)
    .map((view) => notificationSection(view, token, checkCaseView(view, check)));
  const list =
    groups.length > 0
      ? joinHtml(groups, html`\n`)
      : html`<p id="no-deliveries">No delivery attempts yet.</p>`;
  // The event stream starts after the latest attempt when the page was made.
  const body = html`<main class="wide"${live && html` data-events="/deliveries/events?after=${deliverer.lastAttemptId()}"`}>
<h1>Webhook deliveries</h1>
<p>Each notification is PUT to ${orNone(options.webhookUrl?.href)} until the receiver answers HTTP 200, waiting longer after each failure, with the same bytes and signature every time. Every attempt is listed with the request as sent, the answer, how long it took and, for a failure, its likely cause. The latest ${options.deliveryHistory} attempts and ${options.maxPayments} payments with their notifications are kept; older ones are forgotten. <a href="/deliveries.json">JSON</a> · <a href="/">Sandbox home</a></p>
${live && html`<p class="note">This page updates by itself while it is open: new attempts appear without reloading.</p>`}
<p id="deliveries-live" class="live" role="status" aria-live="polite"></p>
${breakSection(deliverer.armed(), token)}
${checkSection(check, token)}
${lifecycleSection(parts, token)}
<h2 id="notifications-heading">Notifications, latest activity first</h2>
<div id="notifications">
${list}
</div>
${pageLinks(page, pages)}
</main>`;
  return htmlDocument({
    title: 'Webhook deliveries – ServicePay sandbox',
    body,
    scripts: live ? [DELIVERIES_SCRIPT_PATH] : [],
  });
}

/** What the deliveries page's routes use of a running sandbox. */
export interface DeliveriesParts {
  options: Pick<
    ResolvedOptions,
    | 'webhookUrl'
    | 'deliveryHistory'
    | 'maxPayments'
    | 'authorisationWindowMs'
    | 'bankCheckMs'
    | 'settleAfterMs'
    | 'timeScale'
  >;
  doors: Pick<Doors, 'token'>;
  deliverer: Deliverer;
  checker: ReceiverCheck;
  lifecycle: Pick<Lifecycle, 'scheduled' | 'subscribe'>;
}

/** Notifications per page of /deliveries: enough to scan, few enough to render at once. */
export const NOTIFICATIONS_PER_PAGE = 20;

function checkState({ checker, options }: DeliveriesParts): CheckState {
  return { ...checker.state(), available: options.webhookUrl !== undefined };
}

export function showDeliveries(
  res: ServerResponse,
  query: URLSearchParams,
  parts: DeliveriesParts,
): void {
  sendHtml(
    res,
    200,
    deliveriesPage(parts, query),
    // As on the bank page: its forms must send the real Origin, which the actions compare.
    { 'Referrer-Policy': 'same-origin' },
    pageCsp([], { script: true }),
  );
}

/**
 * The deliveries page's event stream: each new attempt as its notification's section, the
 * receiver check's part when a check starts or ends, and the armed faults and the scheduled
 * steps when they change.
 * Nothing but what the page shows, and only to this origin (no CORS).
 */
export function deliveryEvents(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  parts: DeliveriesParts,
): void {
  const { doors, deliverer, checker, lifecycle } = parts;
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
  const sendScheduled = () =>
    write('section', { html: String(scheduledList(lifecycle.scheduled())) });
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
    sendScheduled();
  }
  const offs = [
    deliverer.subscribe(sendAttempt),
    checker.subscribe(() => sendCheck(true)),
    deliverer.subscribeArmed(sendArmed),
    lifecycle.subscribe(sendScheduled),
  ];
  res.on('close', () => offs.forEach((off) => off()));
}
