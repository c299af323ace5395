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

/** For the SVG icons opened on their own: an image document needs nothing at all. */
export const ICON_CSP = "default-src 'none'";
