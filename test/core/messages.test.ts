// The shopper's words as a screen takes them (src/core/messages.ts): the catalogue's screen over
// English, the merchant's `messages` over that, through one loop, and the language they are in.
// And the two shipped catalogues: complete, and Welsh wholly Welsh.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HANDOFF_MESSAGES,
  DEFAULT_MESSAGES,
  DEFAULT_RESULT_MESSAGES,
  countWords,
  formatNumber,
  languageOf,
  payStep,
  resolveHandoffMessages,
  resolveMessages,
  resolveResultMessages,
} from '../../src/core/index';
import type { Catalogue, PayStepActions, SessionState } from '../../src/core/index';
import { initialState } from '../../src/core/session-reducer';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';
import { catalogueSentences, wordsOf } from '../helpers/shopper-text';

describe('the English catalogue', () => {
  it('is the one home of the defaults: DEFAULT_*_MESSAGES are its screens', () => {
    expect(DEFAULT_MESSAGES).toBe(en.pay);
    expect(DEFAULT_RESULT_MESSAGES).toBe(en.result);
    expect(DEFAULT_HANDOFF_MESSAGES).toBe(en.handoff);
    expect(en.lang).toBe('en-GB');
  });
});

describe('the Welsh catalogue', () => {
  const sentences = catalogueSentences;
  const words = wordsOf;

  it('has every key of English, each said, and its tag', () => {
    expect(cy.lang).toBe('cy');
    const keys = (catalogue: Catalogue) => sentences(catalogue).map(([key]) => key);
    expect(new Set(keys(cy))).toEqual(new Set(keys(en)));
    for (const [key, text] of sentences(cy)) expect(text.trim(), key).not.toBe('');
  });

  it('uses no English word that Welsh does not (the bank’s name aside)', () => {
    const welsh = new Set(sentences(cy).flatMap(([, text]) => words(text)));
    const english = new Set(sentences(en).flatMap(([, text]) => words(text)));
    // Words both languages write (Welsh "all": can; "at": to), the sandbox's flag and QR.
    const both = ['a', 'i', 'o', 'at', 'all', 'host', 'qr'];
    const leaks = sentences(cy).flatMap(([key, text]) =>
      words(text.replace('Monzo', ''))
        .filter((word) => english.has(word) && !both.includes(word))
        .map((word) => `${key}: ${word}`),
    );
    expect(leaks).toEqual([]);
    expect(welsh.has('talu')).toBe(true);
  });

  it('writes “with” before a bank as Welsh does: â, and ag before a vowel', () => {
    expect(cy.pay.payFailed('Barclays')).toContain('cysylltu â Barclays');
    expect(cy.pay.payFailed('Allied Irish Bank')).toContain('cysylltu ag Allied Irish Bank');
  });
});

describe('resolving a screen’s words', () => {
  it('takes the catalogue’s, then the merchant’s messages on top', () => {
    expect(resolveMessages(undefined, cy)).toEqual(cy.pay);
    const words = resolveMessages({ close: 'Gadael' }, cy);
    expect(words.close).toBe('Gadael');
    expect(words.chooseBank).toBe(cy.pay.chooseBank);
    expect(resolveResultMessages({ received: 'Diolch!' }, cy).received).toBe('Diolch!');
    expect(resolveHandoffMessages(undefined, cy)).toEqual(cy.handoff);
    expect(resolveMessages(undefined)).toEqual(en.pay);
  });

  it('falls back to English, never to nothing: a missing word, screen or tag', () => {
    const partial = { lang: 'cy', pay: { close: 'Cau', title: 42 } };
    expect(resolveMessages(undefined, partial).close).toBe('Cau');
    // A word of the wrong type, or missing, is English's.
    expect(resolveMessages(undefined, partial).title).toBe(en.pay.title);
    expect(resolveMessages(undefined, partial).chooseBank).toBe(en.pay.chooseBank);
    // A missing screen is English's, and so is its language.
    expect(resolveResultMessages(undefined, partial)).toEqual(en.result);
    expect(languageOf(partial, 'result')).toBe('en-GB');
    expect(languageOf(partial, 'pay')).toBe('cy');
    // Without a tag the catalogue is not used at all, so words and `lang` agree.
    const untagged = { ...cy, lang: undefined };
    expect(resolveMessages(undefined, untagged)).toEqual(en.pay);
    expect(languageOf(untagged, 'pay')).toBe('en-GB');
    // A tag Intl refuses (a typo): its words, and numbers written as English writes them,
    // never an exception while rendering.
    const mistyped = { ...cy, lang: 'cy_GB' };
    expect(resolveMessages(undefined, mistyped)).toEqual(cy.pay);
    expect(formatNumber('cy_GB', 1234.5, true)).toBe('1,234.50');
    expect(countWords(cy.pay.moreBanks, 'cy_GB', 2, 2, 2)).toContain('2 o 2 banc');
    for (const hostile of [
      null,
      'cy',
      42,
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('x');
          },
        },
      ),
    ]) {
      expect(resolveMessages(undefined, hostile)).toEqual(en.pay);
      expect(languageOf(hostile, 'pay')).toBe('en-GB');
    }
  });

  it('refuses a counted sentence without its `other` form, in a catalogue or in messages', () => {
    const words = resolveMessages({ moreBanks: { one: () => 'one' } });
    expect(words.moreBanks).toBe(en.pay.moreBanks);
    const own = { other: () => 'many' };
    expect(resolveMessages({ moreBanks: own }, cy).moreBanks).toBe(own);
  });
});

describe('numbers in the catalogue’s language', () => {
  const state = (amount: number): SessionState => ({
    ...initialState('00000000-0000-4000-8000-000000000000', true, ''),
    prepared: {
      amount,
      reference: 'R',
      merchantPaymentId: undefined,
      metadata: undefined,
      agentType: undefined,
    },
  });
  const actions = {} as PayStepActions;

  it('writes the Pay button’s amount as the language does, the £ the payLabel’s', () => {
    expect(payStep(state(1234.5), en.pay, actions).label).toBe('Pay £1,234.50');
    expect(payStep(state(12.5), cy.pay, actions, 'cy').label).toBe('Talu £12.50');
    // A language that writes numbers otherwise (French: a space between thousands, a decimal
    // comma); the payLabel, as spec 2.2 has it, puts the £ before.
    expect(payStep(state(1234.5), { ...en.pay, payLabel: 'Payer £' }, actions, 'fr').label).toBe(
      `Payer £${formatNumber('fr', 1234.5, true)}`,
    );
    expect(formatNumber('fr', 1234.5, true)).toMatch(/^1\s234,50$/);
  });
});
