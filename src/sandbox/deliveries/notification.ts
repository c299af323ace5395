/**
 * One webhook notification: its payload (spec 2.1), its signed request (spec 4.1, 5.3), one
 * PUT of its exact bytes, and sendTestWebhook, which sends one by hand. deliveries.ts sends
 * notifications until they are answered 200; this is what each attempt is.
 *
 * The payload is built with its keys in the order the service sends them. JSON.stringify
 * keeps insertion order, so the bytes are predictable and match the shared signature
 * vectors' bodies.
 *
 * The PUT is on node:http(s) rather than fetch, because fetch adds headers of its own
 * (sec-fetch-mode, accept-language…) and pools connections that would outlive stop().
 * `agent: false` gives each attempt its own connection, closed when the attempt ends.
 */
import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { signWebhookPayload } from '../../webhook/index';
import type { WebhookNotification } from '../../webhook/index';
import { SandboxConfigError } from '../api/errors';
import { loadKeys } from '../keys/keys';
import type { WebhookPaymentStatus, SandboxPayment } from '../api/types';
import { prefixed } from '../../webhook/prefixed';

/**
 * The body of a webhook notification as the sandbox sends it: the webhook module's
 * notification with every field present (null where the spec allows it).
 */
export type SandboxWebhookPayload = Required<WebhookNotification>;

/** The payload for a payment's status (final, or PENDING and SETTLED as the live service sends). */
export function webhookPayload(payment: SandboxPayment): SandboxWebhookPayload {
  return {
    paymentId: payment.paymentId,
    merchantPaymentId: payment.merchantPaymentId,
    paymentStatus: payment.status,
    errorDescription: payment.status === 'FAILED' ? payment.errorDescription : null,
    paymentRequest: {
      amount: payment.amount,
      currency: payment.currency,
      reference: payment.reference,
    },
    paymentMetadata: payment.metadata,
    paymentRefundData: null,
  };
}

/** Overrides for a manual test payload; anything not given gets an example value. */
export interface TestWebhookPayloadOverrides {
  /** @default a new random UUID */
  paymentId?: string;
  /** @default a new random UUID */
  merchantPaymentId?: string | null;
  /** @default 12.5 */
  amount?: number;
  /** @default 'ORDER-1042' */
  reference?: string;
  /** @default a small nested example object */
  metadata?: Record<string, unknown> | null;
  /** Only for FAILED. @default 'The bank reported an error' */
  errorDescription?: string;
}

/** The description the sandbox gives a payment failed by the bank. */
export const BANK_ERROR_DESCRIPTION = 'The bank reported an error';
/** The description the sandbox gives a payment the shopper rejected. */
export const REJECTED_DESCRIPTION = 'The payment was rejected by the user';
/** The description of a payment left undecided when its authorisation window closed. */
export const EXPIRED_DESCRIPTION = 'The authorisation window expired before the user decided';

/**
 * A manual test payload as in spec 5.3: COMPLETED with errorDescription null, or FAILED with a
 * non-null errorDescription. Serialise it once with JSON.stringify, then sign and send those
 * exact bytes.
 */
export function buildTestWebhookPayload(
  status: WebhookPaymentStatus,
  overrides: TestWebhookPayloadOverrides = {},
): SandboxWebhookPayload {
  const metadata =
    overrides.metadata !== undefined
      ? overrides.metadata
      : { orderId: 1042, basket: { items: [{ sku: 'A-1', qty: 2 }] }, source: 'send-webhook' };
  return {
    paymentId: overrides.paymentId ?? randomUUID(),
    merchantPaymentId:
      overrides.merchantPaymentId !== undefined ? overrides.merchantPaymentId : randomUUID(),
    paymentStatus: status,
    errorDescription:
      status === 'FAILED' ? (overrides.errorDescription ?? BANK_ERROR_DESCRIPTION) : null,
    paymentRequest: {
      amount: overrides.amount ?? 12.5,
      currency: 'GBP',
      reference: overrides.reference ?? 'ORDER-1042',
    },
    paymentMetadata: metadata,
    paymentRefundData: null,
  };
}

export const SANDBOX_USER_AGENT = 'servicepay-sandbox';

/**
 * The headers of a webhook request, as the service sends them (spec 4.1, 5.3): JSON, any
 * answer type, and the SHA256withRSA signature of exactly these body bytes. Signing is the
 * webhook module's (the same code merchants use in their tests), not a second implementation.
 */
