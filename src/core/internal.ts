import type { Handoff } from './handoff';
import type { PaymentIds } from './saved-payment';
import type { Institution } from './transport';

// What core gives the other browser layers (react, vanilla) that is no merchant's API, and so
// not part of servicepay/core: its index does not export this module; lint lets them import it.

export { said } from './protocol';
export { reportThrown, warn } from './console';

/**
 * How the extras (`servicepay/extras`) take part in a payment session: not a merchant's
 * option. The extras' `options(props)` adds it to the session's options. `divert`, asked as
 * the bank's page is about to open, returns the handoff when its address goes to the shopper's
 * phone instead (the session then enters that region of its state: `state.handoff`), else
 * nothing, and the page opens here.
 */
export interface SessionWiring {
  divert?: (url: string, payment: PaymentIds, institution: Institution) => Handoff | undefined;
}
