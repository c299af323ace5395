/**
 * The deliveries page, a webhook workbench: every attempt in full with a hint at its cause,
 * Resend, break it on purpose, the receiver check. Its HTML (plain forms that work without
 * script; the page's one script, served as a file, only keeps it up to date) and its event
 * stream. Its forms' actions are the command layer's (commands/).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  checkCaseState,
  checkCaseView,
  checkPart,
  checkSection,
  shownAttempts,
} from './receiver-check-page';
import type { CheckCaseView, CheckState } from './receiver-check-page';
import { describeFaults } from './faults';
import type { NotificationView } from './deliveries';
import { DELIVERIES_FORM, send, startEventStream } from './http';
import {
  DELIVERIES_SCRIPT_PATH,
  escapeHtml,
  orNone,
  htmlDocument,
  pageCsp,
  scrollTable,
  timeElement,
} from './pages';
import type { SandboxContext } from './service';
import type { ArmedFaults, DeliveryReason, WebhookDeliveryAttempt } from './types';

/** Notifications per page of /deliveries: enough to scan, few enough to render at once. */
export const NOTIFICATIONS_PER_PAGE = 20;

export interface DeliveriesPageContext {
  webhookUrl: string | undefined;
  /** The deliveries forms' token. */
  token: string;
  /** This page's notifications, the latest activity first. */
  notifications: readonly NotificationView[];
  /** 1-based page number, and how many there are. */
  page: number;
  pages: number;
  /** Kept at most: attempts (deliveryHistory), payments with their notifications (maxPayments). */
  kept: { attempts: number; payments: number };
  armed: ArmedFaults;
  check: CheckState;
  /** The latest attempt's id when the page was made: its event stream starts after it. */
  lastAttemptId: number;
}

const REASONS: Record<DeliveryReason, string> = {
  settled: 'first',
  resend: 'resend',
  'twice-at-once': 'twice at once',
  'late-resend': 'late resend',
  'receiver-check': 'receiver check',
};

const OUTCOMES: Record<WebhookDeliveryAttempt['outcome'], string> = {
  delivered: 'Delivered',
  retrying: 'Retrying',
  'gave-up': 'Gave up',
  cancelled: 'Cancelled',
};

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

/** The fault fields of a form; `prefix` keeps their ids unique on the page. */
function faultFields(prefix: string): string {
  const id = (name: string) => escapeHtml(`${prefix}-${name}`);
  return `<div class="field check"><input type="checkbox" name="twiceAtOnce" id="${id('twice')}"><label for="${id('twice')}">Twice at once: two copies at the same moment</label></div>
<div class="field check"><input type="checkbox" name="lateResend" id="${id('late')}"><label for="${id('late')}">Again after a 200 (a late resend)</label></div>
<div class="field"><label for="${id('late-ms')}">Late resend after (ms)</label><input type="number" inputmode="numeric" name="lateResendMs" id="${id('late-ms')}" min="0" step="1" value="1000"></div>
<div class="field"><label for="${id('failures')}">Network failures before it reaches the receiver</label><input type="number" inputmode="numeric" name="networkFailures" id="${id('failures')}" min="0" max="1000" step="1" value="0"></div>
<div class="field"><label for="${id('delay')}">Delay before the first attempt (ms)</label><input type="number" inputmode="numeric" name="delayMs" id="${id('delay')}" min="0" step="1" value="0"></div>`;
}

/** "HTTP 401", "Connection refused…", "network failure (on purpose)". */
function answerCell(attempt: WebhookDeliveryAttempt, sameCauseAsAbove: boolean): string {
  const answer = attempt.simulated
    ? 'Network failure (on purpose)'
    : attempt.status !== null
      ? `HTTP ${attempt.status}`
      : (attempt.error ?? '');
  const { hint } = attempt;
  let hintHtml = '';
  if (hint !== null) {
    hintHtml = sameCauseAsAbove
      ? '<p class="hint">Same likely cause as the attempt above.</p>'
      : `<p class="hint"><strong>Likely cause:</strong> ${escapeHtml(hint.text)}${
          hint.docs
            ? ` <a href="${escapeHtml(hint.docs)}">Troubleshooting: genuine deliveries get 401</a>`
            : ''
        }</p>`;
  }
  let body = '';
  if (attempt.responseText) {
    const text = `<pre class="raw">${escapeHtml(attempt.responseText)}</pre>`;
    // A receiver that failed says why in its answer: shown at once, not folded away.
    body =
      hint?.cause === 'handler-failed'
        ? `<p class="label">The receiver answered:</p>${text}`
        : `<details data-key="answer-${attempt.id}"><summary>Answer body</summary>${text}</details>`;
  }
  return `<strong>${escapeHtml(answer)}</strong>${hintHtml}${body}`;
}

