/**
 * The sandbox's own pages: the index (what it is, where things are) and the deliveries
 * workbench (every attempt in full, hints, Resend, break it on purpose, the receiver check).
 * Plain HTML forms that work without script; the deliveries page's one script
 * (DELIVERIES_SCRIPT, served as a file) only keeps it up to date while it is open.
 */
import { bankPath } from './bank-page';
import type { NotificationView } from './deliveries';
import { describeFaults } from './deliveries';
import { escapeHtml, formatAmount, htmlDocument, timeElement } from './html';
import { caseTitle, RECEIVER_CHECK_NOTE } from './diagnosis';
import type {
  ArmedFaults,
  DeliveryReason,
  ReceiverCheckReport,
  SandboxPayment,
  WebhookDeliveryAttempt,
} from './types';

export interface IndexPageContext {
  url: string;
  applicationId: string;
  webhookUrl: string | undefined;
  webCallbackUrl: string | undefined;
  mobileCallbackUrl: string | undefined;
  /** The payee of the sandbox's own application id (the default one unless configured). */
  merchantName: string;
  publicUrl: string | undefined;
  institutionCount: number;
  payments: readonly SandboxPayment[];
}

const orNone = (value: string | undefined): string =>
  value === undefined ? '<em>not configured</em>' : `<code>${escapeHtml(value)}</code>`;

export function indexPage(context: IndexPageContext): string {
  const institutionsHref = `/v1/institutions?environment=SANDBOX&applicationId=${encodeURIComponent(context.applicationId)}`;
  const rows = context.payments
    .slice(-50)
    .reverse()
    .map(
      (p) => `<tr>
<td>${timeElement(p.createdAt)}</td>
<td><a href="${escapeHtml(bankPath(p.paymentId))}"><code>${escapeHtml(p.paymentId)}</code></a></td>
<td>${escapeHtml(formatAmount(p.amount))}</td>
<td>${escapeHtml(p.reference)}</td>
<td class="status-${escapeHtml(p.status)}">${escapeHtml(p.status)}</td>
</tr>`,
    )
    .join('\n');
  const payments = rows
    ? scrollTable(
        'payments',
        'Latest payments (newest first)',
        '<th scope="col">Created</th><th scope="col">Payment</th><th scope="col">Amount</th><th scope="col">Reference</th><th scope="col">Status</th>',
        rows,
      )
    : '<p>No payments yet.</p>';
  const body = `<main class="wide">
<h1>ServicePay sandbox</h1>
<p>A local simulator of the ServicePay service: it lists banks, creates payments, shows each payment's bank page (Approve, Reject, Bank error), redirects the shopper back, and sends signed webhook notifications. Nothing leaves this machine and no money moves.</p>
<h2>Configuration</h2>
<dl class="summary">
<div><dt>Base URL (the component's <code>baseUrl</code>)</dt><dd><code>${escapeHtml(context.url)}</code></dd></div>
<div><dt>Application id (any UUID is accepted)</dt><dd><code>${escapeHtml(context.applicationId)}</code></dd></div>
<div><dt>Webhook URL</dt><dd>${orNone(context.webhookUrl)}</dd></div>
<div><dt>Web callback URL</dt><dd>${orNone(context.webCallbackUrl)}</dd></div>
<div><dt>Mobile callback URL</dt><dd>${orNone(context.mobileCallbackUrl)}</dd></div>
<div><dt>Payee on the bank page</dt><dd>${escapeHtml(context.merchantName)}</dd></div>
<div><dt>Public URL (another host name answered)</dt><dd>${orNone(context.publicUrl)}</dd></div>
</dl>
<h2>Pages and endpoints</h2>
<ul>
<li><a href="/deliveries">Webhook deliveries</a>: every attempt in full, Resend, break it on purpose, the receiver check (also as <a href="/deliveries.json">JSON</a>)</li>
<li><a href="/.well-known/signature/pem">Public key</a> that verifies the webhook signatures</li>
<li><a href="/js">Component script</a> for plain pages, newest version (the script host: <code>/js/Service-&lt;version&gt;.min.js</code>, <code>/js/Service-0.4.css</code>, <code>/js/Service-tailwind-0.1.css</code>)</li>
<li><a href="${escapeHtml(institutionsHref)}">Institutions</a> (${context.institutionCount} banks)</li>
</ul>
<h2>Payments</h2>
${payments}
</main>`;
  return htmlDocument({ title: 'ServicePay sandbox', body });
}

/**
 * A table in a container that scrolls sideways on a narrow screen. The container is a named
 * region that takes focus, so a keyboard user can scroll it too (axe:
 * scrollable-region-focusable).
 */
function scrollTable(id: string, caption: string, headers: string, rows: string): string {
  return `<div class="table-scroll" role="region" tabindex="0" aria-labelledby="${escapeHtml(id)}-caption" data-part="${escapeHtml(id)}">
<table>
<caption id="${escapeHtml(id)}-caption">${caption}</caption>
<thead><tr>${headers}</tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`;
}

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
  /** Attempts kept at most (deliveryHistory). */
  history: number;
  armed: ArmedFaults;
  check: CheckState;
  /** The latest attempt's id when the page was made: its event stream starts after it. */
  lastAttemptId: number;
}

