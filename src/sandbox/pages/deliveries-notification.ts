/**
 * One notification on the deliveries page: where it stands, Resend (plain or broken on
 * purpose), the request as sent, and every attempt with its answer and, for a failure, its
 * likely cause. Also what the page's live region says of an attempt.
 */
import { isRefusal } from '../deliveries/attempt-log';
import { checkCaseState, shownAttempts } from './receiver-check-page';
import type { CheckCaseView } from './receiver-check-page';
import type { NotificationView } from '../deliveries/deliverer';
import { html, joinHtml } from './html';
import type { Html } from './html';
import { STACK_COLUMNS, scrollTable, timeElement } from './page';
import type { DeliveryReason, WebhookDeliveryAttempt, WebhookRequestRecord } from '../api/types';

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

/** A form's hidden field. */
export const hidden = (name: string, value: string): Html =>
  html`<input type="hidden" name="${name}" value="${value}">`;

/** The fault fields of a form; `prefix` keeps their ids unique on the page. */
export function faultFields(prefix: string): Html {
  const id = (name: string) => `${prefix}-${name}`;
  return html`<div class="field check"><input type="checkbox" name="twiceAtOnce" id="${id('twice')}"><label for="${id('twice')}">Twice at once: two copies at the same moment</label></div>
<div class="field check"><input type="checkbox" name="lateResend" id="${id('late')}"><label for="${id('late')}">Again after a 200 (a late resend)</label></div>
<div class="field"><label for="${id('late-ms')}">Late resend after (ms)</label><input type="number" inputmode="numeric" name="lateResendMs" id="${id('late-ms')}" min="0" step="1" value="1000"></div>
<div class="field"><label for="${id('failures')}">Network failures before it reaches the receiver</label><input type="number" inputmode="numeric" name="networkFailures" id="${id('failures')}" min="0" max="1000" step="1" value="0"></div>
<div class="field"><label for="${id('delay')}">Delay before the first attempt (ms)</label><input type="number" inputmode="numeric" name="delayMs" id="${id('delay')}" min="0" step="1" value="0"></div>`;
}

/** "HTTP 401", "Connection refused…", "network failure (on purpose)". */
function answerCell(attempt: WebhookDeliveryAttempt, sameCauseAsAbove: boolean): Html {
  const answer = attempt.simulated
    ? 'Network failure (on purpose)'
    : attempt.status !== null
      ? `HTTP ${attempt.status}`
      : (attempt.error ?? '');
  const { hint } = attempt;
  let hintHtml: Html | null = null;
  if (hint !== null) {
    hintHtml = sameCauseAsAbove
      ? html`<p class="hint">Same likely cause as the attempt above.</p>`
      : html`<p class="hint"><strong>Likely cause:</strong> ${hint.text}${
          hint.docs && html` <a href="${hint.docs}">Troubleshooting: genuine deliveries get 401</a>`
        }</p>`;
  }
  let body: Html | null = null;
  if (attempt.responseText) {
    const text = html`<pre class="raw">${attempt.responseText}</pre>`;
    // A receiver that failed says why in its answer: shown at once, not folded away.
    body =
      hint?.cause === 'handler-failed'
        ? html`<p class="label">The receiver answered:</p>${text}`
        : html`<details data-key="answer-${attempt.id}"><summary>Answer body</summary>${text}</details>`;
  }
  return html`<strong>${answer}</strong>${hintHtml}${body}`;
}

/**
 * The attempts' rows, the answer first: on a phone, where each row is a block, it is what a
 * reader sees first.
 */
function attemptRows(
  attempts: readonly WebhookDeliveryAttempt[],
  checkCase: CheckCaseView | null,
  several: boolean,
): Html {
  const rows = attempts.map((a, i) => {
    const above = attempts[i - 1];
    const same = above?.hint != null && a.hint != null && above.hint.cause === a.hint.cause;
    return html`<tr class="outcome-${a.outcome}">
<td class="answer">${answerCell(a, same)}</td>
<td>${checkCase?.spec.forged && isRefusal(a.status) ? 'refused, as the case expects' : a.outcome}</td>
<td>${several && `${a.paymentStatus} · `}${a.copy} · ${REASONS[a.reason]}</td>
<td>${a.attempt}</td>
<td>${a.simulated ? '—' : `${a.durationMs} ms`}</td>
<td>${timeElement(a.at)}</td>
<td>${a.nextAttemptAt ? timeElement(a.nextAttemptAt) : '—'}</td>
</tr>`;
  });
  return joinHtml(rows, html`\n`);
}

/** The request as sent, as a reader would write it: request line, headers, blank line, body. */
function rawRequest(request: WebhookRequestRecord): string {
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
): Html {
  const id = notificationAnchor(view.paymentId);
  const latest = view.attempts[0]!;
  // A payment sends one notification per status it reaches (PENDING, then COMPLETED…).
  const statuses = [...new Set(view.attempts.map((a) => a.paymentStatus).reverse())].map(
    (status) => html`<span class="status-${status}">${status}</span>`,
  );
  const several = statuses.length > 1;
  const copies = new Set(view.attempts.map((a) => a.copy)).size;
  const title = view.label ?? 'Payment';
  const resendForm = (
    inner: Html | null,
    button: string,
  ) => html`<form method="post" action="/deliveries/resend">
${hidden('token', token)}${hidden('paymentId', view.paymentId)}
${inner}<button type="submit">${button}</button>
</form>`;
  const state = checkCase
    ? checkCaseState(checkCase)
    : html`Latest: <span class="verdict verdict-${latest.outcome}">${OUTCOMES[latest.outcome]}</span>`;
  return html`<section class="notification" id="${id}" aria-labelledby="${id}-heading">
<h3 id="${id}-heading">${title} <code>${view.paymentId}</code> ${joinHtml(statuses, html` → `)}</h3>
<p class="state" data-part="${id}-state">${state} · ${view.attempts.length} attempt${view.attempts.length === 1 ? '' : 's'} in ${copies} cop${copies === 1 ? 'y' : 'ies'} · to <code>${latest.url}</code></p>
<div class="actions">
${resendForm(null, 'Resend')}
</div>
<details class="break" data-key="${id}-break"><summary>Resend it broken on purpose</summary>
${resendForm(html`<fieldset><legend>Faults for this resend</legend>\n${faultFields(`${id}-faults`)}\n</fieldset>\n`, 'Resend with these faults')}
</details>
<details data-key="${id}-request"><summary>${several && `${view.paymentStatus} `}Request as sent (the same bytes and signature on every attempt)</summary>
<pre class="raw">${rawRequest(view.request)}</pre>
</details>
${scrollTable(
  `${id}-attempts`,
  `Attempts for ${view.paymentId}, newest first`,
  STACK_COLUMNS.attempts,
  attemptRows(shownAttempts(view, checkCase), checkCase, several),
  { stack: 'attempts' },
)}
</section>`;
}

/** The words the live region says of an attempt: short, one line. */
export function attemptSummary(attempt: WebhookDeliveryAttempt): string {
  return `payment ${attempt.paymentId.slice(0, 8)}…, ${attempt.simulated ? 'network failure on purpose' : attempt.status !== null ? `HTTP ${attempt.status}` : 'no answer'}, ${OUTCOMES[attempt.outcome].toLowerCase()}`;
}
