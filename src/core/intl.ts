// The formatters of the shopper's numbers, one of each per language and kind, made the first
// time a language asks and kept for the page's life (a handful at most): building an
// Intl.NumberFormat costs far more than using one, and a bank list's line is written on every
// keystroke of its search. No language is written in here: each comes from the catalogue.
import { ENGLISH } from './locales/en/index';

type Formatter = Intl.NumberFormat | Intl.PluralRules;

const made = new Map<string, Formatter>();

/**
 * The formatter `make` makes for `lang`, made once. A tag Intl refuses (a catalogue's typo,
 * `'cy_GB'`) gets English's: the numbers are still written, never an exception in a render.
 */
function cached<T extends Formatter>(kind: string, lang: string, make: (lang: string) => T): T {
  let formatter = made.get(kind + lang) as T | undefined;
  if (!formatter) {
    try {
      formatter = make(lang);
    } catch {
      formatter = make(ENGLISH);
    }
    made.set(kind + lang, formatter);
  }
  return formatter;
}

/** The plural category of `count` in `lang` (Intl.PluralRules): `one`, `two`, `other`, ... */
export const pluralOf = (lang: string, count: number): Intl.LDMLPluralRule =>
  cached('p', lang, (tag) => new Intl.PluralRules(tag)).select(count);

/**
 * `value` as `lang` writes it (grouping, decimal sign): a count as it is, an amount (`money`)
 * with two decimals (12.50). Not a currency format: the sign is the `payLabel`'s, as spec 2.2
 * has it, so GBP always shows as £.
 */
export const formatNumber = (lang: string, value: number, money?: boolean): string =>
  cached(
    money ? 'm' : 'n',
    lang,
    (tag) => new Intl.NumberFormat(tag, money ? { minimumFractionDigits: 2 } : undefined),
  ).format(value);
