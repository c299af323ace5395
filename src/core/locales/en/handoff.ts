import type { HandoffMessages } from '../../catalogue';

/** The handoff panel and the bank step's extras, in English (what each is for: HandoffMessages). */
export const handoff: HandoffMessages = {
  handoffHeading: 'Scan with your phone',
  handoffText: (bank) =>
    `Point your phone’s camera at the code, then approve the payment in your ${bank} app.`,
  qrAlt: (bank) => `QR code that opens ${bank} on your phone`,
  linkIntro: 'Can’t scan? Open this address on your phone:',
  loopbackNote:
    'A phone can’t open this address: it is on this computer only. To scan, start the sandbox with --host 0.0.0.0 and open this page at this computer’s network address.',
  continueHere: 'Continue on this computer',
  handoffWaiting: 'Keep this page open. It will update when you have approved the payment.',
  lastUsed: 'Last used',
  forgetBank: 'Forget this bank',
  bankForgotten: 'We won’t remember your bank.',
  featured: 'Popular banks',
  allBanks: 'All banks',
};
