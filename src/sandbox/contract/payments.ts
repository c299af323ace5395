/**
 * What the component and merchant pages call, from any origin: payment requests (validated as
 * the component validates them); and a payment's status, for tools on this machine (no CORS).
 * JSON errors are `{ "error": "<message>" }`, the message being what the component reports to
 * errorConsumer. The banks and their icons (institutions.ts) and the script host are beside it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatValidationIssue, isUuid, validatePaymentArgs } from '../../core/index';
import type { ValidationIssue } from '../../core/index';
import { readBody, sendError, sendJson } from '../server/http';
import type { Doors } from '../server/http';
import type { ResolvedOptions } from '../api/options';
import { bankPath } from '../pages/page';
import type { PaymentStore, ValidInitiation } from '../payments/store';
import type { SandboxPayment } from '../api/types';
import { applicationIdError, environmentError, isEnvironment } from './caller';

/**
 * Largest payment request accepted. Metadata may be 5000 characters, each up to 6 bytes once
 * JSON-escaped (\uXXXX), plus the other fields: 64 KiB holds any valid request with room.
 */
export const MAX_PAYMENT_BODY_BYTES = 64 * 1024;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What the payment routes use of a running sandbox. */
export interface PaymentParts {
  institutions: ResolvedOptions['institutions'];
  payments: PaymentStore;
  doors: Pick<Doors, 'origin'>;
  log: (line: string) => void;
}

/**
 * Identifies a request body for Idempotency-Key comparison: the same JSON value gives the same
 * fingerprint whatever its key order or whitespace, so a client that re-serialises its retry
 * is not refused.
 */