export function webhookRequestHeaders(
  body: Buffer,
  privateKey: KeyObject | string,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: '*/*',
    Authorization: signWebhookPayload(body, privateKey),
    'User-Agent': SANDBOX_USER_AGENT,
  };
}

export interface PutOptions {
  headers: Record<string, string>;
  /** Fails the attempt when the complete answer has not arrived by then. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PutResponse {
  statusCode: number;
  /** The start of the answer's body (at most MAX_KEPT_BODY characters), to show. */
  bodyText: string;
}

/** Enough of an answer to read a stack trace or an error page's message, not a whole page. */
export const MAX_KEPT_BODY = 4096;

/** No complete answer in time: its own class, so a hint can tell it from other failures. */
export class AnswerTimeoutError extends Error {
  override name = 'AnswerTimeoutError';
}

export function putBytes(url: URL, body: Buffer, options: PutOptions): Promise<PutResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'PUT',
      agent: false,
      headers: { ...options.headers, 'Content-Length': String(body.length) },
      signal: options.signal,
    });
    const timer = setTimeout(() => {
      req.destroy(new AnswerTimeoutError(`no complete answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      let kept = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (kept.length < MAX_KEPT_BODY) kept = (kept + chunk).slice(0, MAX_KEPT_BODY);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ statusCode: res.statusCode ?? 0, bodyText: kept });
      });
      // A connection closed mid-answer: not a delivery (settling twice is a no-op).
      res.on('close', () => {
        if (!res.complete) fail(new Error('the connection closed before the answer was complete'));
      });
    });
    req.end(body);
  });
}

/** A short, readable reason for a failed attempt. */
export function describeFailure(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
    if (name === 'AbortError') return 'cancelled: the sandbox stopped';
    const text = typeof message === 'string' && message ? message : String(error);
    return typeof code === 'string' && !text.includes(code) ? `${code}: ${text}` : text;
  }
  return String(error);
}

// A manual test request (spec 5.3): one signed COMPLETED or FAILED notification PUT to a
// receiver, as the service would send it, to check a receiver before any real payment.

/** Options of sendTestWebhook. */
export interface SendTestWebhookOptions {
  /** The receiver's address (http or https). */
  to: string;
  /** Which example to send: COMPLETED (errorDescription null) or FAILED (with one). */
  status: WebhookPaymentStatus;
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
    throw new SandboxConfigError(`--to must be an http(s) URL, got ${JSON.stringify(to)}.`, 'to');
  }
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new SandboxConfigError(
      `--status must be COMPLETED or FAILED, got ${JSON.stringify(status)}.`,
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
      prefixed(`the test webhook to ${to} got no answer (${describeFailure(cause)}).`),
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

/** What each payload field may be: a typo fails here, naming the field, not at the receiver. */
const OVERRIDES: Record<keyof TestWebhookPayloadOverrides, [string, (v: unknown) => boolean]> = {
  paymentId: ['a string', (v) => typeof v === 'string'],
  merchantPaymentId: ['a string or null', (v) => v === null || typeof v === 'string'],
  amount: ['a finite number', (v) => typeof v === 'number' && Number.isFinite(v)],
  reference: ['a string', (v) => typeof v === 'string'],
  metadata: [
    'an object or null',
    (v) => v === null || (typeof v === 'object' && !Array.isArray(v)),
  ],
  errorDescription: ['a string', (v) => typeof v === 'string'],
};

/** The payload fields' types (only those given); errorDescription only for FAILED. */
function checkOverrides(
  status: WebhookPaymentStatus,
  payload: TestWebhookPayloadOverrides | undefined,
): void {
  if (payload === undefined) return;
  const fail = (field: string, rule: string, value: unknown): never => {
    throw new SandboxConfigError(
      `sendTestWebhook payload${field && `.${field}`} must be ${rule}, got ${JSON.stringify(value)}.`,
      `payload${field && `.${field}`}`,
    );
  };
  if (typeof payload !== 'object' || payload === null) fail('', 'an object', payload);
  for (const [field, [rule, ok]] of Object.entries(OVERRIDES)) {
    const value = payload[field as keyof TestWebhookPayloadOverrides];
    if (value !== undefined && !ok(value)) fail(field, rule, value);
  }
  if (payload.errorDescription !== undefined && status !== 'FAILED') {
    throw new SandboxConfigError(
      'sendTestWebhook payload.errorDescription is only for status FAILED; a COMPLETED notification carries errorDescription null.',
      'payload.errorDescription',
    );
  }
}
