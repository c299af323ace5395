/**
 * The bank icons, generated rather than shipped: a rounded square in the bank's colour with
 * its initials. Real logos are trademarks and would mean external URLs or binary assets.
 */
import type { ServerResponse } from 'node:http';
import { send, sendError } from '../http';
import { DEFAULT_INSTITUTION_COLOUR, isHexColour } from '../options';
import type { ResolvedOptions } from '../options';
import { html } from '../html';

const MINOR_WORDS = new Set(['of', 'the', 'uk', 'and', '&']);

/** For the SVG icons opened on their own: an image document needs nothing at all. */
const ICON_CSP = "default-src 'none'";

/** `GET /icons/<id>.svg`; 404 for an id that no institution has. */
export function sendIcon(
  res: ServerResponse,
  institutionId: string,
  institutions: ResolvedOptions['institutions'],
): void {
  const institution = institutions.get(institutionId);
  if (institution === undefined) {
    return sendError(res, 404, `No institution has the id ${institutionId}`);
  }
  send(res, 200, institutionIconSvg(institution.name, institution.colour), {
    'Content-Type': 'image/svg+xml; charset=utf-8',
    'Content-Security-Policy': ICON_CSP,
    // Icons never change while the sandbox runs; the shared headers' no-store is overridden.
    'Cache-Control': 'public, max-age=3600',
  });
}

/** "Lloyds Bank" → "LB", "HSBC UK" → "HSBC", "first direct" → "FD", "Barclays" → "B". */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => word && !MINOR_WORDS.has(word.toLowerCase()));
  const first = words[0] ?? name;
  // An acronym is already the short form a shopper recognises.
  if (words.length <= 1 && /^[A-Z]{2,4}$/.test(first)) return first;
  const letters = words
    .slice(0, 3)
    .map((word) => Array.from(word)[0] ?? '')
    .join('');
  return (letters || '?').toUpperCase();
}

/** The SVG document of an institution's icon. */
export function institutionIconSvg(
  name: string,
  colour: string = DEFAULT_INSTITUTION_COLOUR,
): string {
  const background = isHexColour(colour) ? colour : DEFAULT_INSTITUTION_COLOUR;
  const text = initials(name);
  const fontSize = text.length <= 1 ? 30 : text.length === 2 ? 26 : text.length === 3 ? 20 : 16;
  const ink = textColourFor(background);
  // One line, as served; the html tag escapes as XML needs too (the same five characters).
  return String(
    html`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${name}"><title>${name}</title><rect width="64" height="64" rx="12" fill="${background}"/><text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif" font-size="${fontSize}" font-weight="700" fill="${ink}">${text}</text></svg>`,
  );
}

/** Black or white, whichever has the higher WCAG contrast ratio against the background. */
export function textColourFor(background: string): '#000000' | '#ffffff' {
  const l = relativeLuminance(background);
  const againstWhite = 1.05 / (l + 0.05);
  const againstBlack = (l + 0.05) / 0.05;
  return againstWhite >= againstBlack ? '#ffffff' : '#000000';
}

function relativeLuminance(hex: string): number {
  const channel = (offset: number): number => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}
