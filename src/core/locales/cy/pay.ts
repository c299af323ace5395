import type { ServiceMessages } from '../../catalogue';

// Welsh as a Welsh-language public service writes it: plain, second person, the terms the UK's
// Welsh payment pages use ("Talu" for Pay), and the mutations a preposition or a number asks
// for, noted where they happen. The glossary and who wrote it: docs/languages.md.

/**
 * "with" before a bank's name: `â`, and `ag` before a vowel (â Barclays, ag Allied Irish Bank).
 * A bank's name is its own and is never mutated.
 */
const withBank = (bank: string) => `${/^[aeiouwyâêîôûŵŷ]/i.test(bank) ? 'ag' : 'â'} ${bank}`;

/**
 * "Showing 200 of 350 banks": a number takes the singular noun in Welsh (tri banc, saith banc),
 * and two softens it (dau fanc). Tri and chwe would aspirate c, p and t, not b: "banc" stays.
 */
const showing = (noun: string) => (shown: string, total: string) =>
  `Yn dangos ${shown} o ${total} ${noun}. Teipiwch enw eich banc i ddod o hyd iddo.`;

/** The Pay step and the bank step, in Welsh (what each is for: ServiceMessages). */
export const pay: ServiceMessages = {
  title: 'Talu gyda’ch ap bancio',
  label: 'Talu’n ddiogel gyda’ch ap bancio',
  payLabel: 'Talu £',
  payUnavailable: 'Nid yw’r taliad ar gael eto.',
  paymentNotReady: 'Wrthi’n paratoi eich taliad…',
  paymentInvalid: 'Nid oes modd gwneud y taliad hwn. Cysylltwch â’r siop.',
  chooseBank: 'Dewiswch eich banc',
  close: 'Cau',
  search: 'Chwiliwch am eich banc',
  banks: 'Banciau',
  loading: 'Wrthi’n llwytho’r banciau…',
  slow: 'Mae hyn yn cymryd mwy o amser nag arfer.',
  retry: 'Rhowch gynnig arall arni',
  loadFailed: 'Nid oedd modd llwytho’r banciau y tro hwn. Rhowch gynnig arall arni.',
  // "o dalu": talu softens after "o".
  unavailable: 'Nid yw talu drwy’r banc ar gael. Dewiswch ffordd arall o dalu.',
  // "ar lai o lythrennau": llai softens after "ar", llythrennau after "o".
  noMatch: (query) => `Nid oes banc yn cyfateb i “${query}”. Rhowch gynnig ar lai o lythrennau.`,
  moreBanks: {
    zero: showing('banc'),
    one: showing('banc'),
    two: showing('fanc'),
    few: showing('banc'),
    many: showing('banc'),
    other: showing('banc'),
  },
  noBanks: 'Nid oes banciau ar gael. Rhowch gynnig arall arni yn nes ymlaen.',
  opening: (bank) => `Wrthi’n agor ${bank}…`,
  // "ar dudalen": tudalen softens after "ar".
  awaiting: 'Ewch ymlaen ar dudalen neu ap eich banc.',
  bankUnavailable: 'Ddim ar gael ar hyn o bryd',
  // "dewiswch fanc arall": the object of a command softens (banc → fanc).
  payFailed: (bank) =>
    `Nid oedd modd cysylltu ${withBank(bank)}. Rhowch gynnig arall arni neu dewiswch fanc arall.`,
};
