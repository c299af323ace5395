/**
 * What a catalogue is: every word the library shows or reads out to a shopper, in one language,
 * screen by screen. The English catalogue (./locales/en) and the Welsh one (./locales/cy) are
 * written against these types, and so is any a merchant writes: the compiler checks that
 * nothing is missing (test/core/catalogue.test-d.ts). These are the shopper's words only: the
 * developer's detail (the spec's error strings) goes to `errorConsumer`, never on screen.
 * docs/languages.md has the glossary, the catalogues and how to add a language.
 */

/**
 * A sentence with a number in it: one form per plural category of the language, as
 * `Intl.PluralRules` names them (zero, one, two, few, many, other), each a function of the
 * sentence's numbers, already written as the language writes numbers. `other` is required and
 * stands for every category left out: English needs `one` and `other`; Welsh uses all six.
 */
export type Counted<Args extends string[]> = { other: (...numbers: Args) => string } & {
  [Category in Exclude<Intl.LDMLPluralRule, 'other'>]?: (...numbers: Args) => string;
};

/**
 * The Pay step and the bank step: `<ServicePay>`, `useServicePayment` and `window.Service`.
 * Merchants override any part of it (the `messages` option).
 */
export interface ServiceMessages {
  /** The component's title (the `title` option wins over it). */
  title: string;
  /** The line under the title (the `label` option wins over it). */
  label: string;
  /**
   * The Pay button, before the amount (the `payLabel` option wins over it). A trailing `£` is
   * left out while there is no amount: "Pay", never "Pay £".
   */
  payLabel: string;
  /** Under the disabled Pay button while the merchant has it switched off (`toggleButton(false)`). */
  payUnavailable: string;
  /** Under the disabled Pay button before the shop has given a payment. */
  paymentNotReady: string;
  /** Under the disabled Pay button when the shop's payment details were refused. */
  paymentInvalid: string;
  /** The heading of the open bank step. */
  chooseBank: string;
  /** The control that closes the bank step. */
  close: string;
  /** Label and placeholder of the search field (shown above eight banks). */
  search: string;
  /** The accessible name of the set of banks. */
  banks: string;
  /** Announced while the banks load. */
  loading: string;
  /** Shown when the banks take more than a few seconds, beside a retry. */
  slow: string;
  /** The retry action (slow or failed load). */
  retry: string;
  /**
   * The banks could not be loaded: the shop's backend, as often as the shopper's connection, so
   * neither is blamed.
   */
  loadFailed: string;
  /** The shop's set-up stops payments (a merchant's mistake): nothing the shopper can retry. */
  unavailable: string;
  /** Nothing matched the search (the shopper's own words, as typed). */
  noMatch: (query: string) => string;
  /**
   * Under the list when more banks match than it shows at once (`MAX_SHOWN_INSTITUTIONS`, 200):
   * with no search, or a search that matches many. Counted by `total`; announced politely as
   * the count changes.
   */
  moreBanks: Counted<[shown: string, total: string]>;
  /** The backend lists no banks. */
  noBanks: string;
  /** Announced and shown on the Pay button while the bank's page is being opened. */
  opening: (bank: string) => string;
  /** After the bank's page opened. */
  awaiting: string;
  /** Under a bank that is down or refusing payments (shown, not payable). */
  bankUnavailable: string;
  /** Starting the payment at a bank failed. */
  payFailed: (bank: string) => string;
}

/**
 * The result page: `<PaymentResult>`, `usePaymentResult`, `ServiceResult`, and the handoff
 * panel's outcomes. Each state has a heading (the state's name in camelCase) and a sentence
 * under it (the same name with `Text`) saying what it means and what to do; the `paid` terms
 * list what was paid.
 */
