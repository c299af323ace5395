/**
 * Errors of the sandbox. Messages start with `servicepay:` and say how to fix the cause; the
 * `code` says what kind of refusal it is, and HTTP_STATUS is the one place that turns a code
 * into a status, so rewording a message never changes an answer.
 * `name` is a string literal (not `new.target.name`) so it survives minification.
 */

/**
 * What went wrong, for code that acts on it: `unknown-payment` (no payment has the id),
 * `no-notification` (the payment has sent none), `payment-pending` (not final yet),
 * `payment-completed` (already COMPLETED or SETTLED), `no-webhook-url` (the sandbox sends no
 * notification), `stopped` (the sandbox was stopped), `invalid-argument` (a value given to a
 * method, the API or the CLI), `invalid-option` (SandboxConfigError), `body-too-large` (a
 * request body over its limit), `listen-failed`.
 */
export type SandboxErrorCode =
  | 'unknown-payment'
  | 'no-notification'
  | 'payment-pending'
  | 'payment-completed'
  | 'no-webhook-url'
  | 'stopped'
  | 'invalid-argument'
  | 'invalid-option'
  | 'body-too-large'
  | 'listen-failed';

/**
 * The HTTP status each code is answered with: the thing asked for does not exist (404), is not
 * possible now (409), or was asked for wrongly (400).
 */
export const HTTP_STATUS: Readonly<Record<SandboxErrorCode, number>> = Object.freeze({
  'unknown-payment': 404,
  'no-notification': 404,
  'payment-pending': 409,
  'payment-completed': 409,
  'no-webhook-url': 409,
  stopped: 409,
  'invalid-argument': 400,
  'invalid-option': 400,
  'body-too-large': 413,
  'listen-failed': 500,
});

export class SandboxError extends Error {
  override name: string = 'SandboxError';
  /** What kind of refusal this is (see SandboxErrorCode). */
  readonly code: SandboxErrorCode;

  constructor(code: SandboxErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** An option of startSandbox (or a CLI flag) is missing or invalid. */
export class SandboxConfigError extends SandboxError {
  override name = 'SandboxConfigError';
  /** The option at fault. */
  readonly option: string;

  constructor(message: string, option: string, options?: ErrorOptions) {
    super('invalid-option', message, options);
    this.option = option;
  }
}

/** The status of a refusal: a SandboxError's by its code; undefined for any other error. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof SandboxError ? HTTP_STATUS[error.code] : undefined;
}

/** The message for an id no payment has (the API, the methods and the pages say the same). */
export function unknownPayment(paymentId: string): SandboxError {
  return new SandboxError(
    'unknown-payment',
    `servicepay: no sandbox payment has the id ${JSON.stringify(paymentId)}.`,
  );
}
