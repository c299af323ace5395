/**
 * The banks the sandbox offers: the default list, the institutions option checked, the list the
 * component fetches (`GET /v1/institutions`) and each bank's icon. The icons are generated
 * rather than shipped, a rounded square in the bank's colour with its initials: real logos are
 * trademarks and would mean external URLs or binary assets.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUuid } from '../../core/index';
import { SandboxConfigError } from '../api/errors';
import { send, sendError, sendJson } from '../server/http';
import type { Doors } from '../server/http';
import { html } from '../pages/html';
import { applicationIdError, environmentError, isEnvironment } from './caller';

/** A bank listed by the sandbox. Its icon is generated: a coloured square with initials. */
export interface SandboxInstitution {
  /** The institutionId; lower-case letters, digits and dashes (it also names the icon file). */
  id: string;
  /** The name shown to the shopper. */
  name: string;
  /**
   * Background colour of the generated icon, `#rrggbb`. The initials are drawn in black or
   * white, whichever contrasts more.
   * @default '#475569'
   */
  colour?: string;
  /**
   * False lists the bank with `"available": false`: the component shows it but it cannot be
   * paid, and `POST /v1/payments` at it is refused (422).
   * @default true
   */
  available?: boolean;
}

/** The banks of a running sandbox, by id, each with every field. */
export type Institutions = ReadonlyMap<string, Required<SandboxInstitution>>;

/**
 * The banks the sandbox offers by default: the UK's large retail banks and the app banks
 * shoppers most often pick, so a checkout looks and searches as it will in production.
 * Colours approximate each brand; icons are generated locally (no external URLs).
 */
export const DEFAULT_INSTITUTIONS: readonly SandboxInstitution[] = Object.freeze(
  [
    { id: 'barclays', name: 'Barclays', colour: '#00395d' },
    { id: 'hsbc', name: 'HSBC UK', colour: '#db0011' },
    { id: 'lloyds', name: 'Lloyds Bank', colour: '#006a4d' },
    { id: 'natwest', name: 'NatWest', colour: '#5a287d' },
    { id: 'santander', name: 'Santander UK', colour: '#ec0000' },
    { id: 'nationwide', name: 'Nationwide', colour: '#002f6c' },
    { id: 'monzo', name: 'Monzo', colour: '#ff4f40' },
    { id: 'starling', name: 'Starling Bank', colour: '#6935d3' },
    { id: 'revolut', name: 'Revolut', colour: '#191c1f' },
    { id: 'halifax', name: 'Halifax', colour: '#005eb8' },
    { id: 'tsb', name: 'TSB', colour: '#0055a4' },
    { id: 'co-operative-bank', name: 'Co-operative Bank', colour: '#00b1e7' },
    { id: 'metro-bank', name: 'Metro Bank', colour: '#c8102e' },
    { id: 'first-direct', name: 'first direct', colour: '#000000' },
    { id: 'bank-of-scotland', name: 'Bank of Scotland', colour: '#0a3d7e' },
    { id: 'rbs', name: 'Royal Bank of Scotland', colour: '#0a2f64' },
    { id: 'virgin-money', name: 'Virgin Money', colour: '#c4003d' },
    { id: 'chase', name: 'Chase UK', colour: '#117aca' },
    { id: 'danske', name: 'Danske Bank', colour: '#003755' },
    { id: 'ulster-bank', name: 'Ulster Bank', colour: '#00305e' },
  ].map((institution) => Object.freeze(institution)),
);

const INSTITUTION_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** The neutral background of a generated icon when an institution gives no colour. */
export const DEFAULT_INSTITUTION_COLOUR = '#475569';
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOUR.test(value);
}

/** The institutions and unavailableInstitutions options, checked: the banks by id. */
export function institutionMap(
  list: readonly SandboxInstitution[],
  unavailable: readonly string[] | undefined,
): Institutions {
  if (!Array.isArray(list) || list.length === 0) {
    throw new SandboxConfigError(
      'sandbox option institutions must be a non-empty array of { id, name, colour?, available? }.',
      'institutions',
    );
  }
  const map = new Map<string, Required<SandboxInstitution>>();
  for (const item of list as unknown[]) {
    const { id, name, colour, available } = (item ?? {}) as Partial<
      Record<keyof SandboxInstitution, unknown>
    >;
    if (typeof id !== 'string' || !INSTITUTION_ID.test(id)) {
      throw new SandboxConfigError(
        `sandbox institution id ${JSON.stringify(id)} must be lower-case letters, digits and inner dashes (it names the icon file).`,
        'institutions',
      );
    }
    if (map.has(id)) {
      throw new SandboxConfigError(
        `sandbox institution id "${id}" is listed twice.`,
        'institutions',
      );
    }
    if (typeof name !== 'string' || name.trim() === '') {
      throw new SandboxConfigError(`sandbox institution "${id}" needs a name.`, 'institutions');
    }
    if (colour !== undefined && !isHexColour(colour)) {
      throw new SandboxConfigError(
        `sandbox institution "${id}" colour must be #rrggbb, got ${JSON.stringify(colour)}.`,
        'institutions',
      );
    }
    if (available !== undefined && typeof available !== 'boolean') {
      throw new SandboxConfigError(
        `sandbox institution "${id}" available must be true or false, got ${JSON.stringify(available)}.`,
        'institutions',
      );
    }
    map.set(id, {
      id,
      name,
      colour: colour ?? DEFAULT_INSTITUTION_COLOUR,
      available: available ?? true,
    });
  }
  for (const id of unavailableIds(unavailable)) {
    const institution = map.get(id);
    if (institution === undefined) {
      throw new SandboxConfigError(
        `sandbox option unavailableInstitutions names ${JSON.stringify(id)}, which is not a listed institution; the ids are ${[...map.keys()].join(', ')}.`,
        'unavailableInstitutions',
      );
    }
    map.set(id, { ...institution, available: false });
  }
  return map;
}

function unavailableIds(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string')) {
    throw new SandboxConfigError(
      `sandbox option unavailableInstitutions must be an array of institution ids such as ["santander"], got ${JSON.stringify(value)}.`,
      'unavailableInstitutions',
    );
  }
  return value as string[];
}

/** `GET /v1/institutions`: the list the component shows, with each icon's address. */
export function listInstitutions(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  { institutions, doors }: { institutions: Institutions; doors: Pick<Doors, 'origin'> },
): void {
  const environment = query.get('environment');
  if (!isEnvironment(environment)) return sendError(res, 400, environmentError(environment));
  const applicationId = query.get('applicationId');
  if (!isUuid(applicationId)) return sendError(res, 400, applicationIdError(applicationId));
  const origin = doors.origin(req);
  const listed = Array.from(institutions.values(), ({ id, name, available }) => ({
    id,
    name,
    iconUrl: `${origin}/icons/${id}.svg`,
    // Only the exception is sent: an absent field means available, as in the contract.
    ...(available ? {} : { available: false }),
  }));
  sendJson(res, 200, { institutions: listed });
}

const MINOR_WORDS = new Set(['of', 'the', 'uk', 'and', '&']);

/** For the SVG icons opened on their own: an image document needs nothing at all. */
const ICON_CSP = "default-src 'none'";

/** `GET /icons/<id>.svg`; 404 for an id that no institution has. */
export function sendIcon(
  res: ServerResponse,
  institutionId: string,
  institutions: Institutions,
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
