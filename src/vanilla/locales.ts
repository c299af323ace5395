/**
 * The languages a plain page names by tag (`locale: 'cy'`), and the words of each that each
 * script carries: a classic script cannot import a catalogue, so it ships its own screens of
 * every language it offers. The component's script carries the Pay step's, the result page's
 * script the result page's, the extras' file the handoff panel's and its outcomes' (./extras):
 * each table below is kept only by the script that reads it. A page may pass a catalogue
 * object instead, any language, taken whole.
 */
import type { Catalogue } from '../core/index';
import { warn } from '../core/internal';
import { handoff as cyHandoff } from '../core/locales/cy/handoff';
import { WELSH } from '../core/locales/cy/index';
import { pay as cyPay } from '../core/locales/cy/pay';
import { result as cyResult } from '../core/locales/cy/result';
import { handoff as enHandoff } from '../core/locales/en/handoff';
import { ENGLISH } from '../core/locales/en/index';
import { pay as enPay } from '../core/locales/en/pay';
import { result as enResult } from '../core/locales/en/result';

/** The tags a plain page may name: English and Welsh. */
export type ShippedLocale = 'en' | 'cy';

/** Some screens of the shipped catalogues, by tag. */
type Shipped = Record<ShippedLocale, Partial<Catalogue>>;

export const PAY_WORDS: Shipped = {
  en: { lang: ENGLISH, pay: enPay },
  cy: { lang: WELSH, pay: cyPay },
};

export const RESULT_WORDS: Shipped = {
  en: { lang: ENGLISH, result: enResult },
  cy: { lang: WELSH, result: cyResult },
};

export const EXTRAS_WORDS: Shipped = {
  en: { lang: ENGLISH, handoff: enHandoff, result: enResult },
  cy: { lang: WELSH, handoff: cyHandoff, result: cyResult },
};

/**
 * The shipped words a tag names, from `shipped`: by its language, in any case, with or without
 * a region (`'cy'`, `'CY'`, `'cy-GB'`, `'en-GB'`); undefined for another.
 */
export const shippedOf = (tag: unknown, shipped: Shipped): Partial<Catalogue> | undefined =>
  typeof tag == 'string' ? shipped[tag.split('-')[0]!.toLowerCase() as ShippedLocale] : undefined;

/**
 * What a page's `locale` option gives the view: a named language's words from `shipped`, a
 * catalogue object (or nothing) as it is, and English for any other name, which the console
 * says in development (the shopper sees English: a page's own test sees it too).
 */
export function localeOption(option: unknown, shipped: Shipped): unknown {
  if (typeof option != 'string') return option;
  const words = shippedOf(option, shipped);
  try {
    if (!words && process.env.NODE_ENV !== 'production') {
      warn(
        `locale "${option}" is not one this script carries ('en' or 'cy'): English is shown; pass a catalogue object for another language (docs/languages.md)`,
      );
    }
  } catch {
    // No bundler: no warning.
  }
  return words;
}