export interface CheckState {
  running: boolean;
  report: ReceiverCheckReport | null;
  /** Whether there is a webhook URL to check. */
  available: boolean;
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
export function notificationSection(view: NotificationView, token: string): string {
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
<p class="state" data-part="${escapeHtml(id)}-state">Latest: <span class="verdict verdict-${escapeHtml(latest.outcome)}">${OUTCOMES[latest.outcome]}</span> · ${view.attempts.length} attempt${view.attempts.length === 1 ? '' : 's'} in ${copies} cop${copies === 1 ? 'y' : 'ies'} · to <code>${escapeHtml(latest.url)}</code></p>
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
  attemptRows(view.attempts),
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

/** The receiver check's form and last report: replaced as a whole while the page is open. */
export function checkPart(state: CheckState, token: string): string {
  const button = !state.available
    ? '<p>The receiver check needs a webhook URL: start the sandbox with <code>--webhook-url</code>.</p>'
    : state.running
      ? '<p><strong>The receiver check is running…</strong> Its report appears here when it ends.</p>'
      : `<form method="post" action="/deliveries/check">${hidden('token', token)}<button type="submit" class="primary" id="run-receiver-check">Run the receiver check</button></form>`;
  const { report } = state;
  let result = '';
  if (report !== null) {
    const failed = report.cases.filter((c) => !c.passed).length;
    const rows = report.cases
      .map(
        (c) => `<tr class="${c.passed ? 'passed' : 'failed'}">
<th scope="row">${escapeHtml(caseTitle(c.name))}<br><code>${escapeHtml(c.paymentId)}</code></th>
<td>${escapeHtml(c.description)}</td>
<td>${escapeHtml(c.expected)}</td>
<td>${c.copies.map((copy) => `copy ${copy.copy}: ${escapeHtml(copy.answers.join(' → '))}`).join('<br>')}</td>
<td><strong class="verdict verdict-${c.passed ? 'delivered' : 'gave-up'}">${c.passed ? 'As expected' : 'Not as expected'}</strong> ${escapeHtml(c.verdict)}</td>
</tr>`,
      )
      .join('\n');
    result = `${scrollTable(
      'receiver-check-report',
      `Receiver check of ${escapeHtml(report.url)}, ${timeElement(report.startedAt)}: ${failed === 0 ? 'every case as expected' : `${failed} of ${report.cases.length} cases not as expected`}`,
      '<th scope="col">Case</th><th scope="col">What the sandbox did</th><th scope="col">Expected</th><th scope="col">Answers</th><th scope="col">Result</th>',
      rows,
    )}
<p class="note">${escapeHtml(report.note)}</p>`;
  }
  return `<div id="receiver-check-result" data-part="receiver-check-result">
${button}
${result}
</div>`;
}

function checkSection(context: DeliveriesPageContext): string {
  return `<section id="receiver-check" aria-labelledby="receiver-check-heading">
<h2 id="receiver-check-heading">Receiver check</h2>
<p>Sends one signed notification per case to the webhook URL, one case after another: delivered once; twice at once; again after a 200; two network failures first; delayed a second; a forged signature. Then shows what your receiver answered to each. ${escapeHtml(RECEIVER_CHECK_NOTE)}</p>
${checkPart(context.check, context.token)}
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
  const groups = context.notifications.map((view) => notificationSection(view, context.token));
  const list =
    groups.length > 0 ? groups.join('\n') : '<p id="no-deliveries">No delivery attempts yet.</p>';
  const body = `<main class="wide"${live ? ` data-events="/deliveries/events?after=${context.lastAttemptId}"` : ''}>
<h1>Webhook deliveries</h1>
<p>Each notification is PUT to ${orNone(context.webhookUrl)} until the receiver answers HTTP 200, waiting longer after each failure, with the same bytes and signature every time. Every attempt is listed with the request as sent, the answer, how long it took and, for a failure, its likely cause. The latest ${context.history} attempts are kept. <a href="/deliveries.json">JSON</a> · <a href="/">Sandbox home</a></p>
${live ? '<p class="note">This page updates by itself while it is open: new attempts appear without reloading.</p>' : ''}
<p id="deliveries-live" class="live" role="status" aria-live="polite"></p>
${breakSection(context)}
${checkSection(context)}
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

/** Where the deliveries page's script is served (a file: the page's CSP allows 'self' only). */
export const DELIVERIES_SCRIPT_PATH = '/assets/deliveries.js';
export function messagePage(title: string, message: string): string {
  return htmlDocument({
    title: `${title} – ServicePay sandbox`,
    body: `<main>
<div class="card">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/">Sandbox home</a></p>
</div>
</main>`,
  });
}
