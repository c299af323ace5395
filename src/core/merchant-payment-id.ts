/**
 * The merchantPaymentId of each payment (spec 4.4 rule 4), one rule for every front door: the
 * payment session (the reimplemented component, window.Service) and servicepay/hosted. Free of
 * other dependencies than the id rule (./protocol), so that servicepay/hosted can import it.
 */
import { warn } from './console';
import { isPaymentId, PAYMENT_ID_RULE } from './protocol';

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts (https, localhost),
 * so pages served over plain http in a LAN test fall back to getRandomValues: every 0 and 1
 * of the template becomes a random hex digit, the 8 one of 8, 9, a, b (the variant).
 */
export const randomId = (): string =>
  crypto.randomUUID?.() ??
  // The digit `d` stays text: `^` and `/` read it as a number.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (d: any) =>
    (d ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (d / 4)))).toString(16),
  );

/**
 * The id of the next payment: `generated` (what the merchant's generateMerchantPaymentId
 * returned; undefined without one, or when it threw) if it is an id by the one rule that no
 * payment of this component used, else a random UUID, with a development warning when
 * something else was given.
 */
export function nextPaymentId(generated: unknown, used: ReadonlySet<string>): string {
  if (isPaymentId(generated) && !used.has(generated)) return generated;
  warnPaymentId(generated, used);
  return randomId();
}

/**
 * In development: an id the merchant gave (a payment's merchantPaymentId, or its generator's)
 * is replaced, because a payment used it already or it is not an id by the rule.
 */
export function warnPaymentId(given: unknown, used: ReadonlySet<string>): void {
  try {
    if (process.env.NODE_ENV !== 'production' && given !== undefined) {
      warn(
        isPaymentId(given) && used.has(given)
          ? `merchantPaymentId "${given}" was already used by a payment; a new one is generated (spec 4.4 rule 4).`
          : `generateMerchantPaymentId gave ${typeof given == 'string' ? JSON.stringify(given) : typeof given}, which ${PAYMENT_ID_RULE}: a random id is used`,
      );
    }
  } catch {
    // No bundler: no warning.
  }
}
