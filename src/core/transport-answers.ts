import { describeValue } from './errors';
import type { Institution } from './transport';
import { isHttpUrl } from './validation';

// What a transport answers is untrusted: a custom transport is merchant code, and the HTTP
// transport relays whatever the backend sent. The session passes every answer through here
// before it reaches its state (and so the page): a bad entry is dropped or repaired, never
// rendered, and the merchant hears about it once, in words saying what to fix.

const PREFIX = 'servicepay:';
/** Problems named one by one in the report; the rest are counted. */
const NAMED = 5;

/**
 * Raster logos inline as base64 are shown; SVG is not. An SVG is a document that can carry
 * script and load other resources: inert in an `<img>`, but not where a merchant's own UI
 * (useServicePayment) might put the URL, and a logo needs none of that. Raster images
 * cannot carry script anywhere.
 */
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z\d+/]+={0,2}$/i;

/** The logo as it may be shown, or undefined. http(s) URLs come back in their parsed form. */
export function safeIconUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (DATA_IMAGE.test(value)) return value;
  return isHttpUrl(value) ? new URL(value).href : undefined;
}

export interface CheckedInstitutions {
  /** The usable institutions (ids unique, first wins); null when the answer was no list at all. */
  institutions: Institution[] | null;
  /** What was wrong, for errorConsumer; null when the answer was clean. */
  problem: string | null;
}

/** Validates and normalises what `fetchInstitutions` resolved with. Never throws. */
export function checkInstitutions(answer: unknown): CheckedInstitutions {
  const problems: string[] = [];
  const institutions: Institution[] = [];
  const seen = new Set<string>();
  let length = -1;
  try {
    if (Array.isArray(answer)) length = answer.length;
  } catch {
    // A revoked Proxy: no list.
  }
  if (length < 0) {
    return {
      institutions: null,
      problem: `${PREFIX} fetchInstitutions resolved with ${describeValue(answer)}, not an array of institutions ({ id, name, iconUrl? })`,
    };
  }
  for (let i = 0; i < length; i++) {
    const at = `institutions[${i}]`;
    try {
      // Each field is read once: a getter cannot pass the checks with one value and render another.
      const item: unknown = (answer as unknown[])[i];
      if (typeof item !== 'object' || item === null) {
        problems.push(`dropped ${at}: ${describeValue(item)} is not an object`);
        continue;
      }
      const { id, name: rawName, iconUrl } = item as Record<string, unknown>;
      if (typeof id !== 'string' || !id) {
        problems.push(`dropped ${at}: its id ${describeValue(id)} is not a non-empty string`);
        continue;
      }
      if (seen.has(id)) {
        problems.push(`dropped ${at}: its id "${id}" repeats an earlier one`);
        continue;
      }
      // A number is shown as its digits; anything else without text cannot be recognised.
      const name =
        typeof rawName === 'number' && Number.isFinite(rawName) ? String(rawName) : rawName;
      if (typeof name !== 'string' || !name.trim()) {
        problems.push(`dropped ${at} ("${id}"): its name ${describeValue(rawName)} is not text`);
        continue;
      }
      if (name !== rawName)
        problems.push(`${at} ("${id}"): its name, the number ${name}, is shown as text`);
      const icon = safeIconUrl(iconUrl);
      if (iconUrl != null && !icon) {
        problems.push(
          `${at} ("${id}"): its iconUrl ${describeValue(iconUrl)} is not shown (only http(s) URLs and base64 PNG, JPEG, GIF or WebP data URLs are)`,
        );
      }
      seen.add(id);
      institutions.push(icon ? { id, name, iconUrl: icon } : { id, name });
    } catch (error) {
      // A Proxy or a getter that throws.
      problems.push(`dropped ${at}: reading it threw ${describeValue(String(error))}`);
    }
  }
  const more = problems.length - NAMED;
  return {
    institutions,
    problem: problems.length
      ? `${PREFIX} the institution list needed fixing (the other institutions are shown): ${problems
          .slice(0, NAMED)
          .join('; ')}${more > 0 ? `; and ${more} more` : ''}`
      : null,
  };
}

/**
 * The authorisation URL of what `initiatePayment` resolved with, or the problem with it.
 * Never throws.
 */
export function checkInitiatedPayment(answer: unknown): { url: string } | { problem: string } {
  let read: Record<string, unknown> | undefined;
  try {
    if (typeof answer === 'object' && answer !== null) {
      const { paymentId, authorisationUrl } = answer as Record<string, unknown>;
      read = { paymentId, authorisationUrl };
    }
  } catch {
    // A Proxy or a getter that throws: unreadable.
  }
  if (!read) {
    return {
      problem: `${PREFIX} initiatePayment resolved with ${describeValue(answer)}, not { paymentId, authorisationUrl }`,
    };
  }
  const { paymentId, authorisationUrl: url } = read;
  if (typeof url !== 'string' || !isHttpUrl(url)) {
    return {
      problem: `${PREFIX} refused to open a non-http(s) authorisation URL: ${describeValue(url)}`,
    };
  }
  if (typeof paymentId !== 'string' || !paymentId) {
    return {
      problem: `${PREFIX} initiatePayment resolved with the paymentId ${describeValue(paymentId)}, not a non-empty string`,
    };
  }
  return { url };
}
