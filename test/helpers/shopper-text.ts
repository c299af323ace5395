import { DEFAULT_MESSAGES } from '../../src/core/messages';
import type { Catalogue, ServiceMessages } from '../../src/core/catalogue';
import cy from '../../src/core/locales/cy/index';
import en from '../../src/core/locales/en/index';

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
 * first argument, a counted sentence's forms too). Rendered with it, any English left on
 * screen escaped the messages table.
 */
export const PSEUDO_MESSAGES = Object.fromEntries(
  Object.entries(DEFAULT_MESSAGES).map(([key, value]) => [
    key,
    typeof value === 'function'
      ? (arg: string) => `⟦${key}:${arg}⟧`
      : typeof value === 'object'
        ? { other: (arg: string) => `⟦${key}:${arg}⟧` }
        : `⟦${key}⟧`,
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

/**
 * Every sentence of a catalogue as `[screen.key, text]`: a function given a bank's name
 * (`Monzo`), each form of a counted sentence given `2`.
 */
export function catalogueSentences(catalogue: Catalogue): (readonly [string, string])[] {
  return Object.entries(catalogue).flatMap(([screen, words]) =>
    typeof words == 'object'
      ? Object.entries(words as Record<string, unknown>).flatMap(([key, value]) => {
          const said =
            typeof value == 'function'
              ? [(value as (bank: string) => string)('Monzo')]
              : typeof value == 'object'
                ? Object.values(value as Record<string, (...n: string[]) => string>).map((form) =>
                    form('2', '2'),
                  )
                : [value as string];
          return said.map((text) => [`${screen}.${key}`, text] as const);
        })
      : [],
  );
}

/** The words of a text, lower-cased (apostrophes inside a word kept: "can’t", "i’ch"). */
export const wordsOf = (text: string): string[] =>
  text.toLowerCase().match(/\p{L}[\p{L}’']*/gu) ?? [];

/** The English catalogue's words that the Welsh one never writes: on a Welsh screen, a leak. */
const ENGLISH_ONLY = (() => {
  const welsh = new Set(catalogueSentences(cy).flatMap(([, text]) => wordsOf(text)));
  return new Set(
    catalogueSentences(en)
      .flatMap(([, text]) => wordsOf(text))
      .filter((word) => !welsh.has(word) && word !== 'monzo'),
  );
})();

/**
 * The English words (the English catalogue's, less those Welsh writes too) in what the shopper
 * can see or hear in `element`, once the data (bank names, the shop's own sentences) is taken
 * out: [] when a Welsh screen has no English left.
 */
export function englishWordsIn(element: Element, data: readonly string[] = []): string[] {
  return englishWords(shopperFacingText(element), data);
}

/** englishWordsIn for a text read elsewhere (from a real browser's page). */
export function englishWords(text: string, data: readonly string[] = []): string[] {
  for (const item of [...data].sort((a, b) => b.length - a.length))
    text = text.split(item).join('');
  return wordsOf(text).filter((word) => ENGLISH_ONLY.has(word));
}
