import { MESSAGE_PREFIX } from './protocol';
import type { PaymentIds } from './saved-payment';
import { opened } from './session-events';
import type { SessionWiring } from './session-api';

/**
 * Opens a bank's authorisation page with the merchant's `openUrl`, else in this tab (the one
 * default): at Pay, and when the shopper continues here from a handoff. Returns the developer's
 * report when it could not be opened, else undefined: never thrown into the page. `describe`
 * names the error: Pay's report its message (errorMessage), continueHere's `String(error)`, as
 * the handoff panel's always has (and errors.ts would bring the validation chunk into the
 * extras' bundle).
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
    return `${MESSAGE_PREFIX}could not open the authorisation URL: ${describe(error)}`;
  }
}

/**
 * `session.continueHere()` during a handoff (the extras wire it: SessionWiring.continueHere):
 * the handoff region is left, as when the bank's page opened here, then the page opens here;
 * a failure is reported as Pay reports one, never thrown into the page.
 */
export const continueHandoff =
  (
    openUrl: ((url: string, payment: PaymentIds) => void) | undefined,
  ): SessionWiring['continueHere'] =>
  (state, dispatch, report) => {
    const { handoff } = state;
    if (!handoff) return;
    dispatch(opened);
    const failed = openBank(openUrl, handoff.url, handoff, String);
    if (failed) report(failed);
  };
