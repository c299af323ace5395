/**
 * The sandbox's own pages and what they share: the HTML building blocks, the pages' CSP, the
 * index page (what the sandbox is, its configuration, the latest payments), the message page,
 * and the files the pages load (the stylesheet, the deliveries page's script). The bank page
 * (bank-page.ts) and the deliveries page (deliveries-page.ts) are built from these.
 *
 * Everything that is not a literal of these files goes through escapeHtml: references,
 * metadata and merchant ids are shopper- or merchant-supplied and end up in pages a browser
 * renders.
 */
import type { ServerResponse } from 'node:http';
import { send } from './http';
import type { SandboxContext } from './service';
import type { SandboxPayment } from './types';

/** Path of the stylesheet every page links (a file, so the CSP needs no inline style). */
export const STYLESHEET_PATH = '/assets/sandbox.css';
/** Where the deliveries page's script is served (a file: the page's CSP allows 'self' only). */
export const DELIVERIES_SCRIPT_PATH = '/assets/deliveries.js';

/** A payment's bank page (bank-page.ts), linked from the index and handed out by the API. */
export function bankPath(paymentId: string): string {
  return `/bank/${encodeURIComponent(paymentId)}`;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** The same five characters are the ones that matter in XML (the SVG icons). */
export const escapeXml = escapeHtml;

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12.5 → "£12.50". */
export function formatAmount(amount: number): string {
  return POUNDS.format(amount);
}

export interface PageParts {
  /** The document title (plain text). */
  title: string;
  /** The body's inner HTML, already escaped where needed. */
  body: string;
  /** Same-origin scripts to load (deferred); most pages have none. */
  scripts?: readonly string[];
}

/** A complete document: language, viewport, title, the stylesheet. */
export function htmlDocument({ title, body, scripts = [] }: PageParts): string {
  const scriptTags = scripts
    .map((src) => `\n<script src="${escapeHtml(src)}" defer></script>`)
    .join('');
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">${scriptTags}
</head>
<body>
${body}
</body>
</html>
`;
}

/** An ISO time shown as "2025-01-31 14:03:07.123" (UTC: the same on every machine and in logs). */
export function timeElement(iso: string): string {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime())
    ? iso
    : date.toISOString().replace('T', ' ').slice(0, 23);
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(text)} UTC</time>`;
}

/**
 * The Content-Security-Policy of the sandbox's pages: nothing inline, nothing from elsewhere,
 * and no script except on the page that asks for its own (the deliveries page).
 * form-action also lists the callbacks, because browsers apply it to the redirect that follows
 * the bank page's form (Chrome blocks the 303 to the merchant otherwise).
 */
export function pageCsp(
  callbacks: readonly (URL | undefined)[],
  { script = false }: { script?: boolean } = {},
): string {
  const targets = new Set<string>(["'self'"]);
  for (const url of callbacks) {
    if (url === undefined) continue;
    // An app scheme (myapp://paid) has no origin; a scheme source allows it.
    targets.add(url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol);
  }
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    // The deliveries page's script and its event stream: this origin's files, nothing inline.
    ...(script ? ["script-src 'self'", "connect-src 'self'"] : []),
    `form-action ${[...targets].join(' ')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Answers a page under the pages' CSP, whose form-action allows the configured callbacks. */
export function sendPage(
  res: ServerResponse,
  status: number,
  html: string,
  ctx: SandboxContext,
  headers: Record<string, string> = {},
): void {
  send(res, status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp([ctx.options.webCallbackUrl, ctx.options.mobileCallbackUrl]),
    ...headers,
  });
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

/**
 * A table in a container that scrolls sideways on a narrow screen. The container is a named
 * region that takes focus, so a keyboard user can scroll it too (axe:
 * scrollable-region-focusable).
 */
export function scrollTable(id: string, caption: string, headers: string, rows: string): string {
  return `<div class="table-scroll" role="region" tabindex="0" aria-labelledby="${escapeHtml(id)}-caption" data-part="${escapeHtml(id)}">
<table>
<caption id="${escapeHtml(id)}-caption">${caption}</caption>
<thead><tr>${headers}</tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`;
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

export const orNone = (value: string | undefined): string =>
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
  const unavailable =
    context.unavailableInstitutions.length === 0
      ? ''
      : `; unavailable, shown but not payable: ${escapeHtml(context.unavailableInstitutions.join(', '))}`;
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
<li><a href="/.well-known/signature/pem">Public key</a> that verifies the webhook signatures; <a href="/keys">Signing key</a>: rehearse a key rotation</li>
<li><a href="/js">Component script</a> for plain pages, newest version (the script host: <code>/js/Service-&lt;version&gt;.min.js</code>, <code>/js/Service-0.4.css</code>, <code>/js/Service-tailwind-0.1.css</code>)</li>
<li><a href="${escapeHtml(institutionsHref)}">Institutions</a> (${context.institutionCount} banks${unavailable})</li>
</ul>
<h2>Payments</h2>
${payments}
</main>`;
  return htmlDocument({ title: 'ServicePay sandbox', body });
}

export function showIndex(res: ServerResponse, ctx: SandboxContext): void {
  const { options } = ctx;
  sendPage(
    res,
    200,
    indexPage({
      url: ctx.baseUrl(),
      applicationId: ctx.applicationId,
      webhookUrl: options.webhookUrl?.href,
      webCallbackUrl: options.webCallbackUrl?.href,
      mobileCallbackUrl: options.mobileCallbackUrl?.href,
      merchantName: options.merchantNameFor(ctx.applicationId),
      publicUrl: options.publicUrl?.origin,
      institutionCount: options.institutions.size,
      unavailableInstitutions: [...options.institutions.values()]
        .filter((institution) => !institution.available)
        .map((institution) => institution.name),
      payments: ctx.payments.list(),
    }),
    ctx,
  );
}

/**
 * The files the sandbox's pages load: the one stylesheet, and the deliveries page's script.
 * Served as files so the pages' CSP can forbid inline styles and scripts altogether. Colours
 * meet WCAG AA (text ≥ 4.5:1) in light and dark.
 */
export const SANDBOX_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f4f5f7;
  --surface: #ffffff;
  --text: #1b1f24;
  --muted: #4a5260;
  --border: #c4c9d1;
  --primary: #0b5d2a;
  --primary-text: #ffffff;
  --danger: #a4161a;
  --focus: #1d4ed8;
  --badge-bg: #fff3bf;
  --badge-text: #5c3c00;
  --warning: #7a4a00;
  --failed-bg: #fdecec;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418;
    --surface: #1b2027;
    --text: #eef1f5;
    --muted: #b4bcc8;
    --border: #4a5361;
    --primary: #3ddc84;
    --primary-text: #04210f;
    --danger: #ff8a8a;
    --focus: #8ab4ff;
    --badge-bg: #4a3b00;
    --badge-text: #ffe58a;
    --warning: #ffd27a;
    --failed-bg: #3a1c1f;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--focus); }
.bank-bar {
  display: flex; align-items: center; gap: 0.75rem;
  padding: 0.75rem 1rem; background: var(--surface); border-bottom: 1px solid var(--border);
}
.bank-bar img { border-radius: 8px; }
.bank-name { font-weight: 700; font-size: 1.125rem; }
.badge {
  margin-left: auto; padding: 0.125rem 0.5rem; border-radius: 999px;
  background: var(--badge-bg); color: var(--badge-text); font-size: 0.875rem; font-weight: 600;
}
main { max-width: 36rem; margin: 1.5rem auto; padding: 0 1rem; }
main.wide { max-width: 72rem; }
.card {
  background: var(--surface); border: 1px solid var(--border); border-radius: 12px;
  padding: 1.25rem 1.5rem;
}
h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
.lead { font-size: 1.125rem; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
.summary { margin: 1rem 0; display: grid; gap: 0.5rem; }
.summary div { display: flex; justify-content: space-between; gap: 1rem; border-bottom: 1px solid var(--border); padding-bottom: 0.5rem; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
.amount { font-size: 1.25rem; }
fieldset { border: 0; padding: 0; margin: 1.25rem 0 0; }
legend { font-weight: 600; margin-bottom: 0.5rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button, .button {
  font: inherit; font-weight: 600; min-height: 44px; padding: 0.5rem 1.25rem;
  border-radius: 8px; border: 2px solid var(--border); background: var(--surface); color: var(--text);
  cursor: pointer; text-decoration: none; display: inline-flex; align-items: center;
}
button.primary, .button.primary { background: var(--primary); border-color: var(--primary); color: var(--primary-text); }
button.danger { color: var(--danger); border-color: var(--danger); }
button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.note { color: var(--muted); font-size: 0.9375rem; }
.status-COMPLETED { color: var(--primary); }
.status-FAILED { color: var(--danger); }
table { border-collapse: collapse; width: 100%; font-size: 0.9375rem; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.5rem; }
th, td { text-align: left; padding: 0.375rem 0.5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
td code, dd code { overflow-wrap: anywhere; }
.table-scroll { overflow-x: auto; }
.table-scroll:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.notification { border-top: 2px solid var(--border); margin-top: 1.5rem; padding-top: 0.5rem; }
h3 { font-size: 1rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
.state { margin: 0.25rem 0 0.75rem; overflow-wrap: anywhere; }
.verdict { font-weight: 700; }
.verdict-delivered { color: var(--primary); }
.verdict-gave-up, .verdict-cancelled { color: var(--danger); }
.verdict-retrying { color: var(--warning); }
.hint { margin: 0.25rem 0; min-width: 16rem; max-width: 40rem; }
.label { margin: 0.25rem 0 0; }
pre.raw {
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.25rem 0; padding: 0.5rem;
  background: var(--bg); border: 1px solid var(--border); border-radius: 6px;
  font-size: 0.8125rem; max-width: 60rem;
}
td.answer { min-width: 12rem; }
details { margin: 0.5rem 0; }
summary { cursor: pointer; min-height: 24px; }
summary:focus-visible, input:focus-visible, .table-scroll:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
form .field { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.5rem 0; }
form .field.check { flex-wrap: nowrap; }
input[type='number'], input[type='text'] {
  font: inherit; min-height: 44px; padding: 0.25rem 0.5rem; border-radius: 6px;
  border: 2px solid var(--border); background: var(--surface); color: var(--text);
}
input[type='number'] { width: 8rem; }
input[type='text'] { width: min(24rem, 100%); }
input[type='checkbox'], input[type='radio'] { width: 24px; height: 24px; flex: none; margin: 0; accent-color: var(--focus); }
fieldset + fieldset { margin-top: 0.75rem; }
.live { font-weight: 600; }
tr.failed th, tr.failed td { background: var(--failed-bg); }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;

/**
 * The deliveries page's script: keeps the page up to date while it is open, from the
 * sandbox's event stream (/deliveries/events). A notification already on the page is updated
 * in place (its state line and its attempts), so nothing moves under a reader's eyes or focus,
 * and its forms keep what was typed; a new one is added at the top. The live region says how
 * many attempts came in, at most every two seconds, rather than one announcement per attempt.
 * Without script the page still works: it is only not live.
 */
export const DELIVERIES_SCRIPT = `'use strict';
(function () {
  var main = document.querySelector('main[data-events]');
  if (!main || typeof EventSource !== 'function') return;
  var live = document.getElementById('deliveries-live');
  var list = document.getElementById('notifications');
  var fresh = 0;
  var latest = '';
  var timer = 0;
  function say() {
    if (timer) return;
    timer = setTimeout(function () {
      timer = 0;
      live.textContent = fresh + (fresh === 1 ? ' new attempt' : ' new attempts') +
        ' since this page opened. Latest: ' + latest + '.';
    }, 2000);
  }
  function parse(html) {
    var template = document.createElement('template');
    template.innerHTML = html;
    return template.content.firstElementChild;
  }
  function focusable(element) {
    return element.matches('[tabindex], a, button, input, summary') ? element
      : element.querySelector('[tabindex], a, button, input, summary');
  }
  // Replaces an element by its new version, keeping open answers open and focus inside.
  function swap(old, next) {
    var active = document.activeElement;
    var hadFocus = old.contains(active);
    old.querySelectorAll('details[open][data-key]').forEach(function (details) {
      var twin = next.querySelector('details[data-key="' + details.getAttribute('data-key') + '"]');
      if (twin) twin.open = true;
    });
    old.replaceWith(next);
    if (hadFocus) {
      var same = active.id ? document.getElementById(active.id) : null;
      var target = same || focusable(next);
      if (target) target.focus();
    }
  }
  var source = new EventSource(main.getAttribute('data-events'));
  source.addEventListener('attempt', function (event) {
    var data = JSON.parse(event.data);
    var incoming = parse(data.html);
    var current = document.getElementById(incoming.id);
    if (current) {
      incoming.querySelectorAll('[data-part]').forEach(function (part) {
        var name = part.getAttribute('data-part');
        var old = current.querySelector('[data-part="' + name + '"]');
        if (old) swap(old, part);
      });
    } else {
      var empty = document.getElementById('no-deliveries');
      if (empty) empty.remove();
      list.prepend(incoming);
    }
    fresh += 1;
    latest = data.summary;
    say();
  });
  // A part replaced as a whole, by its id (the armed faults).
  source.addEventListener('section', function (event) {
    var incoming = parse(JSON.parse(event.data).html);
    var old = document.getElementById(incoming.id);
    if (old) swap(old, incoming);
  });
  source.addEventListener('check', function (event) {
    var data = JSON.parse(event.data);
    var old = document.getElementById('receiver-check-result');
    if (old) swap(old, parse(data.html));
    if (data.summary) live.textContent = data.summary;
  });
})();
`;

export function sendStylesheet(res: ServerResponse): void {
  send(res, 200, SANDBOX_CSS, { 'Content-Type': 'text/css; charset=utf-8' });
}

export function sendDeliveriesScript(res: ServerResponse): void {
  send(res, 200, DELIVERIES_SCRIPT, { 'Content-Type': 'text/javascript; charset=utf-8' });
}
