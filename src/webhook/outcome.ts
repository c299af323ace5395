/**
 * What a receiver concludes about a delivery, and the HTTP answer for each conclusion. One
 * table, so the status codes the service sees can be read (and changed) in one place.
 */

/** What a receiver concluded about one delivery; each maps to one HTTP status. */
export type WebhookOutcome =
  /** 200: verified, parsed, claimed, and onNotification succeeded. */
  | 'processed'
  /** 200: already handled; onNotification was not called again. */
  | 'duplicate'
  /** 405: not a PUT. */
  | 'method-not-allowed'
  /** 403: the source address is not in allowedSourceAddresses. */
  | 'forbidden-source'
  /** 413: the body is larger than maxBodyBytes. */
  | 'body-too-large'
  /** 400: the body could not be read (client aborted, stream error). */
  | 'body-unreadable'
  /** 500: another body parser consumed the body before the handler (the raw-body pitfall). */
  | 'body-already-parsed'
  /** 401: the signature does not verify over the exact bytes. */
  | 'invalid-signature'
  /** 400: verified, but not a notification. */
  | 'invalid-notification'
  /** 409: the notification is being handled (by another instance, or longer than a duplicate waits). */
  | 'in-progress'
  /** 503: a concurrent delivery of the same notification failed; a resend will be processed. */
  | 'concurrent-delivery-failed'
  /** 500: onNotification threw or rejected; the claim was released for the resend. */
  | 'handler-failed'
  /** 503: the idempotency store failed; onNotification was not called. */
  | 'store-unavailable'
  /** 503: the public key could not be fetched. */
  | 'key-unavailable'
  /** 500: the configured public key cannot be used. */
  | 'key-invalid'
  /** 500: an unexpected error. */
  | 'internal-error';

/** An answer to the service. */
export interface ReceiverResponse {
  readonly status: number;
  readonly outcome: WebhookOutcome;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const STATUS: Record<WebhookOutcome, number> = {
  processed: 200,
  duplicate: 200,
  'method-not-allowed': 405,
  'forbidden-source': 403,
  'body-too-large': 413,
  'body-unreadable': 400,
  'body-already-parsed': 500,
  'invalid-signature': 401,
  'invalid-notification': 400,
  'in-progress': 409,
  'concurrent-delivery-failed': 503,
  'handler-failed': 500,
  'store-unavailable': 503,
  'key-unavailable': 503,
  'key-invalid': 500,
  'internal-error': 500,
};

/** The raw-body pitfall, spelled out where the merchant will see it: in the response and logs. */
export const BODY_ALREADY_PARSED =
  'servicepay: the request body was consumed before the webhook handler (by express.json() or another body parser, or by request.json()/request.text()), so the exact bytes the signature covers are lost. Mount the webhook route before express.json() (app.put(path, handler) above app.use(express.json())); in a route handler, pass the untouched Request.';

/**
 * Short and free of internals: the caller may be anyone, not only the service. A 200 has no
 * body (the spec shows none): on Node a body costs a second chunk and a writev per answer,
 * measurably slower under load than the single write of an empty answer.
 */
const BODY: Record<WebhookOutcome, string> = {
  processed: '',
  duplicate: '',
  'method-not-allowed': 'method not allowed: webhook notifications are PUT requests',
  'forbidden-source': 'forbidden',
  'body-too-large': 'payload too large',
  'body-unreadable': 'the request body could not be read',
  'body-already-parsed': BODY_ALREADY_PARSED,
  'invalid-signature': 'invalid signature',
  'invalid-notification': 'not a webhook notification',
  'in-progress': 'this notification is being processed; retry later',
  'concurrent-delivery-failed': 'a concurrent delivery of this notification failed; retry later',
  'handler-failed': 'the notification handler failed; retry later',
  'store-unavailable': 'temporarily unavailable; retry later',
  'key-unavailable': 'temporarily unavailable; retry later',
  'key-invalid': 'the receiver is misconfigured',
  'internal-error': 'internal error; retry later',
};

/** Retry-After on answers that ask for a resend, so a well-behaved sender waits a moment. */
const RETRY_AFTER_SECONDS = '5';

function build(outcome: WebhookOutcome): ReceiverResponse {
  const status = STATUS[outcome];
  const body = BODY[outcome];
  const headers: Record<string, string> =
    body === '' ? {} : { 'content-type': 'text/plain; charset=utf-8' };
  if (outcome === 'method-not-allowed') headers.allow = 'PUT';
  if (status === 409 || status === 503) headers['retry-after'] = RETRY_AFTER_SECONDS;
  return Object.freeze({ status, outcome, body, headers: Object.freeze(headers) });
}

/** Built once: the answers never vary, and the 200s are on every delivery's path. */
const RESPONSES = Object.fromEntries(
  (Object.keys(STATUS) as WebhookOutcome[]).map((outcome) => [outcome, build(outcome)]),
) as Record<WebhookOutcome, ReceiverResponse>;

/** The answer for an outcome (shared and frozen: copy it before changing anything). */
export function respond(outcome: WebhookOutcome): ReceiverResponse {
  return RESPONSES[outcome];
}
