import { errorMessage } from './errors';
import { MESSAGE_PREFIX } from './protocol';
import type { PaymentIds } from './saved-payment';

/**
 * Opens a bank's authorisation page with the merchant's `openUrl`, else in this tab (the one
 * default). Returns the developer's report when it could not be opened, else undefined.
 */
export function openBank(
  openUrl: ((url: string, payment: PaymentIds) => void) | undefined,
  url: string,
  payment: PaymentIds,
): string | undefined {
  try {
    (openUrl ?? ((u: string) => window.location.assign(u)))(url, payment);
  } catch (error) {
    return `${MESSAGE_PREFIX}could not open the authorisation URL: ${errorMessage(error)}`;
  }
}
