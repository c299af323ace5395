/**
 * What the component and merchant pages call, from any origin: payment requests (validated as
 * the component validates them); and a payment's status, for tools on this machine (no CORS).
 * JSON errors are `{ "error": "<message>" }`, the message being what the component reports to
 * errorConsumer. The banks and their icons (institutions.ts) and the script host are beside it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendError, sendJson } from '../http';
import type { Doors } from '../http';
import type { ResolvedOptions } from '../options';
import { bankPath } from '../pages/page';
import type { PaymentStore } from '../payment-store';
import type { SandboxPayment } from '../types';
import { validateInitiation } from './validation';

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
  // Too large: BodyTooLargeError, answered 413 by the request handler (server.ts).
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
