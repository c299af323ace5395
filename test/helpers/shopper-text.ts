import { DEFAULT_MESSAGES } from '../../src/core/messages';
import type { ServiceMessages } from '../../src/core/messages';

/**
 * What the shopper must never read: the library's prefix, an API or field name, a URL, a
 * status line or a duration in ms. Checks the text and the attributes that are read out or
 * shown (aria-label, placeholder, title, alt).
 */
const DEVELOPER_TEXT =
  /servicepay:|Input validation|field=|paymentRequest|createPayment|payWithInstitution|openInstitutionSelection|fetchInstitutions|https?:\/\/|\bHTTP \d|\d+ ?ms\b|Error:/;

/** Everything a shopper can see or hear in `element`. */
export function shopperFacingText(element: Element): string {
  const attributes = [...element.querySelectorAll('[aria-label],[placeholder],[title],[alt]')].map(
    (e) => ['aria-label', 'placeholder', 'title', 'alt'].map((a) => e.getAttribute(a) ?? ''),
  );
  return [element.textContent ?? '', ...attributes.flat()].join('\n');
}

export function developerTextIn(element: Element): string | undefined {
  return DEVELOPER_TEXT.exec(shopperFacingText(element))?.[0];
}

/**
 * The pseudo-locale: every message replaced by its key in ⟦ ⟧ (the functions by their key and
 * argument). Rendered with it, any English left on screen escaped the messages table.
 */
export const PSEUDO_MESSAGES = Object.fromEntries(
  Object.entries(DEFAULT_MESSAGES).map(([key, value]) => [
    key,
    typeof value === 'function' ? (arg: string) => `⟦${key}:${arg}⟧` : `⟦${key}⟧`,
  ]),
) as unknown as ServiceMessages;

/**
 * What is left of the shopper-facing text once the pseudo-locale's tokens and the data (bank
 * names, amounts) are taken out: '' when nothing escaped the messages table.
 */
export function englishLeftIn(element: Element, names: readonly string[]): string {
  let text = shopperFacingText(element).replace(/⟦[^⟧]*⟧/g, '');
  // Longest first: one name may contain another.
  for (const name of [...names].sort((a, b) => b.length - a.length))
    text = text.split(name).join('');
  return text.replace(/[\d.£\s]/g, '');
}
