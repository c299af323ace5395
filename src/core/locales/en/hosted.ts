import type { HostedMessages } from '../../catalogue';

/** servicepay/hosted's own words, in English (what each is for: HostedMessages). */
export const hosted: HostedMessages = {
  loadFailed: 'We couldn’t load the payment options.',
  retry: 'Try again',
};
