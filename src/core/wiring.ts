import type { Handoff } from './handoff';
import type { PaymentIds } from './saved-payment';
import type { Institution } from './transport';

/**
 * How the extras (`servicepay/extras`) take part in a payment session: not a merchant's
 * option, and not part of servicepay/core (its index does not export this module; react and
 * vanilla may import it, lint says so). The extras' `options(props)` adds it to the session's
 * options. `divert`, asked as the bank's page is about to open, returns the handoff when its
 * address goes to the shopper's phone instead (the session then enters that region of its
 * state: `state.handoff`), else nothing, and the page opens here.
 */
export interface SessionWiring {
  divert?: (url: string, payment: PaymentIds, institution: Institution) => Handoff | undefined;
}
