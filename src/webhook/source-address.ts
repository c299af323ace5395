/**
 * The source-address allowlist (spec 5.1.7). Addresses are compared in canonical form, so
 * `::ffff:203.0.113.7` (an IPv4 client on a dual-stack socket) matches `203.0.113.7` and
 * IPv6 spellings such as `0:0::1` match `::1`. The WHATWG URL parser does the canonicalising:
 * it is available on every runtime and already knows every legal spelling.
 */
import { WebhookConfigError } from './errors';

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** The canonical form of an IP address, or null when the text is not one. */
export function canonicalAddress(address: string): string | null {
  // A zone index (fe80::1%eth0) names the local interface, not the peer: compare without it.
  const text = address.trim().replace(/%[^\]]*/, '');
  const mapped = MAPPED_DOTTED.exec(text);
  if (mapped) return canonicalAddress(mapped[1] ?? '');
  try {
    if (text.includes(':')) {
      const host = new URL(`http://[${text.replace(/^\[|\]$/g, '')}]/`).hostname.slice(1, -1);
      const hex = MAPPED_HEX.exec(host);
      if (!hex) return host;
      const high = parseInt(hex[1] ?? '0', 16);
      const low = parseInt(hex[2] ?? '0', 16);
      return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
    }
    // Only plain dotted quads: the URL parser would also accept host names and "127.1".
    if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(text)) return null;
    return new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
}

/** A predicate for the allowlist, or null when every address is allowed. */
export function createAddressFilter(
  allowed: readonly string[] | undefined,
): ((address: string | null | undefined) => boolean) | null {
  if (allowed === undefined) return null;
  if (!Array.isArray(allowed) || allowed.length === 0) {
    throw new WebhookConfigError(
      'servicepay: allowedSourceAddresses must be a non-empty array of IP addresses (the service static address for the environment), or left out.',
      'allowedSourceAddresses',
    );
  }
  const set = new Set<string>();
  for (const address of allowed) {
    const canonical = typeof address === 'string' ? canonicalAddress(address) : null;
    if (canonical === null) {
      throw new WebhookConfigError(
        `servicepay: allowedSourceAddresses holds ${JSON.stringify(address)}, which is not an IP address; list exact addresses (ranges are not supported).`,
        'allowedSourceAddresses',
      );
    }
    set.add(canonical);
  }
  return (address) => {
    if (typeof address !== 'string') return false;
    const canonical = canonicalAddress(address);
    return canonical !== null && set.has(canonical);
  };
}
