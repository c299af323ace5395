/**
 * The sandbox's home page: what the sandbox is, its configuration, its pages and endpoints, the
 * latest payments.
 */
import type { ServerResponse } from 'node:http';
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
import type { ResolvedOptions } from '../options';
import type { PaymentStore } from '../payment-store';
import type { SandboxPayment } from '../types';

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
  /** The names of the banks listed as unavailable (shown, not payable). */
  unavailableInstitutions: readonly string[];
  payments: readonly SandboxPayment[];
}

export function indexPage(context: IndexPageContext): Html {
  const institutionsHref = `/v1/institutions?environment=SANDBOX&applicationId=${encodeURIComponent(context.applicationId)}`;
  const rows = context.payments
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
  const unavailable =
    context.unavailableInstitutions.length > 0 &&
    html`; unavailable, shown but not payable: ${context.unavailableInstitutions.join(', ')}`;
  const payments =
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
<p>A local simulator of the ServicePay service: it lists banks, creates payments, shows each payment's bank page (Approve, Reject, Bank error), redirects the shopper back, and sends signed webhook notifications. Nothing leaves this machine and no money moves.</p>
<h2>Configuration</h2>
<dl class="summary">
<div><dt>Base URL (the component's <code>baseUrl</code>)</dt><dd><code>${context.url}</code></dd></div>
<div><dt>Application id (any UUID is accepted)</dt><dd><code>${context.applicationId}</code></dd></div>
<div><dt>Webhook URL</dt><dd>${orNone(context.webhookUrl)}</dd></div>
<div><dt>Web callback URL</dt><dd>${orNone(context.webCallbackUrl)}</dd></div>
<div><dt>Mobile callback URL</dt><dd>${orNone(context.mobileCallbackUrl)}</dd></div>
<div><dt>Payee on the bank page</dt><dd>${context.merchantName}</dd></div>
<div><dt>Public URL (another host name answered)</dt><dd>${orNone(context.publicUrl)}</dd></div>
</dl>
<h2>Pages and endpoints</h2>
<ul>
<li><a href="/deliveries">Webhook deliveries</a>: every attempt in full, Resend, break it on purpose, the receiver check (also as <a href="/deliveries.json">JSON</a>)</li>
<li><a href="/.well-known/signature/pem">Public key</a> that verifies the webhook signatures; <a href="/keys">Signing key</a>: rehearse a key rotation</li>
<li><a href="/js">Component script</a> for plain pages, newest version (the script host: <code>/js/Service-&lt;version&gt;.min.js</code>, <code>/js/Service-0.4.css</code>, <code>/js/Service-tailwind-0.1.css</code>)</li>
<li><a href="${institutionsHref}">Institutions</a> (${context.institutionCount} banks${unavailable})</li>
</ul>
<h2>Payments</h2>
${payments}
</main>`;
  return htmlDocument({ title: 'ServicePay sandbox', body });
}

export function showIndex(
  res: ServerResponse,
  { options, applicationId, baseUrl, payments }: IndexParts,
): void {
  sendPage(
    res,
    200,
    indexPage({
      url: baseUrl(),
      applicationId,
      webhookUrl: options.webhookUrl?.href,
      webCallbackUrl: options.webCallbackUrl?.href,
      mobileCallbackUrl: options.mobileCallbackUrl?.href,
      merchantName: options.merchantNameFor(applicationId),
      publicUrl: options.publicUrl?.origin,
      institutionCount: options.institutions.size,
      unavailableInstitutions: [...options.institutions.values()]
        .filter((institution) => !institution.available)
        .map((institution) => institution.name),
      payments: payments.list(),
    }),
    options,
  );
}
