/**
 * The shopper's words as a screen uses them: its part of the catalogue it was given (`locale`),
 * English without one, with the merchant's `messages` on top, and the language they are in.
 * The words themselves live in the catalogues (./locales), their meaning in ./catalogue.
 */
import type {
  Counted,
  HandoffMessages,
  HostedMessages,
  PaymentResultMessages,
  ServiceMessages,
} from './catalogue';
import { formatNumber, pluralOf } from './intl';
import { handoff } from './locales/en/handoff';
import { hosted } from './locales/en/hosted';
import { ENGLISH } from './locales/en/index';
import { LABEL, PAY_LABEL, TITLE, pay } from './locales/en/pay';
import { result } from './locales/en/result';

/** The Pay step's words in English: the English catalogue's `pay`. */
export const DEFAULT_MESSAGES: ServiceMessages = pay;
/** The result page's words in English: the English catalogue's `result`. */
export const DEFAULT_RESULT_MESSAGES: PaymentResultMessages = result;
/** The handoff panel's words in English: the English catalogue's `handoff`. */
export const DEFAULT_HANDOFF_MESSAGES: HandoffMessages = handoff;
/** servicepay/hosted's own words in English: the English catalogue's `hosted`. */
export const DEFAULT_HOSTED_MESSAGES: HostedMessages = hosted;

/** The `messages` option: any part of the table. */
export type ServiceMessagesOption = Partial<ServiceMessages>;

/** A screen of a catalogue. */
type Screen = 'pay' | 'result' | 'handoff' | 'hosted';

/**
 * Whether `value` may stand for `fallback`: the same type, and a counted sentence's forms an
 * object with its `other` form at least. So a plain-JS typo or a wrong value never blanks a
 * word, and a catalogue missing a word (or a screen) falls back to English, never to nothing.
 */
const fits = (value: unknown, fallback: unknown) =>
  typeof value === typeof fallback &&
  (typeof value != 'object' || typeof (value as Partial<Counted<[]>> | null)?.other == 'function');

/**
 * The one override loop: `words` with each key of it that `overrides` gives a fitting value
 * for replaced. A catalogue's screen goes over English through it, then `messages` over that.
 */
export function overrideWords<T extends object>(overrides: unknown, words: T): T {
  const result = { ...words } as Record<string, unknown>;
  try {
    for (const key in result) {
      const value = (overrides as Record<string, unknown> | undefined)?.[key];
      if (fits(value, result[key])) result[key] = value;
    }
  } catch {
    // A Proxy or getter that throws: what was taken so far.
  }
  return result as T;
}

/**
 * A catalogue's screen, read without trusting it (a plain-JS page passes anything): none
 * without a tag, so that words and `lang` always come from the same catalogue.
 */
function screenOf(locale: unknown, screen: Screen): unknown {
  try {
    const words = (locale as Record<Screen | 'lang', unknown>)[screen];
    return typeof (locale as { lang?: unknown }).lang == 'string' &&
      words &&
      typeof words == 'object'
      ? words
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language of a screen's words: the catalogue's tag when it has that screen, else English
 * (its words are then English too). For `lang` and for the numbers and plural forms.
 */
export const languageOf = (locale: unknown, screen: Screen): string =>
  screenOf(locale, screen) ? (locale as { lang: string }).lang : ENGLISH;

/**
 * A screen's words: the catalogue's (`locale`), English where it has none, with `overrides`
 * (the merchant's `messages`) on top.
 */
export const wordsOf = <T extends object>(
  english: T,
  screen: Screen,
  locale: unknown,
  overrides: unknown,
): T => overrideWords(overrides, overrideWords(screenOf(locale, screen), english));

/**
 * The Pay step's words: `locale`'s (a catalogue), English without one, with the merchant's
 * overrides on top. Only keys of the table whose value has the table's type are taken.
 */
export const resolveMessages = (overrides: unknown, locale?: unknown): ServiceMessages =>
  wordsOf(DEFAULT_MESSAGES, 'pay', locale, overrides);

/** The result page's words, as resolveMessages takes them. */
export const resolveResultMessages = (
  overrides: unknown,
  locale?: unknown,
): PaymentResultMessages => wordsOf(DEFAULT_RESULT_MESSAGES, 'result', locale, overrides);

/** The handoff panel's words, as resolveMessages takes them. */
export const resolveHandoffMessages = (overrides: unknown, locale?: unknown): HandoffMessages =>
  wordsOf(DEFAULT_HANDOFF_MESSAGES, 'handoff', locale, overrides);

/**
 * servicepay/hosted's words: its own screen (the load failure), and the Pay step's title, label
 * and Pay label, which its placeholder shows while the service's script loads: `locale`'s,
 * else English's (spec 2.2's defaults), without the rest of the Pay step's words.
 */
export const resolveHostedMessages = (
  locale?: unknown,
): HostedMessages & Pick<ServiceMessages, 'title' | 'label' | 'payLabel'> => ({
  ...wordsOf({ title: TITLE, label: LABEL, payLabel: PAY_LABEL }, 'pay', locale, undefined),
  ...wordsOf(DEFAULT_HOSTED_MESSAGES, 'hosted', locale, undefined),
});

/**
 * A counted sentence in `lang`: the form of `count`'s plural category (Intl.PluralRules), else
 * `other`, given `numbers` as `lang` writes them (Intl.NumberFormat).
 */
export function countWords<N extends number[]>(
  forms: Counted<{ [K in keyof N]: string }>,
  lang: string,
  count: number,
  ...numbers: N
): string {
  const form = forms[pluralOf(lang, count)];
  const written = numbers.map((n) => formatNumber(lang, n)) as { [K in keyof N]: string };
  return (typeof form == 'function' ? form : forms.other)(...written);
}

/** What the component tells the shopper about a state, from the messages table. */
export interface ShopperText {
  /** The sentence for `role="alert"`: what went wrong and what to do next; '' when nothing did. */
  alert: string;
  /** The sentence for `role="status"` (loading, slow, opening, awaiting); '' when quiet. */
  status: string;
  /** Why Pay is disabled, shown under it; '' when the shopper can press it. */
  payHint: string;
}
