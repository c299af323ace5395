/**
 * Every word the component shows or announces to the shopper, in one table that React's
 * `<ServicePay>` and `window.Service` share. Merchants override any part of it (`messages`
 * option) to translate or reword. These are the shopper's words only: the developer's detail
 * (the spec's error strings) goes to `errorConsumer`, never on screen.
 */
export const DEFAULT_MESSAGES = {
  /** The component's title (the `title` option wins over it). */
  title: 'Pay with your banking app',
  /** The line under the title (the `label` option wins over it). */
  label: 'Pay securely with your banking app',
  /** The Pay button, before the amount (the `payLabel` option wins over it). */
  payLabel: 'Pay £',
  /** Under the disabled Pay button while the merchant has it switched off (`toggleButton(false)`). */
  payUnavailable: 'Payment is not available yet.',
  /** Under the disabled Pay button before the shop has given a payment. */
  paymentNotReady: 'Preparing your payment…',
  /** Under the disabled Pay button when the shop's payment details were refused. */
  paymentInvalid: 'This payment can’t be made. Please contact the shop.',
  /** The heading of the open bank step. */
  chooseBank: 'Choose your bank',
  /** The control that closes the bank step. */
  close: 'Close',
  /** Label and placeholder of the search field (shown above eight banks). */
  search: 'Search for your bank',
  /** The accessible name of the set of banks. */
  banks: 'Banks',
  /** Announced while the banks load. */
  loading: 'Loading banks…',
  /** Shown when the banks take more than a few seconds, beside a retry. */
  slow: 'This is taking longer than usual.',
  /** The retry action (slow or failed load). */
  retry: 'Try again',
  /**
   * The banks could not be loaded: the shop's backend, as often as the shopper's connection, so
   * neither is blamed.
   */
  loadFailed: 'We couldn’t load the banks just now. Please try again.',
  /** The shop's set-up stops payments (a merchant's mistake): nothing the shopper can retry. */
  unavailable: 'Paying by bank isn’t available. Please choose another way to pay.',
  /** Nothing matched the search. */
  noMatch: (query: string) => `No bank matches “${query}”. Try fewer letters.`,
  /**
   * Under the list when more banks match than it shows at once (`MAX_SHOWN_INSTITUTIONS`, 200):
   * with no search, or a search that matches many. Announced politely as the count changes.
   * The numbers come unformatted (real lists hold hundreds, so no thousands separator is
   * needed, and none is paid for in bytes); a translation may format them.
   */
  moreBanks: (shown: number, total: number) =>
    `Showing ${shown} of ${total} banks. Type your bank’s name to find it.`,
  /** The backend lists no banks. */
  noBanks: 'No banks are available. Please try again later.',
  /** Announced and shown on the Pay button while the bank's page is being opened. */
  opening: (bank: string) => `Opening ${bank}…`,
  /** After the bank's page opened. */
  awaiting: 'Continue in your bank’s page or app.',
  /** Under a bank that is down or refusing payments (shown, not payable). */
  bankUnavailable: 'Unavailable right now',
  /** Starting the payment at a bank failed. */
  payFailed: (bank: string) => `We couldn’t reach ${bank}. Try again or choose another bank.`,
};

/** The whole table: what the component uses. */
export type ServiceMessages = typeof DEFAULT_MESSAGES;

/** The `messages` option: any part of the table. */
export type ServiceMessagesOption = Partial<ServiceMessages>;

/**
 * The defaults with a merchant's overrides. Only keys of the table whose value has the
 * default's type are taken, so a plain-JS typo or a wrong value can never blank the UI.
 */
export function resolveMessages(overrides: unknown): ServiceMessages {
  const messages: Record<string, unknown> = { ...DEFAULT_MESSAGES };
  try {
    for (const key in messages) {
      const value = (overrides as Record<string, unknown> | undefined)?.[key];
      if (typeof value === typeof messages[key]) messages[key] = value;
    }
  } catch {
    // A Proxy or getter that throws: the defaults.
  }
  return messages as ServiceMessages;
}

/**
 * A table of words with a merchant's overrides, taken as resolveMessages takes them: the
 * handoff's and the result page's tables. Not resolveMessages itself: a parameter there would
 * add bytes to every Pay button's bundle, and its default would bring the component's words
 * into the bundles that show only these.
 */
export function overrideWords<T extends object>(overrides: unknown, defaults: T): T {
  const words = { ...defaults } as Record<string, unknown>;
  try {
    for (const key in words) {
      const value = (overrides as Record<string, unknown> | undefined)?.[key];
      if (typeof value === typeof words[key]) words[key] = value;
    }
  } catch {
    // A Proxy or getter that throws: the defaults.
  }
  return words as T;
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

/**
 * The result page's words (`<PaymentResult>`, `usePaymentResult`, `ServiceResult`): a table
 * of its own, so that a page with only the Pay button does not carry them. Each state has a
 * heading and a sentence saying what it means and what to do.
 */
export const DEFAULT_RESULT_MESSAGES = {
  /** The heading while the page waits for the shop's server to hear from the bank. */
  waiting: 'Waiting for your bank to confirm…',
  /** Under the waiting heading. */
  waitingText: 'This usually takes a few seconds. Please keep this page open.',
  /**
   * The heading once the bank takes longer than `notHeardAfterMs` (a minute): ordinary for a
   * payment the bank checks. The page keeps listening and changes by itself.
   */
  stillConfirming: 'Your bank is still confirming this payment',
  /** Under the still-confirming heading, above the shop's own sentence (`pendingNotice`). */
  stillConfirmingText:
    'This can take a few minutes, sometimes longer. You can close this page: it doesn’t affect your payment. If you keep it open, it will update by itself.',
  /** The heading once the bank has confirmed the payment. */
  received: 'Payment received',
  /** Under the received heading. */
  receivedText: 'Thank you. Your bank has confirmed your payment.',
  /** The heading when the bank did not complete the payment. */
  notCompleted: 'Payment not completed',
  /** Under the not-completed heading, above Try again. */
  notCompletedText:
    'Your bank didn’t complete the payment, so no money has been taken. You can try again.',
  /**
   * The heading when the bank reported the payment but it does not match the order (another
   * amount or reference): money may have moved, so neither received nor not completed.
   */
  needsReview: 'We need to check this payment',
  /** Under the needs-review heading, above the shop's own contact (`reviewContact`). */
  needsReviewText:
    'The shop will check it and be in touch. Please don’t pay again in the meantime.',
  /** The action after a payment that was not completed (shown when the shop wires it). */
  tryAgain: 'Try again',
  /** The heading when nothing was heard within the wait (`stopListeningAfterMs`, 30 minutes). */
  notHeard: 'We haven’t heard from your bank yet',
  /** Under the not-heard heading, above Check again. */
  notHeardText:
    'Check your banking app. If the payment is there, there is nothing more to do: the shop will confirm it as soon as your bank tells it. If it isn’t there, no money has been taken.',
  /** The action that waits again after nothing was heard. */
  checkAgain: 'Check again',
  /** The heading when the page has no payment to look for. */
  notFound: 'We can’t find your payment',
  /** Under the not-found heading. */
  notFoundText:
    'This page didn’t receive the details of a payment. If you paid, check your banking app or contact the shop.',
};

/** The result page's table. */
export type PaymentResultMessages = typeof DEFAULT_RESULT_MESSAGES;

/** The result page's defaults with a merchant's overrides (as resolveMessages takes them). */
export const resolveResultMessages = (overrides: unknown): PaymentResultMessages =>
  overrideWords(overrides, DEFAULT_RESULT_MESSAGES);
