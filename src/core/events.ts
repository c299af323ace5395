/**
 * Component events of spec 6.2, passed to `eventConsumer` as its one argument.
 * The spec lists the MOUNTED constant with a misspelled literal in one place; the
 * described value `mounted` is the one used here.
 */
export const ServiceEvent = /* @__PURE__ */ Object.freeze({
  MOUNTED: 'mounted',
  INSTITUTIONS_FETCHED: 'institutions_fetched',
  PAY_BUTTON_ENABLED: 'pay_button_enabled',
  PAY_BUTTON_DISABLED: 'pay_button_disabled',
  BANK_SELECTION_OPENED: 'bank_selection_opened',
  /** @deprecated Alias of PAYMENT_INITIATED, emitted right after it. */
  INSTITUTION_SELECTED: 'institution_selected',
  PAYMENT_INITIATED: 'payment_initiated',
  AWAITING_AUTHORISATION: 'awaiting_authorisation',
} as const);

export type ServiceEventName = (typeof ServiceEvent)[keyof typeof ServiceEvent];

/** Where an error arose (spec 2.4 / 7.2). */
export const ErrorLocation = /* @__PURE__ */ Object.freeze({
  PAY_WITH_BANK_INSTITUTION: 'payWithBankInstitution',
  FETCH_INSTITUTIONS: 'fetchInstitutions',
} as const);

export type ErrorLocationName = (typeof ErrorLocation)[keyof typeof ErrorLocation];

/** The object passed to `errorConsumer` (spec 2.4). */
export interface ServiceError {
  location: ErrorLocationName;
  /** Human-readable description; validation errors use the spec's exact format. */
  error: string;
}
