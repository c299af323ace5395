import { overrideWords } from './messages';
import type { PaymentIds } from './saved-payment';
import type { Institution } from './transport';

// The desktop handoff ("Scan with your phone") and the bank step's opt-in extras (the
// remembered bank, featured banks): their shared facts. The session hands off (session.ts);
// the panel, the QR code and the extras are drawn by a chunk of their own, loaded only when a
// page asks for them (src/react/extras.tsx), so `import { ServicePay }` does not carry them.

/**
 * Where a handoff is offered: a mouse or trackpad (a fine pointer that can hover) on a
 * viewport wider than a phone's. The component's own width does not decide it (a checkout
 * column is ~460 px on a laptop); touch devices and phone widths never see it.
 */
export const HANDOFF_MEDIA = '(hover:hover) and (pointer:fine) and (min-width:600px)';

/** The `localStorage` key of the remembered bank: the institution id, nothing else. */
export const REMEMBERED_BANK_KEY = 'servicepay:bank';

/**
 * A payment handed to the shopper's phone: the QR code's address and whom to ask about it.
 * `state.handoff`, and what `onHandoffShown` receives.
 */
export interface Handoff extends PaymentIds {
  /** The authorisation URL, as the service gave it (http(s), checked). */
  url: string;
  /** The bank chosen, for its name. */
  institution: Institution;
}

/**
 * The words of the handoff panel and of the step's extras: a table of their own (like the
 * result page's), so that a page with only the Pay button does not carry them. Overridden
 * through the same `messages` option as the component's words.
 */
export const DEFAULT_HANDOFF_MESSAGES = {
  /** The handoff panel's heading. */
  handoffHeading: 'Scan with your phone',
  /** Under the heading: what to do, with the bank's name. */
  handoffText: (bank: string) =>
    `Point your phone’s camera at the code, then approve the payment in your ${bank} app.`,
  /** The QR code's text alternative. */
  qrAlt: (bank: string) => `QR code that opens ${bank} on your phone`,
  /** Above the authorisation address, for those who cannot scan. */
  linkIntro: 'Can’t scan? Open this address on your phone:',
  /**
   * In place of linkIntro when the bank's address is on this computer only (the local sandbox
   * on 127.0.0.1), which no phone can open: only developers see it, so it names the flag.
   */
  loopbackNote:
    'A phone can’t open this address: it is on this computer only. To scan, start the sandbox with --host 0.0.0.0 and open this page at this computer’s network address.',
  /** The button that opens the bank on this computer instead (today's redirect). */
  continueHere: 'Continue on this computer',
  /** While the page waits for the payment's outcome. */
  handoffWaiting: 'Keep this page open. It will update when you have approved the payment.',
  /** The group of the remembered bank. */
  lastUsed: 'Last used',
  /** The button that forgets the remembered bank. */
  forgetBank: 'Forget this bank',
  /** Announced once the remembered bank is forgotten. */
  bankForgotten: 'We won’t remember your bank.',
  /** The group of the merchant's featured banks. */
  featured: 'Popular banks',
  /** The full list's heading, under the remembered or featured banks. */
  allBanks: 'All banks',
};

export type HandoffMessages = typeof DEFAULT_HANDOFF_MESSAGES;

/** Whether an address is on the computer that opened it (loopback): no phone reaches it. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)
  );
}

/** The handoff table with a merchant's overrides (as resolveMessages takes them). */
export const resolveHandoffMessages = (overrides: unknown): HandoffMessages =>
  overrideWords(overrides, DEFAULT_HANDOFF_MESSAGES);