/**
 * The attempts' rows, the answer first: on a phone it is what shows before the table scrolls
 * sideways.
 */
function attemptRows(attempts: readonly WebhookDeliveryAttempt[]): string {
  return attempts
    .map((a, i) => {
      const above = attempts[i - 1];
      const same = above?.hint != null && a.hint != null && above.hint.cause === a.hint.cause;
      return `<tr class="outcome-${escapeHtml(a.outcome)}">
<td class="answer">${answerCell(a, same)}</td>
<td>${escapeHtml(a.outcome)}</td>
<td>${a.copy} · ${escapeHtml(REASONS[a.reason])}</td>
<td>${a.attempt}</td>
<td>${a.simulated ? '—' : `${a.durationMs} ms`}</td>
<td>${timeElement(a.at)}</td>
<td>${a.nextAttemptAt ? timeElement(a.nextAttemptAt) : '—'}</td>
</tr>`;
    })
    .join('\n');
}

/** The request as sent, as a reader would write it: request line, headers, blank line, body. */
function rawRequest(view: NotificationView): string {
  const { request } = view;
  const url = new URL(request.url);
  const headers = Object.entries({ Host: url.host, ...request.headers })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return `${request.method} ${url.pathname}${url.search} HTTP/1.1\n${headers}\n\n${request.body}`;
}

/** The id of a notification's section (also its address: /deliveries#n-<paymentId>). */
export const notificationAnchor = (paymentId: string) => `n-${paymentId}`;

/**
 * One notification: where it stands, Resend, the request once, every attempt newest first.
 * Where it stands is its latest attempt's outcome: a resend answered 200 turns it green even
 * while an older copy still waits for its retry, since that is the news a reader is after.
 */
export function notificationSection(
  view: NotificationView,
  token: string,
  checkCase: CheckCaseView | null = null,
): string {
  const id = notificationAnchor(view.paymentId);
  const latest = view.attempts[0]!;
  const copies = new Set(view.attempts.map((a) => a.copy)).size;
  const title = view.label ?? 'Payment';
  const resendForm = (
    inner: string,
    button: string,
  ) => `<form method="post" action="/deliveries/resend">
${hidden('token', token)}${hidden('paymentId', view.paymentId)}
${inner}<button type="submit">${button}</button>
</form>`;
  return `<section class="notification" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-heading">
<h3 id="${escapeHtml(id)}-heading">${escapeHtml(title)} <code>${escapeHtml(view.paymentId)}</code> <span class="status-${escapeHtml(view.paymentStatus)}">${escapeHtml(view.paymentStatus)}</span></h3>
<p class="state" data-part="${escapeHtml(id)}-state">${checkCase ? checkCaseState(checkCase) : `Latest: <span class="verdict verdict-${escapeHtml(latest.outcome)}">${OUTCOMES[latest.outcome]}</span>`} · ${view.attempts.length} attempt${view.attempts.length === 1 ? '' : 's'} in ${copies} cop${copies === 1 ? 'y' : 'ies'} · to <code>${escapeHtml(latest.url)}</code></p>
<div class="actions">
${resendForm('', 'Resend')}
</div>
<details class="break" data-key="${escapeHtml(id)}-break"><summary>Resend it broken on purpose</summary>
${resendForm(`<fieldset><legend>Faults for this resend</legend>\n${faultFields(`${id}-faults`)}\n</fieldset>\n`, 'Resend with these faults')}
</details>
<details data-key="${escapeHtml(id)}-request"><summary>Request as sent (the same bytes and signature on every attempt)</summary>
<pre class="raw">${escapeHtml(rawRequest(view))}</pre>
</details>
${scrollTable(
  `${id}-attempts`,
  `Attempts for ${escapeHtml(view.paymentId)}, newest first`,
  '<th scope="col">Answer</th><th scope="col">Outcome</th><th scope="col">Copy</th><th scope="col">Attempt</th><th scope="col">Took</th><th scope="col">Time</th><th scope="col">Next attempt</th>',
  attemptRows(shownAttempts(view, checkCase)),
)}
</section>`;
}

/** The words the live region says of an attempt: short, one line. */
export function attemptSummary(attempt: WebhookDeliveryAttempt): string {
  return `payment ${attempt.paymentId.slice(0, 8)}…, ${attempt.simulated ? 'network failure on purpose' : attempt.status !== null ? `HTTP ${attempt.status}` : 'no answer'}, ${OUTCOMES[attempt.outcome].toLowerCase()}`;
}