export interface PaymentResultMessages {
  /** The heading while the page waits for the shop's server to hear from the bank. */
  waiting: string;
  /** Under the waiting heading. */
  waitingText: string;
  /**
   * The heading once the bank takes longer than `notHeardAfterMs` (a minute): ordinary for a
   * payment the bank checks. The page keeps listening and changes by itself.
   */
  stillConfirming: string;
  /** Under the still-confirming heading, above the shop's own sentence (`pendingNotice`). */
  stillConfirmingText: string;
  /** The heading once the bank has confirmed the payment. */
  received: string;
  /** Under the received heading. */
  receivedText: string;
  /** The heading when the bank did not complete the payment. */
  notCompleted: string;
  /** Under the not-completed heading, above Try again. */
  notCompletedText: string;
  /**
   * The heading when the bank reported the payment but it does not match the order (another
   * amount or reference): money may have moved, so neither received nor not completed.
   */
  needsReview: string;
  /** Under the needs-review heading, above the shop's own contact (`reviewContact`). */
  needsReviewText: string;
  /**
   * What was paid, when the shop's status endpoint says (`paid`), listed under the received or
   * needs-review sentence: the term before the amount (£12.50).
   */
  paidAmount: string;
  /** The term before whom it was paid to (the shop's name, as the shop gives it). */
  paidTo: string;
  /** The term before the payment's reference (as the shop gives it). */
  paidReference: string;
  /** The action after a payment that was not completed (shown when the shop wires it). */
  tryAgain: string;
  /** The heading when nothing was heard within the wait (`stopListeningAfterMs`, 30 minutes). */
  notHeard: string;
  /** Under the not-heard heading, above Check again. */
  notHeardText: string;
  /** The action that waits again after nothing was heard. */
  checkAgain: string;
  /** The heading when the page has no payment to look for. */
  notFound: string;
  /** Under the not-found heading. */
  notFoundText: string;
}

/**
 * The desktop handoff panel and the bank step's extras (servicepay/extras). Overridden through
 * the same `messages` option as the component's words.
 */
export interface HandoffMessages {
  /** The handoff panel's heading. */
  handoffHeading: string;
  /** Under the heading: what to do, with the bank's name. */
  handoffText: (bank: string) => string;
  /** The QR code's text alternative. */
  qrAlt: (bank: string) => string;
  /** Above the authorisation address, for those who cannot scan. */
  linkIntro: string;
  /**
   * In place of linkIntro when the bank's address is on this computer only (the local sandbox
   * on 127.0.0.1), which no phone can open: only developers see it, so it names the flag.
   */
  loopbackNote: string;
  /** The button that opens the bank on this computer instead (today's redirect). */
  continueHere: string;
  /** While the page waits for the payment's outcome. */
  handoffWaiting: string;
  /** The group of the remembered bank. */
  lastUsed: string;
  /** The button that forgets the remembered bank. */
  forgetBank: string;
  /** Announced once the remembered bank is forgotten. */
  bankForgotten: string;
  /** The group of the merchant's featured banks. */
  featured: string;
  /** The full list's heading, under the remembered or featured banks. */
  allBanks: string;
}

/**
 * servicepay/hosted's own words, around the service's component: its placeholder shows the Pay
 * step's `title`, `label` and `payLabel` while the service's script loads, and these when it
 * cannot.
 */
export interface HostedMessages {
  /** The service's script could not be loaded. */
  loadFailed: string;
  /** The action that loads it again. */
  retry: string;
}

/**
 * One language's words for every screen the library draws. Give one as `locale`
 * (`import cy from 'servicepay/locales/cy'`); `messages` overrides still apply on top of it.
 */
export interface Catalogue {
  /**
   * The language's tag (BCP 47: `'cy'`, `'en-GB'`, `'fr'`): the `lang` of every element drawn
   * in these words (WCAG 3.1.2), and the language numbers and plural forms follow.
   */
  lang: string;
  /** The Pay step and the bank step. */
  pay: ServiceMessages;
  /** The result page, and the outcomes of the handoff panel. */
  result: PaymentResultMessages;
  /** The handoff panel and the bank step's extras. */
  handoff: HandoffMessages;
  /** servicepay/hosted's placeholder and load failure. */
  hosted: HostedMessages;
}
