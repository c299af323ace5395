/**
 * HTML building blocks of the sandbox's pages. Everything that is not a literal of this file
 * goes through escapeHtml: references, metadata and merchant ids are shopper- or
 * merchant-supplied and end up in pages a browser renders.
 */

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

/** Path of the stylesheet every page links (a file, so the CSP needs no inline style). */
export const STYLESHEET_PATH = '/assets/sandbox.css';

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
