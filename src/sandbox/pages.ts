/** The sandbox's own pages: the index (what it is, where things are) and the deliveries log. */
import { bankPath } from './bank-page';
import { escapeHtml, formatAmount, htmlDocument, timeElement } from './html';
import type { SandboxPayment, WebhookDeliveryAttempt } from './types';

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
    ? `<div class="table-scroll"><table>
<caption>Latest payments (newest first)</caption>
<thead><tr><th scope="col">Created</th><th scope="col">Payment</th><th scope="col">Amount</th><th scope="col">Reference</th><th scope="col">Status</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`
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
<li><a href="/deliveries">Webhook deliveries</a> (also as <a href="/deliveries.json">JSON</a>)</li>
<li><a href="/.well-known/signature/pem">Public key</a> that verifies the webhook signatures</li>
<li><a href="/js">Component script</a> for plain pages, newest version (the script host: <code>/js/Service-&lt;version&gt;.min.js</code>, <code>/js/Service-0.4.css</code>, <code>/js/Service-tailwind-0.1.css</code>)</li>
<li><a href="${escapeHtml(institutionsHref)}">Institutions</a> (${context.institutionCount} banks)</li>
</ul>
<h2>Payments</h2>
${payments}
</main>`;
  return htmlDocument({ title: 'ServicePay sandbox', body });
}

export function deliveriesPage(
  attempts: readonly WebhookDeliveryAttempt[],
  webhookUrl: string | undefined,
): string {
  const rows = attempts
    .slice()
    .reverse()
    .map(
      (a) => `<tr>
<td>${timeElement(a.at)}</td>
<td><code>${escapeHtml(a.paymentId)}</code></td>
<td class="status-${escapeHtml(a.paymentStatus)}">${escapeHtml(a.paymentStatus)}</td>
<td>${a.attempt}</td>
<td>${a.status !== null ? `HTTP ${a.status}` : escapeHtml(a.error ?? '')}</td>
<td>${escapeHtml(a.outcome)}</td>
<td>${a.nextAttemptAt ? timeElement(a.nextAttemptAt) : '—'}</td>
</tr>`,
    )
    .join('\n');
  const table = rows
    ? `<div class="table-scroll"><table>
<caption>Attempts, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Payment</th><th scope="col">Status</th><th scope="col">Attempt</th><th scope="col">Answer</th><th scope="col">Outcome</th><th scope="col">Next attempt</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`
    : '<p>No delivery attempts yet.</p>';
  const body = `<main class="wide">
<h1>Webhook deliveries</h1>
<p>Each notification is sent to ${orNone(webhookUrl)} until the receiver answers HTTP 200, waiting longer after each failure. <a href="/deliveries">Refresh</a> · <a href="/deliveries.json">JSON</a> · <a href="/">Sandbox home</a></p>
${table}
</main>`;
  return htmlDocument({ title: 'Webhook deliveries – ServicePay sandbox', body });
}

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