/** The faults armed and not yet used: replaced as a whole while the page is open. */
export function armedList(armed: ArmedFaults): string {
  const items = [
    ...(armed.next
      ? [
          `<li>The next ${armed.next.remaining} notification${armed.next.remaining === 1 ? '' : 's'}: ${escapeHtml(describeFaults(armed.next.faults))}</li>`,
        ]
      : []),
    ...armed.payments.map(
      (p) =>
        `<li>Payment <code>${escapeHtml(p.paymentId)}</code>, its next delivery: ${escapeHtml(describeFaults(p.faults))}</li>`,
    ),
  ];
  const list =
    items.length > 0
      ? `<p>Armed, not used yet:</p><ul>${items.join('\n')}</ul>`
      : '<p>Nothing armed: notifications are sent plainly.</p>';
  return `<div id="armed-faults">${list}</div>`;
}

function breakSection(context: DeliveriesPageContext): string {
  return `<section id="break" aria-labelledby="break-heading">
<h2 id="break-heading">Break it on purpose</h2>
<p>What the real service may do to a notification, done on purpose so you can see your receiver do its work once: send it twice at the same moment, send it again after your 200, lose it on the network before it reaches you (then retry), or hold it back. Arm faults for the next notifications as payments settle, or for one payment by its id; to break one already sent, use “Resend it broken on purpose” below it.</p>
${armedList(context.armed)}
<details data-key="break-form"><summary>Arm faults</summary>
<form method="post" action="/deliveries/break">
${hidden('token', context.token)}
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

function pageLinks(context: DeliveriesPageContext): string {
  if (context.pages <= 1) return '';
  const links = [
    context.page > 1
      ? `<a href="/deliveries${context.page === 2 ? '' : `?page=${context.page - 1}`}">Newer notifications</a>`
      : '',
    context.page < context.pages
      ? `<a href="/deliveries?page=${context.page + 1}">Older notifications</a>`
      : '',
  ].filter(Boolean);
  return `<nav aria-label="Pages of notifications"><p>Page ${context.page} of ${context.pages}: ${links.join(' · ')}</p></nav>`;
}

export function deliveriesPage(context: DeliveriesPageContext): string {
  const live = context.page === 1;
  const groups = context.notifications.map((view) =>
    notificationSection(view, context.token, checkCaseView(view, context.check)),
  );
  const list =
    groups.length > 0 ? groups.join('\n') : '<p id="no-deliveries">No delivery attempts yet.</p>';
  const body = `<main class="wide"${live ? ` data-events="/deliveries/events?after=${context.lastAttemptId}"` : ''}>
<h1>Webhook deliveries</h1>
<p>Each notification is PUT to ${orNone(context.webhookUrl)} until the receiver answers HTTP 200, waiting longer after each failure, with the same bytes and signature every time. Every attempt is listed with the request as sent, the answer, how long it took and, for a failure, its likely cause. The latest ${context.kept.attempts} attempts and ${context.kept.payments} payments with their notifications are kept; older ones are forgotten. <a href="/deliveries.json">JSON</a> · <a href="/">Sandbox home</a></p>
${live ? '<p class="note">This page updates by itself while it is open: new attempts appear without reloading.</p>' : ''}
<p id="deliveries-live" class="live" role="status" aria-live="polite"></p>
${breakSection(context)}
${checkSection(context.check, context.token)}
<h2 id="notifications-heading">Notifications, latest activity first</h2>
<div id="notifications">
${list}
</div>
${pageLinks(context)}
</main>`;
  return htmlDocument({
    title: 'Webhook deliveries – ServicePay sandbox',
    body,
    scripts: live ? [DELIVERIES_SCRIPT_PATH] : [],
  });
}

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
  send(res, 200, html, {
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
    write('attempt', { html, summary: attemptSummary(attempt) }, attempt.id);
  };
  const sendCheck = (announce: boolean) => {
    const state = checkState(ctx);
    const failed = state.report?.cases.filter((c) => !c.passed).length ?? 0;
    const summary = !announce
      ? ''
      : state.running
        ? 'The receiver check is running.'
        : `The receiver check has ended: ${failed === 0 ? 'every case as expected' : `${failed} cases not as expected`}.`;
    write('check', { html: checkPart(state, token), summary });
  };
  const sendArmed = () => write('section', { html: armedList(ctx.deliverer.armed()) });
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
