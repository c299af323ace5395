import type { SessionState } from './state';

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
  /** The banks could not be loaded. */
  loadFailed: 'We couldn’t load the banks. Check your connection and try again.',
  /** The shop's set-up stops payments (a merchant's mistake): nothing the shopper can retry. */
  unavailable: 'Paying by bank isn’t available. Please choose another way to pay.',
  /** Nothing matched the search. */
  noMatch: (query: string) => `No bank matches “${query}”. Try fewer letters.`,
  /** The backend lists no banks. */
  noBanks: 'No banks are available. Please try again later.',
  /** Announced and shown on the Pay button while the bank's page is being opened. */
  opening: (bank: string) => `Opening ${bank}…`,
  /** After the bank's page opened. */
  awaiting: 'Continue in your bank’s page or app.',
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
  const messages = { ...DEFAULT_MESSAGES };
  try {
    for (const key in messages) {
      const value = (overrides as Record<string, unknown> | undefined)?.[key];
      const k = key as keyof ServiceMessages;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked by typeof
      if (typeof value === typeof messages[k]) (messages as any)[k] = value;
    }
  } catch {
    // A Proxy or getter that throws: the defaults.
  }
  return messages;
}

/** What the component tells the shopper about a state, from the messages table. */
export interface ShopperText {
  /** The sentence for `role="alert"`: what went wrong and what to do next; '' when nothing did. */
  alert: string;
  /** The sentence for `role="status"` (loading, slow, opening, awaiting); '' when quiet. */
  status: string;
  /** Why Pay is disabled, shown under it; '' when the shopper can pay. */
  payHint: string;
}

/** The shopper's words for a state (shared by `<ServicePay>`, `window.Service` and the hook). */
export function shopperText(state: SessionState, messages: ServiceMessages): ShopperText {
  const { problem, status, selectedInstitution: bank } = state;
  return {
    alert:
      problem === 'pay-failed'
        ? messages.payFailed(bank?.name ?? '')
        : problem === 'load-failed'
          ? messages.loadFailed
          : '',
    status:
      status === 'loading'
        ? state.slow
          ? messages.slow
          : messages.loading
        : status === 'initiating'
          ? messages.opening(bank?.name ?? '')
          : status === 'awaiting-authorisation'
            ? messages.awaiting
            : '',
    payHint:
      // The shop's set-up stops payments: said once, under the disabled Pay button.
      problem === 'unavailable'
        ? messages.unavailable
        : state.paymentInvalid
          ? messages.paymentInvalid
          : !state.prepared
            ? messages.paymentNotReady
            : state.payButtonEnabled
              ? ''
              : messages.payUnavailable,
  };
}
