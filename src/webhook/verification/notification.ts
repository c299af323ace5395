/**
 * The webhook notification (spec 2.1) and its parser. Parse only after the signature has been
 * verified on the raw bytes (spec 5.1.4): parsing first invites re-serialising, which changes
 * the bytes.
 */
import { bodyBytes } from './encoding';
import type { WebhookBody } from './encoding';
import { WebhookPayloadError } from '../errors';
import type { WebhookPaymentStatus } from '../../core/protocol';

export type { WebhookPaymentStatus };

/** Whether `notification` reports one of the final statuses (COMPLETED or FAILED). */
export function isFinalNotification(notification: {
  paymentStatus: string;
}): notification is FinalNotification {
  const status = notification.paymentStatus;
  return status === 'COMPLETED' || status === 'FAILED';
}

/** What was asked of the payer (spec 2.1, `paymentRequest`). */
export interface WebhookPaymentRequest {
  /** Payment amount, a decimal number in `currency`. */
  amount: number;
  /** Payment currency; only GBP is supported by the component. */
  currency: string;
  /** The payment reference shown to the payer, when there is one. */
  reference?: string | null;
}

/** A JSON object: the metadata the merchant supplied at payment creation, returned unchanged. */
export type WebhookMetadata = { [key: string]: unknown };

/** The fields every notification carries (spec 2.1), whatever its status. */
interface NotificationFields {
  /** The service's identifier of the payment (a UUID). */
  paymentId: string;
  /** The merchant's own identifier when one was supplied; any string form, null or absent otherwise. */
  merchantPaymentId?: string | null;
  /** Why the payment failed, when paymentStatus is FAILED; null or absent otherwise. */
  errorDescription?: string | null;
  /** Amount, currency and reference of the payment. */
  paymentRequest: WebhookPaymentRequest;
  /** The metadata object given at payment creation (nesting allowed), null or absent. */
  paymentMetadata?: WebhookMetadata | null;
  /** Refund data; its content is not specified, null in the signed test payloads. */
  paymentRefundData?: unknown;
}

/**
 * A payment that reached a final status (spec 2.1). Fields beyond these are kept as received
 * (the payment record may carry more) but are not typed.
 */
export interface FinalNotification extends NotificationFields {
  /** `COMPLETED` or `FAILED`. */
  paymentStatus: WebhookPaymentStatus;
}

/**
 * A notification of another status: the live service also sends `SETTLED` (after COMPLETED,
 * for some accounts) and `PENDING`, and may add more. Handed to onNotification as received;
 * it never changes a payment's recorded outcome.
 */
export interface OtherStatusNotification extends NotificationFields {
  /** Any status other than COMPLETED and FAILED, e.g. `SETTLED` or `PENDING`. */
  paymentStatus: string & {};
}

/**
 * A verified notification: a final one, or one of another status. A `switch` on
 * `paymentStatus` with cases for COMPLETED and FAILED handles the final ones; anything else
 * falls through to its default (use isFinalNotification to narrow).
 */
export type WebhookNotification = FinalNotification | OtherStatusNotification;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a verified body into a typed notification.
 *
 * @param body The raw bytes or the JSON string of the body.
 * @throws WebhookPayloadError naming the field at fault when the body is not a notification.
 */
export function parseWebhookNotification(body: WebhookBody): WebhookNotification {
  const value = parseJson(body);
  if (!isObject(value)) {
    throw new WebhookPayloadError(`a webhook notification is a JSON object, got ${kind(value)}.`);
  }
  requireString(value, 'paymentId', false);
  optionalString(value, 'merchantPaymentId');
  // Any status the service sends is a notification (SETTLED, PENDING, one added later); only
  // COMPLETED and FAILED decide an outcome (receiving/reconcile.ts).
  requireString(value, 'paymentStatus', false);
  optionalString(value, 'errorDescription');
  const request = value.paymentRequest;
  if (!isObject(request)) throw fieldError('paymentRequest', 'must be an object', request);
  const amount = request.amount;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw fieldError('paymentRequest.amount', 'must be a number', amount);
  }
  requireString(request, 'currency', true, 'paymentRequest.');
  optionalString(request, 'reference', 'paymentRequest.');
  const metadata = value.paymentMetadata;
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) {
    throw fieldError('paymentMetadata', 'must be a JSON object or null', metadata);
  }
  return value as unknown as WebhookNotification;
}

function parseJson(body: unknown): unknown {
  let text: string;
  if (typeof body === 'string') {
    text = body;
  } else {
    const bytes = bodyBytes(body);
    if (bytes === null) {
      throw new WebhookPayloadError(
        `parseWebhookNotification needs the body as bytes or a string, got ${kind(body)}.`,
      );
    }
    try {
      text = decoder.decode(bytes);
    } catch (cause) {
      throw new WebhookPayloadError('the webhook body is not valid UTF-8.', undefined, {
        cause,
      });
    }
  }
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new WebhookPayloadError(
      text.trim() === '' ? 'the webhook body is empty.' : 'the webhook body is not JSON.',
      undefined,
      { cause },
    );
  }
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(object: JsonObject, key: string, allowEmpty: boolean, prefix = ''): void {
  const value = object[key];
  if (typeof value !== 'string' || (!allowEmpty && value === '')) {
    throw fieldError(
      prefix + key,
      allowEmpty ? 'must be a string' : 'must be a non-empty string',
      value,
    );
  }
}

function optionalString(object: JsonObject, key: string, prefix = ''): void {
  const value = object[key];
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw fieldError(prefix + key, 'must be a string, null or absent', value);
  }
}

function fieldError(field: string, rule: string, value: unknown): WebhookPayloadError {
  return new WebhookPayloadError(
    `webhook notification field ${field} ${rule}, got ${kind(value)}.`,
    field,
  );
}

/** Describes a value without echoing it whole: bodies can be large and are attacker-controlled. */
function kind(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Passed to onNotification with each notification. */
export interface WebhookNotificationContext {
  /** The key the notification was claimed under in the idempotency store. */
  idempotencyKey: string;
  /** The exact bytes received and verified. */
  rawBody: Uint8Array;
  /** The address the delivery came from, when known. */
  sourceAddress: string | undefined;
  /**
   * The paymentId that paid the notification's order, when expectedPayment named the order
   * (`orderId`) and a payment paid it: for a FAILED, another attempt of an order already paid
   * (do not cancel it); for a matching COMPLETED, this payment itself. Null otherwise, and in
   * the context given to expectedPayment (the order is not known yet).
   */
  orderPaidBy: string | null;
}
