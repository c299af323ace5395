import { said } from './protocol';
import type { PaymentIds } from './saved-payment';

/**
 * Opens a bank's authorisation page with the merchant's `openUrl`, else in this tab (the one
 * default): at Pay, and when the shopper continues here from a handoff (the session does both).
 * Returns the developer's report when it could not be opened, else undefined: never thrown into
 * the page. `describe` names the error: Pay's report its message (errorMessage), continueHere's
 * `String(error)`, as the handoff panel's always has.
 */
export function openBank(
  openUrl: ((url: string, payment: PaymentIds) => void) | undefined,
  url: string,
  payment: PaymentIds,
  describe: (error: unknown) => string,
): string | undefined {
  try {
    if (openUrl) openUrl(url, payment);
    else location.assign(url);
  } catch (error) {
    return said(`could not open the authorisation URL: ${describe(error)}`);
  }
}
