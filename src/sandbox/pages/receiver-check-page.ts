/**
 * The receiver check on the deliveries page: its form and last report, and its deliveries shown
 * as what they are, cases of the check with their verdicts. The forged case's 401 is the check
 * passing; drawn as a delivery that "gave up" with a hint about parsed bodies, it read as the
 * very failure it rules out.
 */
import { RECEIVER_CHECK_NOTE, caseSpec } from '../deliveries/receiver-check';
import type { CaseSpec } from '../deliveries/receiver-check';
import type { NotificationView } from '../deliveries/deliverer';
import { html, joinHtml } from './html';
import type { Html } from './html';
import { STACK_COLUMNS, scrollTable, timeElement } from './page';
import type { ReceiverCheckReport, WebhookDeliveryAttempt } from '../api/types';

export interface CheckState {
  running: boolean;
  report: ReceiverCheckReport | null;
  /** Whether there is a webhook URL to check. */
  available: boolean;
}

export interface CheckCaseView {
  spec: CaseSpec;
  /** `running` while the check that sent it has not judged it yet. */
  state: 'passed' | 'failed' | 'running';
  verdict: string;
}

/** The check's case a notification belongs to (its body says, as the check wrote it), or null. */
function caseOf(view: NotificationView): CaseSpec | null {
  try {
    const { paymentMetadata: metadata } = JSON.parse(view.request.body) as {
      paymentMetadata?: { source?: unknown; case?: unknown } | null;
    };
    return metadata?.source === 'receiver-check' ? (caseSpec(metadata.case) ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * A check case and its verdict: the last report's, or, for a case of an earlier check, judged
 * again from the attempts kept (the same judge as the report's).
 */
export function checkCaseView(
  view: NotificationView,
  check: { running: boolean; report: ReceiverCheckReport | null },
): CheckCaseView | null {
  const spec = caseOf(view);
  if (spec === null) return null;
  const reported = check.report?.cases.find((c) => c.paymentId === view.paymentId);
  if (reported) {
    return { spec, state: reported.passed ? 'passed' : 'failed', verdict: reported.verdict };
  }
  const copies = new Map<number, WebhookDeliveryAttempt[]>();
  for (const attempt of [...view.attempts].reverse()) {
    copies.set(attempt.copy, [...(copies.get(attempt.copy) ?? []), attempt]);
  }
  const waiting = [...copies.values()].some((copy) => copy.at(-1)!.outcome === 'retrying');
  // A case of the check under way (sent after the last report) waits for its verdict too.
  const { report } = check;
  const underWay = check.running && (report === null || view.attempts[0]!.at > report.finishedAt);
  if (waiting || underWay) {
    return {
      spec,
      state: 'running',
      verdict: 'The receiver check is running: its verdict follows.',
    };
  }
  const { passed, verdict } = spec.judge([...copies.values()]);
  return { spec, state: passed ? 'passed' : 'failed', verdict };
}

const VERDICTS = { passed: 'As expected', failed: 'Not as expected', running: 'Running' };
const CLASSES = { passed: 'delivered', failed: 'gave-up', running: 'retrying' };

/** Where a check case stands, in place of "Latest: Gave up": the case, expected, verdict. */
export function checkCaseState(c: CheckCaseView): Html {
  return html`Receiver check case “${c.spec.title}”, expected: ${c.spec.expected} <span class="verdict verdict-${CLASSES[c.state]}">${VERDICTS[c.state]}</span> ${c.verdict}`;
}

/** The attempts as shown: a forged case's refusal hinted as the answer wanted, not a failure. */
export function shownAttempts(
  view: NotificationView,
  c: CheckCaseView | null,
): WebhookDeliveryAttempt[] {
  if (!c?.spec.forged) return view.attempts;
  return view.attempts.map((a) =>
    a.hint?.cause === 'signature'
      ? { ...a, hint: { ...a.hint, text: FORGED_HINT, docs: null } }
      : a,
  );
}

const FORGED_HINT =
  'Forged on purpose by the receiver check, with a signature over other bytes: refusing it is the right answer.';

/** The receiver check's form and last report: replaced as a whole while the page is open. */
export function checkPart(state: CheckState, token: string): Html {
  const button = !state.available
    ? html`<p>The receiver check needs a webhook URL: start the sandbox with <code>--webhook-url</code>.</p>`
    : state.running
      ? html`<p><strong>The receiver check is running…</strong> Its report appears here when it ends.</p>`
      : html`<form method="post" action="/deliveries/check"><input type="hidden" name="token" value="${token}"><button type="submit" class="primary" id="run-receiver-check">Run the receiver check</button></form>`;
  const { report } = state;
  let result: Html | null = null;
  if (report !== null) {
    const failed = report.cases.filter((c) => !c.passed).length;
    const rows = report.cases.map(
      (c) => html`<tr class="${c.passed ? 'passed' : 'failed'}">
<th scope="row">${caseSpec(c.name)?.title ?? c.name}<br><code>${c.paymentId}</code></th>
<td>${c.description}</td>
<td>${c.expected}</td>
<td>${joinHtml(
        c.copies.map((copy) => html`copy ${copy.copy}: ${copy.answers.join(' → ')}`),
        html`<br>`,
      )}</td>
<td><strong class="verdict verdict-${c.passed ? 'delivered' : 'gave-up'}">${c.passed ? 'As expected' : 'Not as expected'}</strong> ${c.verdict}</td>
</tr>`,
    );
    result = html`${scrollTable(
      'receiver-check-report',
      html`Receiver check of ${report.url}, ${timeElement(report.startedAt)}: ${failed === 0 ? 'every case as expected' : `${failed} of ${report.cases.length} cases not as expected`}`,
      STACK_COLUMNS.check,
      joinHtml(rows, html`\n`),
      { stack: 'check' },
    )}
<p class="note">${report.note}</p>`;
  }
  return html`<div id="receiver-check-result" data-part="receiver-check-result">
${button}
${result}
</div>`;
}

export function checkSection(check: CheckState, token: string): Html {
  return html`<section id="receiver-check" aria-labelledby="receiver-check-heading">
<h2 id="receiver-check-heading">Receiver check</h2>
<p>Sends one signed notification per case to the webhook URL, one case after another: delivered once; twice at once; again after a 200; two network failures first; delayed a second; a forged signature. Then shows what your receiver answered to each. ${RECEIVER_CHECK_NOTE}</p>
${checkPart(check, token)}
</section>`;
}
