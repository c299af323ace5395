import { describeValue, errorMessage } from './errors';
import { isPaymentId, PAYMENT_ID_RULE, said } from './protocol';
import type { Institution } from './transport';
import { isHttpUrl } from './validation';

// What a transport answers is untrusted: a custom transport is merchant code, and the HTTP
// transport relays whatever the backend sent. The session passes every answer through here
// before it reaches its state (and so the page): a bad entry is dropped or repaired, never
// rendered, and the merchant hears about it once, in words saying what to fix.

/**
 * Raster logos inline as base64 are shown; SVG is not. An SVG is a document that can carry
 * script and load other resources: inert in an `<img>`, but not where a merchant's own UI
 * (useServicePayment) might put the URL, and a logo needs none of that. Raster images
 * cannot carry script anywhere.
 */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[a-z\d+/]+=*$/i;

/**
 * The most banks the component renders at once; the search field reaches all of them, and a
 * line under the list says so (`messages.moreBanks`). A backend or a custom transport may send
 * tens of thousands within the 4 MiB answer limit, and rendering every one froze the page
 * (30,000 took seconds and most of a gigabyte in jsdom). 200: the list the bank-list bench
 * opens (bench/banklist.bench.mjs, under 20 ms in Chromium), and more than a shopper scrolls
 * through before typing the name is quicker. The list in the state stays whole.
 */
export const MAX_SHOWN_INSTITUTIONS = 200;

/**
 * Above this many banks the answer is reported to the merchant (once per load): no real list
 * is that long (real ones hold a few hundred at most; the service pays in GBP only), so it is
 * a backend or transport sending the wrong thing. Higher than MAX_SHOWN_INSTITUTIONS on
 * purpose: a real list of 250 is shown 200 at a time, which is no error the merchant could act
 * on. docs/react.md ("Long bank lists") says the same to merchants.
 */
const LONGEST_REAL_LIST = 1000;

/**
 * [institutions, problem]: the usable institutions (ids unique, first wins), null when the
 * answer was no list at all; what was wrong, for errorConsumer, null when the answer was clean.
 * A pair, not an object: no property names in every Pay button's bundle.
 */
export type CheckedInstitutions = [institutions: Institution[] | null, problem: string | null];

/** Validates and normalises what `fetchInstitutions` resolved with. Never throws. */
export function checkInstitutions(answer: unknown): CheckedInstitutions {
  const problems: string[] = [];
  const institutions: Institution[] = [];
  const ids = new Set<string>();
  let list: unknown[] | undefined;
  try {
    if (Array.isArray(answer)) list = [...(answer as unknown[])];
  } catch {
    // A revoked Proxy: no list.
  }
  if (!list) {
    return [null, said(`fetchInstitutions resolved with ${describeValue(answer)}, not an array`)];
  }
  list.forEach((item, i) => {
    const fix = (what: string) => problems.push(`[${i}] ${what}`);
    try {
      if (!item || typeof item != 'object')
        return fix(`dropped, not an object: ${describeValue(item)}`);
      // Each field is read once: a getter cannot pass the checks with one value and render another.
      const { id, name: given, iconUrl, available } = item as Record<string, unknown>;
      const name = typeof given == 'number' ? String(given) : given;
      if (!id || typeof id != 'string') return fix(`dropped, bad id: ${describeValue(id)}`);
      if (ids.has(id)) return fix(`dropped, repeated id: ${id}`);
      if (typeof name != 'string' || !name.trim()) {
        return fix(`dropped, bad name: ${describeValue(given)}`);
      }
      if (name !== given) fix(`number name shown as text: ${name}`);
      let icon: string | undefined;
      if (typeof iconUrl == 'string' && (DATA_IMAGE.test(iconUrl) || isHttpUrl(iconUrl))) {
        icon = iconUrl[0] == 'd' ? iconUrl : new URL(iconUrl).href;
      } else if (iconUrl != null) {
        fix(`bad iconUrl removed: ${describeValue(iconUrl)}`);
      }
      ids.add(id);
      // Only `false` means unavailable; any other value is the default, available.
      institutions.push({
        id,
        name,
        ...(icon && { iconUrl: icon }),
        ...(available === false && { available }),
      });
    } catch (error) {
      // A Proxy or a getter that throws.
      fix(`dropped, unreadable: ${errorMessage(error)}`);
    }
  });
  return [
    institutions,
    // One report for the whole list, however many things were wrong with it; the banks that
    // are left are shown (all of them kept, however many: the view bounds what it renders).
    [
      list.length > LONGEST_REAL_LIST &&
        said(`fetchInstitutions answered ${list.length} banks, too many`),
      problems.length &&
        said(
          `fetchInstitutions answer fixed: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; ${problems.length - 5} more` : ''}`,
        ),
    ]
      .filter(Boolean)
      .join('; ') || null,
  ];
}

/**
 * What `initiatePayment` resolved with, checked: `[problem]` when it cannot be used, else
 * `['', authorisation URL, paymentId]`. Never throws.
 */
export function checkInitiatedPayment(
  answer: unknown,
): [problem: string] | [problem: '', url: string, paymentId: string] {
  let id: unknown;
  let url: unknown;
  try {
    ({ paymentId: id, authorisationUrl: url } = answer as Record<string, unknown>);
  } catch {
    // A getter that throws: checked below as missing.
  }
  const problem =
    !answer || typeof answer != 'object'
      ? `initiatePayment resolved with ${describeValue(answer)}, not { paymentId, authorisationUrl }`
      : typeof url != 'string' || !isHttpUrl(url)
        ? `refused to open a non-http(s) authorisation URL: ${describeValue(url)}`
        : // The id the result page looks the outcome up by: the one rule (protocol.ts).
          !isPaymentId(id)
          ? `initiatePayment resolved with paymentId ${describeValue(id)}: it ${PAYMENT_ID_RULE}`
          : '';
  return problem ? [said(problem)] : ['', url as string, id as string];
}
