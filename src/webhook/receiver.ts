/**
 * The runtime-neutral receiver: what to answer for a delivery. The node:http and Fetch
 * adapters only read the request and write the answer. Order matters and follows spec 5.1.4:
 * the signature is checked on the exact bytes before anything is parsed or stored.
 */
import { BODY_ALREADY_PARSED, signatureFromAuthorization } from './encoding';
import { createDispatcher } from './dispatch';
import type { DispatchResult } from './dispatch';
import {
  WebhookKeyError,
  WebhookKeyFetchError,
  WebhookPayloadError,
  WebhookRequestError,
  WebhookSignatureError,
} from './errors';
import type { CryptoProvider, KeyInput } from './public-key';
import { parseWebhookNotification } from './notification';
import type { WebhookNotification } from './notification';
import type { ResolvedReceiverOptions } from './options';
import { isThenable } from './encoding';
import { observeReceiver, UNTRACED } from './receiver-telemetry';
import type { DeliveryTrace } from './receiver-telemetry';

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
  /**
   * 200: a COMPLETED that does not match its order (expectedPayment), recorded NEEDS_REVIEW;
   * onError hears it with this outcome when there is no onMismatch.
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

/** A request body as read by either front door. */
export type BodyRead =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'too-large' }
  | { kind: 'already-parsed' }
  | { kind: 'unreadable'; error: unknown };

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
const BODY: Record<WebhookOutcome, string> = {
  processed: '',
  duplicate: '',
  'needs-review': '',
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
  'shutting-down': 'the receiver is shutting down; retry later',
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

// ---------------------------------------------------------------------------------------------
export interface Receiver {
  /** Checks what can be checked before reading the body; null to go on. */
  preflight(
    method: string | undefined,
    sourceAddress: string | undefined,
    contentLength: string | null | undefined,
  ): ReceiverResponse | null;
  /**
   * Answers a delivery whose body has been read in full. Never throws or rejects; synchronous
   * when every step was (see isAuthentic).
   */
  receive(
    body: Uint8Array,
    authorization: string | null,
    sourceAddress: string | undefined,
  ): ReceiverResponse | Promise<ReceiverResponse>;
  /** Answers, and reports, a body that could not be taken as bytes. */
  refuseBody(body: Exclude<BodyRead, { kind: 'bytes' }>): ReceiverResponse;
  /** Answers, and reports, an unexpected error in a front door. */
  fail(error: unknown): ReceiverResponse;
  /** Ends the deliveries whose onNotification still runs (see Dispatcher.abandon). */
  abandon(): Promise<void>;
}

export function createReceiver<K>(
  options: ResolvedReceiverOptions<K>,
  verify: CryptoProvider<K>['verify'],
): Receiver {
  const { dispatch, abandon } = createDispatcher(options);
  const { keys, report } = options;

  function refuse(
    outcome: WebhookOutcome,
    error: unknown,
    notification?: WebhookNotification,
  ): ReceiverResponse {
    const response = respond(outcome);
    report(error, { outcome, status: response.status, ...(notification ? { notification } : {}) });
    return response;
  }

  /**
   * Synchronous when it can be (key at hand, node:crypto, valid signature): that is every
   * genuine delivery on Node, and it spares each one a promise and a microtask hop.
   */
  function isAuthentic(body: Uint8Array, authorization: string | null): boolean | Promise<boolean> {
    const key = keys.peek();
    if (key === undefined) return fetchKeyAndVerify(body, authorization);
    const valid = verify(body, authorization, key);
    if (valid === true) return true;
    return Promise.resolve(valid).then((ok) => ok || retryWithFreshKey(body, authorization, key));
  }

  async function fetchKeyAndVerify(
    body: Uint8Array,
    authorization: string | null,
  ): Promise<boolean> {
    // A header not even shaped like a signature never costs a key fetch.
    if (signatureFromAuthorization(authorization) === null) return false;
    const key = await keys.current();
    return (await verify(body, authorization, key)) || retryWithFreshKey(body, authorization, key);
  }

  /**
   * A well-formed signature that fails may be from a rotated key: one refetch, or the next of
   * the keys given, then retry.
   */
  async function retryWithFreshKey(
    body: Uint8Array,
    authorization: string | null,
    stale: KeyInput<K>,
  ): Promise<boolean> {
    if (signatureFromAuthorization(authorization) === null) return false;
    for (let key = stale, left = keys.alternates; left > 0; left--) {
      const fresh = await keys.refresh(key);
      if (fresh === null) return false;
      if (await verify(body, authorization, fresh)) return true;
      key = fresh;
    }
    return false;
  }

  /** After verification: parse, then hand over once. Synchronous for a synchronous duplicate. */
  function accept(
    body: Uint8Array,
    sourceAddress: string | undefined,
    trace: DeliveryTrace,
  ): ReceiverResponse | Promise<ReceiverResponse> {
    let notification: WebhookNotification;
    let idempotencyKey: string;
    try {
      notification = parseWebhookNotification(body);
    } catch (error) {
      return refuse(
        error instanceof WebhookPayloadError ? 'invalid-notification' : 'internal-error',
        error,
      );
    }
    try {
      idempotencyKey = options.idempotencyKey(notification);
    } catch (error) {
      return refuse('internal-error', error, notification);
    }
    trace.about(notification);
    const result = dispatch(notification, { idempotencyKey, rawBody: body, sourceAddress }, trace);
    return isThenable(result)
      ? result.then((settled) => answer(settled, notification))
      : answer(result, notification);
  }

  function answer(result: DispatchResult, notification: WebhookNotification): ReceiverResponse {
    if (result.outcome === 'processed' || result.outcome === 'duplicate') {
      return respond(result.outcome);
    }
    return refuse(result.outcome, result.error, notification);
  }

  /** Errors from the key (fetch or parse) or from a verifier; dispatch itself never throws. */
  function failed(error: unknown): ReceiverResponse {
    if (error instanceof WebhookKeyError) return refuse('key-invalid', error);
    if (error instanceof WebhookKeyFetchError) return refuse('key-unavailable', error);
    return refuse('internal-error', error);
  }

  /** The answer for a delivery whose body was read, its steps traced by `trace`. */
  function decide(
    body: Uint8Array,
    authorization: string | null,
    sourceAddress: string | undefined,
    trace: DeliveryTrace,
  ): ReceiverResponse | Promise<ReceiverResponse> {
    try {
      const authentic = trace.step('verify', () => isAuthentic(body, authorization));
      if (authentic === true) return accept(body, sourceAddress, trace);
      if (authentic === false)
        return refuse('invalid-signature', signatureError(authorization, keys.tried));
      return authentic.then(
        (ok) =>
          ok
            ? accept(body, sourceAddress, trace)
            : refuse('invalid-signature', signatureError(authorization, keys.tried)),
        failed,
      );
    } catch (error) {
      return failed(error);
    }
  }

  const receiver: Receiver = {
    preflight(method, sourceAddress, contentLength) {
      if (options.isAllowedSource !== null && !options.isAllowedSource(sourceAddress)) {
        return refuse(
          'forbidden-source',
          new WebhookRequestError(
            `servicepay: webhook delivery from ${sourceAddress ?? 'an unknown address'} refused: not in allowedSourceAddresses.`,
            403,
          ),
        );
      }
      if (method !== 'PUT') {
        return refuse(
          'method-not-allowed',
          new WebhookRequestError(
            `servicepay: webhook delivery refused: method ${method ?? '(none)'}, notifications are PUT requests.`,
            405,
          ),
        );
      }
      if (contentLength != null && Number(contentLength) > options.maxBodyBytes) {
        return refuse('body-too-large', tooLarge(options.maxBodyBytes));
      }
      return null;
    },

    receive: (body, authorization, sourceAddress) =>
      decide(body, authorization, sourceAddress, UNTRACED),

    refuseBody(body) {
      switch (body.kind) {
        case 'too-large':
          return refuse('body-too-large', tooLarge(options.maxBodyBytes));
        case 'already-parsed':
          return refuse('body-already-parsed', new WebhookRequestError(BODY_ALREADY_PARSED, 500));
        case 'unreadable':
          return refuse('body-unreadable', body.error);
      }
    },

    fail: (error) => refuse('internal-error', error),
    abandon,
  };
  const { telemetry } = options;
  return telemetry === null
    ? receiver
    : observeReceiver(receiver, telemetry, decide, options.store);
}

function tooLarge(maxBodyBytes: number): WebhookRequestError {
  return new WebhookRequestError(
    `servicepay: webhook body refused: larger than maxBodyBytes (${maxBodyBytes}).`,
    413,
  );
}

function signatureError(authorization: string | null, tried?: string): WebhookSignatureError {
  return new WebhookSignatureError(
    authorization
      ? `servicepay: the webhook signature does not verify over the exact body received${tried === undefined ? '' : ` with ${tried}`}. If genuine deliveries fail, check that nothing re-serialised or re-encoded the body before verification and that the key is the one of this environment.`
      : 'servicepay: the delivery has no Authorization header.',
  );
}
