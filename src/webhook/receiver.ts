/**
 * The runtime-neutral receiver: what to answer for a delivery. The node:http and Fetch
 * adapters only read the request and write the answer. Order matters and follows spec 5.1.4:
 * the signature is checked on the exact bytes before anything is parsed or stored.
 */
import { signatureFromAuthorization } from './encoding';
import { createDispatcher } from './dispatch';
import type { DispatchResult } from './dispatch';
import {
  WebhookKeyError,
  WebhookKeyFetchError,
  WebhookPayloadError,
  WebhookRequestError,
  WebhookSignatureError,
} from './errors';
import type { KeyInput } from './public-key';
import { parseWebhookNotification } from './notification';
import type { WebhookNotification } from './notification';
import { respond } from './outcome';
import type { ReceiverResponse, WebhookOutcome } from './outcome';
import type { ResolvedReceiverOptions } from './options';
import { isThenable } from './encoding';

/** A verifier: node:crypto's is synchronous, WebCrypto's asynchronous. */
export type Verify<K> = (
  body: Uint8Array,
  authorization: string | null,
  key: KeyInput<K>,
) => boolean | Promise<boolean>;

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
  /** Answers, and reports, a refusal found while reading the body. */
  refuse(outcome: WebhookOutcome, error: unknown): ReceiverResponse;
}

export function createReceiver<K>(
  options: ResolvedReceiverOptions<K>,
  verify: Verify<K>,
): Receiver {
  const dispatch = createDispatcher(options);
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

  /** A well-formed signature that fails may be from a rotated key: one refetch, then retry. */
  async function retryWithFreshKey(
    body: Uint8Array,
    authorization: string | null,
    stale: KeyInput<K>,
  ): Promise<boolean> {
    if (signatureFromAuthorization(authorization) === null) return false;
    const fresh = await keys.refresh(stale);
    return fresh !== null && (await verify(body, authorization, fresh));
  }

  /** After verification: parse, then hand over once. Synchronous for a synchronous duplicate. */
  function accept(
    body: Uint8Array,
    sourceAddress: string | undefined,
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
    const result = dispatch(notification, { idempotencyKey, rawBody: body, sourceAddress });
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

  return {
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

    receive(body, authorization, sourceAddress) {
      try {
        const authentic = isAuthentic(body, authorization);
        if (authentic === true) return accept(body, sourceAddress);
        if (authentic === false) return refuse('invalid-signature', signatureError(authorization));
        return authentic.then(
          (ok) =>
            ok
              ? accept(body, sourceAddress)
              : refuse('invalid-signature', signatureError(authorization)),
          failed,
        );
      } catch (error) {
        return failed(error);
      }
    },

    refuse: (outcome, error) => refuse(outcome, error),
  };
}

export function tooLarge(maxBodyBytes: number): WebhookRequestError {
  return new WebhookRequestError(
    `servicepay: webhook body refused: larger than maxBodyBytes (${maxBodyBytes}).`,
    413,
  );
}

function signatureError(authorization: string | null): WebhookSignatureError {
  return new WebhookSignatureError(
    authorization
      ? 'servicepay: the webhook signature does not verify over the exact body received. If genuine deliveries fail, check that nothing re-serialised or re-encoded the body before verification and that the key is the one of this environment.'
      : 'servicepay: the delivery has no Authorization header.',
  );
}
