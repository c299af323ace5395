/**
 * A manual test request (spec 5.3): one signed COMPLETED or FAILED notification PUT to a
 * receiver, as the service would send it, to check a receiver before any real payment.
 */
import { webhookRequestHeaders } from './deliveries';
import { SandboxConfigError } from './errors';
import { loadKeys } from './keys';
import { buildTestWebhookPayload } from './payload';
import type { SandboxWebhookPayload, TestWebhookPayloadOverrides } from './payload';
import { describeFailure, putBytes } from './put';
import type { FinalPaymentStatus } from './types';

/** Options of sendTestWebhook. */
export interface SendTestWebhookOptions {
  /** The receiver's address (http or https). */
  to: string;
  /** Which example to send: COMPLETED (errorDescription null) or FAILED (with one). */
  status: FinalPaymentStatus;
  /**
   * The sandbox's key file, so the receiver verifies with the key a sandbox started with the
   * same file serves. Created when missing.
   * @default a new key, whose public key is returned
   */
  keyFile?: string;
  /**
   * Any field of the payload, to reproduce a notification exactly (a production one that
   * broke, say); the others keep their example values. Only the types are checked, not the
   * service's rules for new payments, so a receiver can be tried on what it may really get.
   */
  payload?: TestWebhookPayloadOverrides;
  /**
   * Gives up after this many milliseconds.
   * @default 10000
   */
  timeoutMs?: number;
}

/** What the receiver answered, and what exactly was sent. */
export interface SendTestWebhookResult {
  /** The receiver's HTTP status. */
  status: number;
  /** The start of the receiver's answer (at most 4 KiB). */
  responseText: string;
  /** The exact body sent. */
  body: string;
  /** The Authorization header sent. */
  authorization: string;
  payload: SandboxWebhookPayload;
  /** The public key that verifies the signature, as `/.well-known/signature/pem` serves it. */
  publicKeyText: string;
}

/**
 * Sends one signed test notification.
 *
 * @throws SandboxConfigError for an invalid address, status or key file.
 * @throws Error when the receiver cannot be reached or does not answer in time.
 */
export async function sendTestWebhook(
  options: SendTestWebhookOptions,
): Promise<SendTestWebhookResult> {
  const { to, status, keyFile, timeoutMs = 10_000 } = options;
  if (typeof to !== 'string' || !URL.canParse(to) || !/^https?:$/.test(new URL(to).protocol)) {
    throw new SandboxConfigError(
      `servicepay: --to must be an http(s) URL, got ${JSON.stringify(to)}.`,
      'to',
    );
  }
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new SandboxConfigError(
      `servicepay: --status must be COMPLETED or FAILED, got ${JSON.stringify(status)}.`,
      'status',
    );
  }
  checkOverrides(status, options.payload);
  const keys = await loadKeys(keyFile);
  const payload = buildTestWebhookPayload(status, options.payload);
  // Serialised once; these exact bytes are signed and sent (spec 5.1.3-4).
  const body = JSON.stringify(payload);
  const bytes = Buffer.from(body, 'utf8');
  const headers = webhookRequestHeaders(bytes, keys.privateKey);
  let response;
  try {
    response = await putBytes(new URL(to), bytes, { headers, timeoutMs });
  } catch (cause) {
    throw new Error(
      `servicepay: the test webhook to ${to} got no answer (${describeFailure(cause)}).`,
      { cause },
    );
  }
  return {
    status: response.statusCode,
    responseText: response.bodyText,
    body,
    authorization: headers.Authorization!,
    payload,
    publicKeyText: keys.publicKeyText,
  };
}

/** The payload fields' types: a typo fails here, naming the field, not at the receiver. */
function checkOverrides(
  status: FinalPaymentStatus,
  payload: TestWebhookPayloadOverrides | undefined,
): void {
  if (payload === undefined) return;
  const fail = (field: string, rule: string, value: unknown): never => {
    throw new SandboxConfigError(
      `servicepay: sendTestWebhook payload.${field} must be ${rule}, got ${JSON.stringify(value)}.`,
      `payload.${field}`,
    );
  };
  if (typeof payload !== 'object' || payload === null) fail('', 'an object', payload);
  const { paymentId, merchantPaymentId, amount, reference, metadata, errorDescription } = payload;
  if (paymentId !== undefined && typeof paymentId !== 'string')
    fail('paymentId', 'a string', paymentId);
  if (
    merchantPaymentId !== undefined &&
    merchantPaymentId !== null &&
    typeof merchantPaymentId !== 'string'
  )
    fail('merchantPaymentId', 'a string or null', merchantPaymentId);
  if (amount !== undefined && (typeof amount !== 'number' || !Number.isFinite(amount)))
    fail('amount', 'a finite number', amount);
  if (reference !== undefined && typeof reference !== 'string')
    fail('reference', 'a string', reference);
  if (
    metadata !== undefined &&
    metadata !== null &&
    (typeof metadata !== 'object' || Array.isArray(metadata))
  )
    fail('metadata', 'an object or null', metadata);
  if (errorDescription !== undefined) {
    if (typeof errorDescription !== 'string')
      fail('errorDescription', 'a string', errorDescription);
    if (status !== 'FAILED') {
      throw new SandboxConfigError(
        'servicepay: sendTestWebhook payload.errorDescription is only for status FAILED; a COMPLETED notification carries errorDescription null.',
        'payload.errorDescription',
      );
    }
  }
}
