import type { ServiceMessages } from '../../catalogue';

// The spec's defaults of the title, label and Pay label options (spec 2.2), which the
// service's own component shows too: named, so that servicepay/hosted's placeholder and the
// root entry's DEFAULT_TITLE, DEFAULT_LABEL and DEFAULT_PAY_LABEL read them without the rest.
export const TITLE = 'Pay with your banking app';
export const LABEL = 'Pay securely with your banking app';
export const PAY_LABEL = 'Pay £';

/** The Pay step and the bank step, in English (what each is for: ServiceMessages). */
export const pay: ServiceMessages = {
  title: TITLE,
  label: LABEL,
  payLabel: PAY_LABEL,
  payUnavailable: 'Payment is not available yet.',
  paymentNotReady: 'Preparing your payment…',
  paymentInvalid: 'This payment can’t be made. Please contact the shop.',
  chooseBank: 'Choose your bank',
  close: 'Close',
  search: 'Search for your bank',
  banks: 'Banks',
  loading: 'Loading banks…',
  slow: 'This is taking longer than usual.',
  retry: 'Try again',
  loadFailed: 'We couldn’t load the banks just now. Please try again.',
  unavailable: 'Paying by bank isn’t available. Please choose another way to pay.',
  noMatch: (query) => `No bank matches “${query}”. Try fewer letters.`,
  moreBanks: {
    one: (shown, total) => `Showing ${shown} of ${total} bank. Type your bank’s name to find it.`,
    other: (shown, total) =>
      `Showing ${shown} of ${total} banks. Type your bank’s name to find it.`,
  },
  noBanks: 'No banks are available. Please try again later.',
  opening: (bank) => `Opening ${bank}…`,
  awaiting: 'Continue in your bank’s page or app.',
  bankUnavailable: 'Unavailable right now',
  payFailed: (bank) => `We couldn’t reach ${bank}. Try again or choose another bank.`,
};
