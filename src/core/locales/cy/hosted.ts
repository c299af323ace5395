import type { HostedMessages } from '../../catalogue';

/** servicepay/hosted's own words, in Welsh (what each is for: HostedMessages). */
export const hosted: HostedMessages = {
  loadFailed: 'Nid oedd modd llwytho’r opsiynau talu.',
  retry: 'Rhowch gynnig arall arni',
};
