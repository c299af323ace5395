/**
 * A manual test request (spec 5.3): one signed COMPLETED or FAILED notification PUT to a
 * receiver, as the service would send it, to check a receiver before any real payment.
 */
import { SandboxConfigError } from './errors';
import { loadKeys } from './keys';
import { buildTestWebhookPayload } from './payload';
import type { SandboxWebhookPayload, TestWebhookPayloadOverrides } from './payload';
import { describeFailure, putBytes } from './put';
import type { FinalPaymentStatus } from './types';
import { webhookRequestHeaders } from './webhook-request';

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
  /** Changes to the example payload. */
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
  /** The start of the receiver's answer (at most 2 KiB). */
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
