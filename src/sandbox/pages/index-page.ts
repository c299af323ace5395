/**
 * The sandbox's home page: what the sandbox is, its configuration, its pages and endpoints, the
 * latest payments.
 */
import type { ServerResponse } from 'node:http';
import { PUBLIC_KEY_PATH } from '../../core/index';
import { html, joinHtml } from './html';
import type { Html } from './html';
import {
  bankPath,
  formatAmount,
  htmlDocument,
  orNone,
  scrollTable,
  sendPage,
  timeElement,
} from './page';
import type { ResolvedOptions } from '../api/options';
import type { PaymentStore } from '../payments/store';

/** What the home page's route uses of a running sandbox. */
export interface IndexParts {
  options: Pick<
    ResolvedOptions,
    | 'webhookUrl'
    | 'webCallbackUrl'
    | 'mobileCallbackUrl'
    | 'merchantNameFor'
    | 'publicUrl'
    | 'institutions'
  >;
  applicationId: string;
  baseUrl(): string;
  payments: Pick<PaymentStore, 'list'>;
}

export function indexPage({ options, applicationId, baseUrl, payments }: IndexParts): Html {
  const institutionsHref = `/v1/institutions?environment=SANDBOX&applicationId=${encodeURIComponent(applicationId)}`;
  const rows = payments
    .list()
    .slice(-50)
    .reverse()
    .map(
      (p) => html`<tr>
<td>${timeElement(p.createdAt)}</td>
<td><a href="${bankPath(p.paymentId)}"><code>${p.paymentId}</code></a></td>
<td>${formatAmount(p.amount)}</td>
<td>${p.reference}</td>
<td class="status-${p.status}">${p.status}</td>
</tr>`,
    );
  const banks = [...options.institutions.values()];
  const unavailable = banks.filter((institution) => !institution.available);
  const listed =
    unavailable.length > 0 &&
    html`; unavailable, shown but not payable: ${unavailable.map((bank) => bank.name).join(', ')}`;
  const latest =
    rows.length > 0
      ? scrollTable(
          'payments',
          'Latest payments (newest first)',
          ['Created', 'Payment', 'Amount', 'Reference', 'Status'],
          joinHtml(rows, html`\n`),
        )
      : html`<p>No payments yet.</p>`;
  const body = html`<main class="wide">
<h1>ServicePay sandbox</h1>
<p>A local simulator of the ServicePay service: it lists banks, creates payments, shows each payment's bank page (Approve, Reject, Bank error, and slow or lost payments), redirects the shopper back, and sends signed webhook notifications. Nothing leaves this machine and no money moves.</p>
<h2>Configuration</h2>
<dl class="summary">
<div><dt>Base URL (the component's <code>baseUrl</code>)</dt><dd><code>${baseUrl()}</code></dd></div>
<div><dt>Application id (any UUID is accepted)</dt><dd><code>${applicationId}</code></dd></div>
<div><dt>Webhook URL</dt><dd>${orNone(options.webhookUrl?.href)}</dd></div>
<div><dt>Web callback URL</dt><dd>${orNone(options.webCallbackUrl?.href)}</dd></div>
<div><dt>Mobile callback URL</dt><dd>${orNone(options.mobileCallbackUrl?.href)}</dd></div>
<div><dt>Payee on the bank page</dt><dd>${options.merchantNameFor(applicationId)}</dd></div>
<div><dt>Public URL (another host name answered)</dt><dd>${orNone(options.publicUrl?.origin)}</dd></div>
</dl>
<h2>Pages and endpoints</h2>
<ul>
<li><a href="/deliveries">Webhook deliveries</a>: every attempt in full, Resend, break it on purpose, the receiver check (also as <a href="/deliveries.json">JSON</a>)</li>
<li><a href="${PUBLIC_KEY_PATH}">Public key</a> that verifies the webhook signatures; <a href="/keys">Signing key</a>: rehearse a key rotation</li>
<li><a href="/js">Component script</a> for plain pages, newest version (the script host: <code>/js/Service-&lt;version&gt;.min.js</code>, <code>/js/Service-0.4.css</code>, <code>/js/Service-tailwind-0.1.css</code>)</li>
<li><a href="${institutionsHref}">Institutions</a> (${banks.length} banks${listed})</li>
</ul>
<h2>Payments</h2>
${latest}
</main>`;
  return htmlDocument({ title: 'ServicePay sandbox', body });
}

export function showIndex(res: ServerResponse, parts: IndexParts): void {
  sendPage(res, 200, indexPage(parts), parts.options);
}
