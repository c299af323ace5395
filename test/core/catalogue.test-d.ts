// Type tests of the catalogue type (checked by `npm run typecheck`): the compiler checks a
// catalogue for completeness, so a language missing a word, a screen or a counted sentence's
// `other` form does not compile. Every `@ts-expect-error` must be an error.
import type { Catalogue, Counted, ServiceMessages } from 'servicepay/core';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';
import { cy as namedCy } from 'servicepay/locales/cy';

export const shipped: Catalogue[] = [en, cy, namedCy];

const payWithoutClose: Omit<ServiceMessages, 'close'> = en.pay;
// @ts-expect-error a catalogue missing a word (pay.close) does not compile
export const missingWord: Catalogue = { ...en, pay: payWithoutClose };

const withoutHosted: Omit<Catalogue, 'hosted'> = en;
// @ts-expect-error a catalogue missing a screen does not compile
export const missingScreen: Catalogue = withoutHosted;

// @ts-expect-error nor one without its language tag
export const missingTag: Catalogue = {
  pay: en.pay,
  result: en.result,
  handoff: en.handoff,
  hosted: en.hosted,
};

// @ts-expect-error a counted sentence needs its `other` form
export const noOther: Counted<[string, string]> = { one: (shown, total) => `${shown}/${total}` };

export const moreBanks: ServiceMessages['moreBanks'] = {
  // @ts-expect-error a form is a function of the numbers, not a string
  one: 'one bank',
  other: (shown, total) => `${shown}/${total}`,
};

// @ts-expect-error a category Intl.PluralRules does not have
export const badCategory: Counted<[string]> = { other: (n) => n, several: (n) => n };

// @ts-expect-error a word of the wrong type (a sentence is a string)
export const wrongType: Catalogue = { ...en, pay: { ...en.pay, chooseBank: 42 } };