function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export async function createPayment(
  req: IncomingMessage,
  res: ServerResponse,
  { institutions, payments, doors, log }: PaymentParts,
): Promise<void> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(contentType)) {
    return sendError(res, 415, 'The request body must be JSON (Content-Type: application/json)');
  }
  // Too large: BodyTooLargeError, answered 413 by the request handler (server/start.ts).
  const raw = await readBody(req, MAX_PAYMENT_BODY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return sendError(res, 400, 'The request body is not valid JSON');
  }

  const keyHeader = req.headers['idempotency-key'];
  let idempotency: { key: string; fingerprint: string } | undefined;
  if (keyHeader !== undefined) {
    if (
      typeof keyHeader !== 'string' ||
      keyHeader === '' ||
      keyHeader.length > MAX_IDEMPOTENCY_KEY_LENGTH
    ) {
      return sendError(
        res,
        400,
        `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
      );
    }
    // Keys are the merchant's: scoped by application, as one service serves many merchants.
    const applicationId = (body as { applicationId?: unknown } | null)?.applicationId;
    idempotency = {
      key: `${String(applicationId)}\n${keyHeader}`,
      fingerprint: requestFingerprint(body),
    };
    const match = payments.matchIdempotencyKey(idempotency.key, idempotency.fingerprint);
    if (match.kind === 'conflict') {
      return sendError(
        res,
        409,
        `The Idempotency-Key ${keyHeader} was already used with a different request`,
      );
    }
    if (match.kind === 'replay') {
      return sendJson(res, 200, created(doors.origin(req), match.payment), {
        'Idempotent-Replayed': 'true',
      });
    }
  }

  const checked = validateInitiation(body, (id) => institutions.has(id));
  if (!checked.ok) return sendError(res, 400, checked.error);
  const institution = institutions.get(checked.value.institutionId)!;
  if (!institution.available) {
    // A valid request the service cannot carry out now: 422, apart from the 400s of a wrong
    // request and the 409 of a reused Idempotency-Key. A component that ignored the list's
    // `available: false` still cannot start a payment here.
    log(`payment refused: ${institution.id} is unavailable`);
    return sendError(res, 422, unavailableError(institution.id, institution.name));
  }
  const payment = payments.create(checked.value, idempotency);
  log(
    `payment ${payment.paymentId} created: ${payment.amount} GBP, reference ${JSON.stringify(payment.reference)}, ${payment.institutionId}, ${payment.agentType}`,
  );
  sendJson(res, 201, created(doors.origin(req), payment));
}

/** The error of a payment at a bank marked unavailable (contract: 422). */
export function unavailableError(id: string, name: string): string {
  return `${name} (${id}) is unavailable at the moment: choose another bank`;
}

function created(origin: string, payment: SandboxPayment) {
  return {
    paymentId: payment.paymentId,
    authorisationUrl: `${origin}${bankPath(payment.paymentId)}`,
  };
}

/**
 * A payment's status, in the webhook's field names, for tests and tools on this machine. No
 * CORS: the component never reads it, and a page elsewhere has no business reading a payment.
 */
export function showPayment(
  req: IncomingMessage,
  res: ServerResponse,
  paymentId: string,
  { payments, doors }: Pick<PaymentParts, 'payments' | 'doors'>,
): void {
  const payment = payments.get(paymentId);
  if (payment === undefined)
    return sendError(res, 404, `No sandbox payment has the id ${paymentId}`);
  sendJson(res, 200, {
    paymentId: payment.paymentId,
    merchantPaymentId: payment.merchantPaymentId,
    paymentStatus: payment.status,
    errorDescription: payment.errorDescription,
    paymentRequest: {
      amount: payment.amount,
      currency: payment.currency,
      reference: payment.reference,
    },
    paymentMetadata: payment.metadata,
    agentType: payment.agentType,
    institutionId: payment.institutionId,
    environment: payment.environment,
    applicationId: payment.applicationId,
    createdAt: payment.createdAt,
    settledAt: payment.settledAt,
    authorisationUrl: created(doors.origin(req), payment).authorisationUrl,
  });
}

// Validation of `POST /v1/payments` bodies (the PaymentInitiation of src/core/transport.ts).
// The payment fields reuse core's createPayment rules, so the sandbox refuses exactly what the
// component refuses, with the same `Input validation error: …` strings (spec 2.4, 7.3).

export type InitiationResult = { ok: true; value: ValidInitiation } | { ok: false; error: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const invalid = (field: string, value: unknown, reason: string): InitiationResult => ({
  ok: false,
  error: formatValidationIssue({ field, value, reason } satisfies ValidationIssue),
});

export function validateInitiation(
  body: unknown,
  isKnownInstitution: (id: string) => boolean,
): InitiationResult {
  if (!isObject(body)) return invalid('request', body, 'must be a JSON object');
  const { environment, applicationId, institutionId, paymentRequest } = body;
  if (!isEnvironment(environment)) return { ok: false, error: environmentError(environment) };
  if (!isUuid(applicationId)) return { ok: false, error: applicationIdError(applicationId) };
  if (typeof institutionId !== 'string' || !isKnownInstitution(institutionId)) {
    return invalid(
      'institutionId',
      institutionId,
      'must be the id of an institution listed by GET /v1/institutions',
    );
  }
  if (!isObject(paymentRequest))
    return invalid('paymentRequest', paymentRequest, 'must be an object');
  const { amount, currency, reference } = paymentRequest;
  if (currency !== 'GBP') {
    return invalid('paymentRequest.currency', currency, 'must be GBP (the only currency)');
  }
  const merchantPaymentId = body.merchantPaymentId ?? undefined;
  const metadata = body.paymentMetadata ?? undefined;
  // The component always sends agentType; WEB_BROWSER is its default (spec 2.2) for others.
  const agentType = body.agentType ?? 'WEB_BROWSER';
  const checked = validatePaymentArgs({
    amount,
    paymentReference: reference,
    currency,
    merchantPaymentId,
    metadata,
    agentType,
  });
  if (!checked.ok) return { ok: false, error: formatValidationIssue(checked.issue) };
  const payment = checked.value;
  return {
    ok: true,
    value: {
      environment,
      applicationId,
      institutionId,
      amount: payment.amount,
      reference: payment.reference,
      merchantPaymentId: payment.merchantPaymentId ?? null,
      metadata: payment.metadata ?? null,
      agentType: payment.agentType ?? 'WEB_BROWSER',
    },
  };
}
