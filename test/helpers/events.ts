import type { ServiceEventName } from '../../src/core/index';

/** A whole payment's events, in order (spec 6.2): what every front door must emit. */
export const WHOLE_PAYMENT: ServiceEventName[] = [
  'mounted',
  'institutions_fetched',
  'bank_selection_opened',
  'payment_initiated',
  'institution_selected',
  'awaiting_authorisation',
];
