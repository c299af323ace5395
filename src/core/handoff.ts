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

/** Whether an address is on the computer that opened it (loopback): no phone reaches it. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)
  );
}
