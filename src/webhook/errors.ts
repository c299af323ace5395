/**
 * One error class per failure area, all under `WebhookError` so a caller can catch the whole
 * family with one `instanceof`. Every export here is public (exports.ts re-exports the module).
 * Messages say what was wrong and how to fix it; WebhookError's constructor puts `servicepay: `
 * before them, for every class of the family (prefixed.ts).
 * `name` is a string literal (not `new.target.name`) so it survives minification. The facts an
 * error carries beside its message are parameter properties: declared and assigned once.
 */
import { prefixed } from './prefixed';

export class WebhookError extends Error {
  override name: string = 'WebhookError';

  /** `message`: what was wrong and how to fix it, without the prefix, which this adds. */
  constructor(message: string, options?: ErrorOptions) {
    super(prefixed(message), options);
  }
}

/** The public key (or, when signing, the private key) cannot be used. A configuration error. */
export class WebhookKeyError extends WebhookError {
  override name = 'WebhookKeyError';
}

/** The public-key endpoint could not be fetched (network failure, timeout, non-2xx status). */
export class WebhookKeyFetchError extends WebhookError {
  override name = 'WebhookKeyFetchError';

  constructor(
    message: string,
    /** The address that was requested. */
    readonly url: string,
    /** The HTTP status when the endpoint answered, undefined when it did not. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The body is not a webhook notification (spec 2.1). */
export class WebhookPayloadError extends WebhookError {
  override name = 'WebhookPayloadError';

  constructor(
    message: string,
    /** Path of the offending field (e.g. `paymentRequest.amount`), or undefined for the whole body. */
    readonly field?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** An option given to a handler, a store or fetchPublicKey is missing or invalid. */
export class WebhookConfigError extends WebhookError {
  override name = 'WebhookConfigError';

  constructor(
    message: string,
    /** The option at fault. */
    readonly option: string,
  ) {
    super(message);
  }
}

/**
 * The signature of a delivery did not verify. The verify functions return false rather than
 * throw; handlers pass this error to `onError` so a 401 can be logged with its reason.
 */
export class WebhookSignatureError extends WebhookError {
  override name = 'WebhookSignatureError';
}

/**
 * A delivery was refused before its signature was checked (method, size, source address, a
 * body already consumed by another parser). Handlers pass it to `onError`.
 */
export class WebhookRequestError extends WebhookError {
  override name = 'WebhookRequestError';

  constructor(
    message: string,
    /** The HTTP status the handler answered. */
    readonly status: number,
  ) {
    super(message);
  }
}
