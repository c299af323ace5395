/**
 * Errors of the sandbox. Messages say what was wrong and how to fix it, and SandboxError's
 * constructor puts `servicepay: ` before them (the webhook's prefixed.ts); the
 * `code` says what kind of refusal it is, and HTTP_STATUS is the one place that turns a code
 * into a status, so rewording a message never changes an answer.
 * `name` is a string literal (not `new.target.name`) so it survives minification.
 */
import { prefixed } from '../../webhook/prefixed';

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

  /** `message`: what was wrong and how to fix it, without the prefix, which this adds. */
  constructor(code: SandboxErrorCode, message: string, options?: ErrorOptions) {
    super(prefixed(message), options);
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

/**
 * A request body over its limit, answered 413 with the simulated service's own words: no
 * SandboxError, whose messages are the library's and carry its prefix.
 */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  readonly code = 'body-too-large';
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes`);
  }
}

/** The status of a refusal: a SandboxError's by its code, 413 for a body too large. */
export function httpStatusOf(error: unknown): number | undefined {
  return error instanceof SandboxError || error instanceof BodyTooLargeError
    ? HTTP_STATUS[error.code]
    : undefined;
}

/** The message for an id no payment has (the API, the methods and the pages say the same). */
export function unknownPayment(paymentId: string): SandboxError {
  return new SandboxError(
    'unknown-payment',
    `no sandbox payment has the id ${JSON.stringify(paymentId)}.`,
  );
}
