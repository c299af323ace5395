/**
 * What the sandbox's pages share: the document around a page, the pages' CSP, the message page
 * and the 303 onwards, the small parts several pages use (a time, an amount, a table that
 * scrolls or stacks), and the files they load. The pages themselves: index-page.ts,
 * bank-page.ts, deliveries-page.ts, ../keys/rotation.ts (the keys page).
 *
 * Every page is built with the `html` tag (html.ts), which escapes what it is given: references,
 * metadata, merchant ids and receivers' answers are shopper-, merchant- or receiver-supplied and
 * end up in pages a browser renders.
 *
 * The stylesheet and the deliveries page's script are served as files, so the pages' CSP can
 * forbid inline styles and scripts altogether; they are written as real files (sandbox.css,
 * deliveries-live.js) that the formatter, the linter and the type checker see, and imported as
 * text (`?raw`) as the component's stylesheets are.
 */
import type { ServerResponse } from 'node:http';
import { send } from '../server/http';
import type { ResolvedOptions } from '../api/options';
import deliveriesScript from './deliveries-live.js?raw';
import { html } from './html';
import type { Html } from './html';
import stylesheet from './sandbox.css?raw';

export { escapeHtml } from './html';

/** Path of the stylesheet every page links (a file, so the CSP needs no inline style). */
export const STYLESHEET_PATH = '/assets/sandbox.css';
/** Where the deliveries page's script is served (a file: the page's CSP allows 'self' only). */
export const DELIVERIES_SCRIPT_PATH = '/assets/deliveries.js';

/** A payment's bank page (bank-page.ts), linked from the index and handed out by the API. */
export function bankPath(paymentId: string): string {
  return `/bank/${encodeURIComponent(paymentId)}`;
}

const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

/** 12.5 → "£12.50". */
export function formatAmount(amount: number): string {
  return POUNDS.format(amount);
}

export interface PageParts {
  /** The document title (plain text). */
  title: string;
  /** The body's content. */
  body: Html;
  /** Same-origin scripts to load (deferred); most pages have none. */
  scripts?: readonly string[];
}

/** A complete document: language, viewport, title, the stylesheet. */
export function htmlDocument({ title, body, scripts = [] }: PageParts): Html {
  const scriptTags = scripts.map((src) => html`\n<script src="${src}" defer></script>`);
  return html`<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">${scriptTags}
</head>
<body>
${body}
</body>
</html>
`;
}

/** An ISO time shown as "2025-01-31 14:03:07.123" (UTC: the same on every machine and in logs). */
export function timeElement(iso: string): Html {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime())
    ? iso
    : date.toISOString().replace('T', ' ').slice(0, 23);
  return html`<time datetime="${iso}">${text} UTC</time>`;
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

/**
 * Answers an HTML page under a CSP (by default the pages' own, which lists no callback), with
 * extra headers such as Location.
 */
export function sendHtml(
  res: ServerResponse,
  status: number,
  page: Html,
  headers: Record<string, string> = {},
  csp: string = pageCsp([]),
): void {
  send(res, status, String(page), {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': csp,
    ...headers,
  });
}

/** The merchant's return addresses, which a page's form may lead to (the bank page's). */
export type PageCallbacks = Pick<ResolvedOptions, 'webCallbackUrl' | 'mobileCallbackUrl'>;

/** Answers a page under the pages' CSP, whose form-action allows the configured callbacks. */
export function sendPage(
  res: ServerResponse,
  status: number,
  page: Html,
  { webCallbackUrl, mobileCallbackUrl }: PageCallbacks,
  headers: Record<string, string> = {},
): void {
  sendHtml(res, status, page, headers, pageCsp([webCallbackUrl, mobileCallbackUrl]));
}

/** A page that says one thing: a title and a sentence, with the way home. */
export function messagePage(title: string, message: string): Html {
  return htmlDocument({
    title: `${title} – ServicePay sandbox`,
    body: html`<main>
<div class="card">
<h1>${title}</h1>
<p>${message}</p>
<p><a href="/">Sandbox home</a></p>
</div>
</main>`,
  });
}

/**
 * A message page as the answer of a route that is not a page's own: a refusal, or a note. None
 * has a form that leaves the sandbox, so the pages' CSP lists no callback.
 */
export function sendMessagePage(
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendHtml(res, status, messagePage(title, message), headers);
}

/**
 * The 303 after a form's POST (post/redirect/get, so a reload never acts twice), with a page
 * that says where to go for a client that does not follow it.
 */
export function sendRedirect(res: ServerResponse, location: string): void {
  sendMessagePage(res, 303, 'Redirecting', `Continue to ${location}`, { Location: location });
}

/**
 * A table in a container that scrolls sideways on a narrow screen. The container is a named
 * region that takes focus, so a keyboard user can scroll it too (axe:
 * scrollable-region-focusable). A `stack` table does not scroll: on a narrow screen each row is
 * a block of "label: value" lines (its columns are labelled from STACK_COLUMNS).
 */
export function scrollTable(
  id: string,
  caption: Html | string,
  headers: readonly string[],
  rows: Html,
  { stack }: { stack?: StackTable } = {},
): Html {
  const headerCells = headers.map((name) => html`<th scope="col">${name}</th>`);
  return html`<div class="table-scroll${stack && ` stack stack-${stack}`}" role="region" tabindex="0" aria-labelledby="${id}-caption" data-part="${id}">
<table>
<caption id="${id}-caption">${caption}</caption>
<thead><tr>${headerCells}</tr></thead>
<tbody>
${rows}
</tbody>
</table></div>`;
}

/** A configured address as code, or "not configured". */
export const orNone = (value: string | undefined): Html =>
  value === undefined ? html`<em>not configured</em>` : html`<code>${value}</code>`;

// The tables that stack on a narrow screen (scrollTable's `stack`): each cell is labelled there
// with its column's header, and the labels are made from the same headers the tables print, so
// a renamed column cannot leave a stale label behind.

/** Each stacked table's column headers; the first column is the row's own header, unlabelled. */
export const STACK_COLUMNS = {
  attempts: ['Answer', 'Outcome', 'Copy', 'Attempt', 'Took', 'Time', 'Next attempt'],
  check: ['Case', 'What the sandbox did', 'Expected', 'Answers', 'Result'],
} as const;

export type StackTable = keyof typeof STACK_COLUMNS;

/** Where in sandbox.css (inside its narrow-screen media query) the label rules go. */
export const STACK_LABELS_MARK = '/* stack labels: page.ts */';

/** One `::before` rule per labelled column, e.g. `.stack-attempts td:nth-child(2)::before`. */
export function stackLabelRules(): string {
  return Object.entries(STACK_COLUMNS)
    .flatMap(([table, headers]) =>
      headers
        .slice(1)
        // JSON's string is a valid CSS string for these plain headers.
        .map(
          (header, i) =>
            `.stack-${table} td:nth-child(${i + 2})::before { content: ${JSON.stringify(`${header}: `)}; }`,
        ),
    )
    .join('\n  ');
}

// The stacked tables' cell labels, made from their headers once.
const served = stylesheet.replace(STACK_LABELS_MARK, stackLabelRules());

export function sendStylesheet(res: ServerResponse): void {
  send(res, 200, served, { 'Content-Type': 'text/css; charset=utf-8' });
}

export function sendDeliveriesScript(res: ServerResponse): void {
  send(res, 200, deliveriesScript, { 'Content-Type': 'text/javascript; charset=utf-8' });
}
