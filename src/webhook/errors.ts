/**
 * One error class per failure area, all under `WebhookError` so a caller can catch the whole
 * family with one `instanceof`. Messages start with `servicepay:` and say how to fix the cause.
 * `name` is a string literal (not `new.target.name`) so it survives minification.
 */
export class WebhookError extends Error {
  override name: string = 'WebhookError';
}

/** The public key (or, when signing, the private key) cannot be used. A configuration error. */
export class WebhookKeyError extends WebhookError {
  override name = 'WebhookKeyError';
}

/** The public-key endpoint could not be fetched (network failure, timeout, non-2xx status). */
export class WebhookKeyFetchError extends WebhookError {
  override name = 'WebhookKeyFetchError';
  /** The address that was requested. */
  readonly url: string;
  /** The HTTP status when the endpoint answered, undefined when it did not. */
  readonly status: number | undefined;

  constructor(message: string, url: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.url = url;
    this.status = status;
  }
}

/** The body is not a webhook notification (spec 2.1). */
export class WebhookPayloadError extends WebhookError {
  override name = 'WebhookPayloadError';
  /** Path of the offending field (e.g. `paymentRequest.amount`), or undefined for the whole body. */
  readonly field: string | undefined;

  constructor(message: string, field?: string, options?: ErrorOptions) {
    super(message, options);
    this.field = field;
  }
}

/** An option given to a handler or to fetchPublicKey is missing or invalid. */
export class WebhookConfigError extends WebhookError {
  override name = 'WebhookConfigError';
  /** The option at fault. */
  readonly option: string;

  constructor(message: string, option: string) {
    super(message);
    this.option = option;
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
  /** The HTTP status the handler answered. */
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/**
 * The raw-body pitfall, spelled out where the merchant will see it: in the 500 answer and, via
 * onError, in the logs. One text for both front doors, naming the fix for each: express.raw()
 * on the route does not help once a global express.json() has read the body.
 */
export const BODY_ALREADY_PARSED =
  'servicepay: the request body was consumed before the webhook handler (by express.json() or another body parser, or by request.json()/request.text()), so the exact bytes the signature covers are lost. Mount the webhook route before express.json() (app.put(path, handler) above app.use(express.json())); in a route handler, pass the untouched Request.';
