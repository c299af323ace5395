/**
 * The receiver's verdicts: what it concludes about a delivery, and the HTTP answer for each,
 * in one table, so the status codes the service sees can be read (and changed) in one place;
 * and the context onError hears a verdict with.
 */
import { BODY_ALREADY_PARSED } from '../verification/encoding';
import type { WebhookNotification } from '../verification/notification';
import { prefixed } from '../prefixed';

/** What a receiver concluded about one delivery; each maps to one HTTP status. */
export type WebhookVerdict =
  /** 200: verified, parsed, claimed, and onNotification succeeded. */
  | 'processed'
  /** 200: already handled; onNotification was not called again. */
  | 'duplicate'
  /**
   * 200: a COMPLETED that does not match its order (expectedPayment), recorded NEEDS_REVIEW;
   * onError hears it with this verdict when there is no onMismatch.
   */
  | 'needs-review'
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
  /** 503: listenWebhook's close() ended a delivery whose onNotification was still running; its claim was released. */
  | 'shutting-down'
  /** 503: the public key could not be fetched. */
  | 'key-unavailable'
  /** 500: the configured public key cannot be used. */
  | 'key-invalid'
  /** 500: an unexpected error. */
  | 'internal-error';

/** An answer to the service. */
export interface ReceiverResponse {
  readonly status: number;
  readonly verdict: WebhookVerdict;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const STATUS: Record<WebhookVerdict, number> = {
  processed: 200,
  duplicate: 200,
  'needs-review': 200,
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
  'shutting-down': 503,
  'key-unavailable': 503,
  'key-invalid': 500,
  'internal-error': 500,
};

/**
 * Short and free of internals: the caller may be anyone, not only the service. A 200 has no
 * body (the spec shows none): on Node a body costs a second chunk and a writev per answer,
 * measurably slower under load than the single write of an empty answer.
 */
const BODY: Record<WebhookVerdict, string> = {
  processed: '',
  duplicate: '',
  'needs-review': '',
  'method-not-allowed': 'method not allowed: webhook notifications are PUT requests',
  'forbidden-source': 'forbidden',
  'body-too-large': 'payload too large',
  'body-unreadable': 'the request body could not be read',
  'body-already-parsed': prefixed(BODY_ALREADY_PARSED),
  'invalid-signature': 'invalid signature',
  'invalid-notification': 'not a webhook notification',
  'in-progress': 'this notification is being processed; retry later',
  'concurrent-delivery-failed': 'a concurrent delivery of this notification failed; retry later',
  'handler-failed': 'the notification handler failed; retry later',
  'store-unavailable': 'temporarily unavailable; retry later',
  'shutting-down': 'the receiver is shutting down; retry later',
  'key-unavailable': 'temporarily unavailable; retry later',
  'key-invalid': 'the receiver is misconfigured',
  'internal-error': 'internal error; retry later',
};

/** Retry-After on answers that ask for a resend, so a well-behaved sender waits a moment. */
const RETRY_AFTER_SECONDS = '5';

function build(verdict: WebhookVerdict): ReceiverResponse {
  const status = STATUS[verdict];
  const body = BODY[verdict];
  const headers: Record<string, string> =
    body === '' ? {} : { 'content-type': 'text/plain; charset=utf-8' };
  if (verdict === 'method-not-allowed') headers.allow = 'PUT';
  if (status === 409 || status === 503) headers['retry-after'] = RETRY_AFTER_SECONDS;
  return Object.freeze({ status, verdict, body, headers: Object.freeze(headers) });
}

/** Built once: the answers never vary, and the 200s are on every delivery's path. */
const RESPONSES = Object.fromEntries(
  (Object.keys(STATUS) as WebhookVerdict[]).map((verdict) => [verdict, build(verdict)]),
) as Record<WebhookVerdict, ReceiverResponse>;

/** The answer for a verdict (shared and frozen: copy it before changing anything). */
export function respond(verdict: WebhookVerdict): ReceiverResponse {
  return RESPONSES[verdict];
}

/** Passed to onError with each error. */
export interface WebhookErrorContext {
  /** What the receiver concluded. */
  outcome: WebhookVerdict;
  /** The HTTP status it answered. */
  status: number;
  /** The notification, when the body had been verified and parsed. */
  notification?: WebhookNotification;
}
