/**
 * The runtime-neutral receiver: what to answer for a delivery. The node:http and Fetch
 * adapters only read the request and write the answer. Order matters and follows spec 5.1.4:
 * the signature is checked on the exact bytes before anything is parsed or stored.
 */
import { BODY_ALREADY_PARSED, signatureFromAuthorization } from '../verification/encoding';
import { isThenable, whenReady } from '../maybe';
import type { Maybe } from '../maybe';
import { createDispatcher } from './dispatch';
import type { Dispatched } from './dispatch';
import {
  WebhookKeyError,
  WebhookKeyFetchError,
  WebhookPayloadError,
  WebhookRequestError,
  WebhookSignatureError,
} from '../errors';
import type { CryptoProvider, KeyInput } from '../verification/public-key';
import { parseWebhookNotification } from '../verification/notification';
import type { WebhookNotification } from '../verification/notification';
import type { ResolvedReceiverOptions } from './options';
import { UNTRACED } from './trace';
import type { DeliveryTrace } from './trace';
import { respond } from './verdicts';
import type { ReceiverResponse, WebhookVerdict } from './verdicts';

/** A request body as read by either front door. */
export type BodyRead =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'too-large' }
  | { kind: 'already-parsed' }
  | { kind: 'unreadable'; error: unknown };

export interface Receiver {
  /** Checks what can be checked before reading the body; null to go on. */
  preflight(
    method: string | undefined,
    sourceAddress: string | undefined,
    contentLength: string | null | undefined,
  ): ReceiverResponse | null;
  /**
   * Answers a delivery whose body has been read in full, its steps traced by `trace`. Never
   * throws or rejects; synchronous when every step was (see isAuthentic and dispatch.ts).
   */
  receive(
    body: Uint8Array,
    authorization: string | null,
    sourceAddress: string | undefined,
    trace?: DeliveryTrace,
  ): Maybe<ReceiverResponse>;
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
    verdict: WebhookVerdict,
    error: unknown,
    notification?: WebhookNotification,
  ): ReceiverResponse {
    const response = respond(verdict);
    report(error, {
      outcome: verdict,
      status: response.status,
      ...(notification ? { notification } : {}),
    });
    return response;
  }

  /**
   * Synchronous when it can be (key at hand, node:crypto, valid signature): that is every
   * genuine delivery on Node, and it spares each one a promise and a microtask hop.
   */
  function isAuthentic(body: Uint8Array, authorization: string | null): Maybe<boolean> {
    const key = keys.peek();
    if (key === undefined) return fetchKeyAndVerify(body, authorization);
    const valid = verify(body, authorization, key);
    // A genuine delivery verified at once: no closure, no promise.
    if (valid === true) return true;
    return whenReady(valid, (ok) => ok || retryWithFreshKey(body, authorization, key));
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
    for (let key = stale, tried = 1; tried <= keys.alternates; tried++) {
      const fresh = await keys.refresh(key, tried);
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
  ): Maybe<ReceiverResponse> {
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
    const dispatched = dispatch(
      notification,
      { idempotencyKey, rawBody: body, sourceAddress, orderPaidBy: null },
      trace,
    );
    // Tested before the crossing, so that a synchronous dispatch makes no closure.
    return isThenable(dispatched)
      ? dispatched.then((settled) => answer(settled, notification))
      : answer(dispatched, notification);
  }

  function answer({ verdict, error }: Dispatched, notification: WebhookNotification) {
    if (verdict === 'processed' || verdict === 'duplicate') return respond(verdict);
    return refuse(verdict, error, notification);
  }

  /** Errors from the key (fetch or parse) or from a verifier; dispatch itself never throws. */
  function failed(error: unknown): ReceiverResponse {
    if (error instanceof WebhookKeyError) return refuse('key-invalid', error);
    if (error instanceof WebhookKeyFetchError) return refuse('key-unavailable', error);
    return refuse('internal-error', error);
  }

  const receive: Receiver['receive'] = (body, authorization, sourceAddress, trace = UNTRACED) => {
    try {
      const authentic = trace.step('verify', () => isAuthentic(body, authorization));
      if (!isThenable(authentic)) {
        return authentic
          ? accept(body, sourceAddress, trace)
          : refuse('invalid-signature', signatureError(authorization, keys.tried));
      }
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
  };

  return {
    preflight(method, sourceAddress, contentLength) {
      if (options.isAllowedSource !== null && !options.isAllowedSource(sourceAddress)) {
        return refuse(
          'forbidden-source',
          new WebhookRequestError(
            `webhook delivery from ${sourceAddress ?? 'an unknown address'} refused: not in allowedSourceAddresses.`,
            403,
          ),
        );
      }
      if (method !== 'PUT') {
        return refuse(
          'method-not-allowed',
          new WebhookRequestError(
            `webhook delivery refused: method ${method ?? '(none)'}, notifications are PUT requests.`,
            405,
          ),
        );
      }
      if (contentLength != null && Number(contentLength) > options.maxBodyBytes) {
        return refuse('body-too-large', tooLarge(options.maxBodyBytes));
      }
      return null;
    },

    receive,

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
}

function tooLarge(maxBodyBytes: number): WebhookRequestError {
  return new WebhookRequestError(
    `webhook body refused: larger than maxBodyBytes (${maxBodyBytes}).`,
    413,
  );
}

function signatureError(authorization: string | null, tried?: string): WebhookSignatureError {
  return new WebhookSignatureError(
    authorization
      ? `the webhook signature does not verify over the exact body received${tried === undefined ? '' : ` with ${tried}`}. If genuine deliveries fail, check that nothing re-serialised or re-encoded the body before verification and that the key is the one of this environment.`
      : 'the delivery has no Authorization header.',
  );
}
