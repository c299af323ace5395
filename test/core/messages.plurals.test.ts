// Golden tests of every counted sentence of the shipped catalogues (issue 49): each at 0, 1, 2,
// 3, 6 and 7, which are Welsh's six plural categories (zero, one, two, few, many, other), in
// both languages, through the machinery the screens use (countWords: Intl.PluralRules and
// Intl.NumberFormat of the catalogue's language). A new counted sentence without its rows
// fails the last test.
import { describe, expect, it } from 'vitest';
import { countWords } from '../../src/core/index';
import type { Catalogue, Counted } from '../../src/core/index';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';

const COUNTS = [0, 1, 2, 3, 6, 7] as const;

/** Each counted sentence: how a screen calls it, with the count as every number in it. */
const SENTENCES: Record<string, (c: Catalogue, n: number) => string> = {
  'pay.moreBanks': (c, n) => countWords(c.pay.moreBanks, c.lang, n, n, n),
};

const GOLDEN: Record<string, Record<'en' | 'cy', string[]>> = {
  'pay.moreBanks': {
    en: [
      'Showing 0 of 0 banks. Type your bank’s name to find it.',
      'Showing 1 of 1 bank. Type your bank’s name to find it.',
      'Showing 2 of 2 banks. Type your bank’s name to find it.',
      'Showing 3 of 3 banks. Type your bank’s name to find it.',
      'Showing 6 of 6 banks. Type your bank’s name to find it.',
      'Showing 7 of 7 banks. Type your bank’s name to find it.',
    ],
    cy: [
      'Yn dangos 0 o 0 banc. Teipiwch enw eich banc i ddod o hyd iddo.',
      'Yn dangos 1 o 1 banc. Teipiwch enw eich banc i ddod o hyd iddo.',
      // Dau fanc: two softens the noun.
      'Yn dangos 2 o 2 fanc. Teipiwch enw eich banc i ddod o hyd iddo.',
      'Yn dangos 3 o 3 banc. Teipiwch enw eich banc i ddod o hyd iddo.',
      'Yn dangos 6 o 6 banc. Teipiwch enw eich banc i ddod o hyd iddo.',
      'Yn dangos 7 o 7 banc. Teipiwch enw eich banc i ddod o hyd iddo.',
    ],
  },
};

describe.each([
  ['en', en],
  ['cy', cy],
] as const)('the counted sentences of %s', (name, catalogue) => {
  it.each(Object.keys(SENTENCES))('%s at 0, 1, 2, 3, 6 and 7', (key) => {
    expect(COUNTS.map((n) => SENTENCES[key]!(catalogue, n))).toEqual(GOLDEN[key]![name]);
  });

  it('writes the numbers as the language does (grouping), counting by the total', () => {
    const line = countWords(catalogue.pay.moreBanks, catalogue.lang, 1350, 200, 1350);
    expect(line).toContain('200');
    expect(line).toContain('1,350');
  });
});

it('Welsh takes all six plural categories at those counts, English two', () => {
  const categories = (lang: string) => COUNTS.map((n) => new Intl.PluralRules(lang).select(n));
  expect(categories(cy.lang)).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  expect(new Set(categories(en.lang))).toEqual(new Set(['one', 'other']));
});

it('every counted sentence of the catalogues has golden rows', () => {
  const counted = (catalogue: Catalogue) =>
    Object.entries(catalogue).flatMap(([screen, words]) =>
      typeof words == 'object'
        ? Object.entries(words as Record<string, unknown>)
            .filter(([, value]) => typeof (value as Counted<[]>)?.other == 'function')
            .map(([key]) => `${screen}.${key}`)
        : [],
    );
  expect(counted(en)).toEqual(Object.keys(GOLDEN));
  expect(counted(cy)).toEqual(Object.keys(GOLDEN));
  expect(Object.keys(SENTENCES)).toEqual(Object.keys(GOLDEN));
});
