import { errorMessage } from './errors';
import { MESSAGE_PREFIX } from './protocol';
import type { PaymentIds } from './saved-payment';

/**
 * Opens a bank's authorisation page with the merchant's `openUrl`, else in this tab (the one
 * default): at Pay, and when the shopper continues here from a handoff. Returns the developer's
 * report when it could not be opened, else undefined: never thrown into the page. `describe`:
 * continueHere's report names the error (`String`), as the handoff panel's always has.
 */
export function openBank(
  openUrl: ((url: string, payment: PaymentIds) => void) | undefined,
  url: string,
  payment: PaymentIds,
  describe: (error: unknown) => string = errorMessage,
): string | undefined {
  try {
    (openUrl ?? ((u: string) => window.location.assign(u)))(url, payment);
  } catch (error) {
    return `${MESSAGE_PREFIX}could not open the authorisation URL: ${describe(error)}`;
  }
}
