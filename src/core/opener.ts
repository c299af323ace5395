import type { ServiceError } from './events';
import { MESSAGE_PREFIX } from './protocol';
import type { PaymentIds } from './saved-payment';

// How a bank's authorisation page is opened, in one place: by the session, and by a handoff
// continued on this computer (the component's panel and the headless hook).

/** Where a bank's page opens without the merchant's `openUrl`: in this tab (the one default). */
export const openHere = (url: string) => location.assign(url);

/**
 * Opens a handed-off payment's bank page on this computer ("Continue on this computer"): with
 * the merchant's `openUrl`, else here. A page that could not be opened is reported once, as
 * the session reports one (at `payWithBankInstitution`, to `errorConsumer`, else the
 * console), never thrown into the page. The session writes that sentence inline: calling a
 * helper from there costs every Pay button's bundle bytes. `String(error)`, not the session's
 * errorMessage: that would bring the validation chunk into the extras' bundle.
 */
export function openHandoff(
  options: {
    openUrl?: (url: string, payment: PaymentIds) => void;
    errorConsumer?: (error: ServiceError) => void;
  },
  url: string,
  payment: PaymentIds,
): void {
  try {
    (options.openUrl ?? openHere)(url, payment);
  } catch (error) {
    const report: ServiceError = {
      location: 'payWithBankInstitution',
      error: `${MESSAGE_PREFIX}could not open the authorisation URL: ${String(error)}`,
    };
    if (!options.errorConsumer) console.error(report.error);
    try {
      options.errorConsumer?.(report);
    } catch {
      // Merchant code: never into the page.
    }
  }
}
