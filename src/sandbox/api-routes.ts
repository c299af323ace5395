/**
 * The JSON API: exactly what createHttpTransport (src/core/http-transport.ts) calls, plus
 * read-only views for the example app and tests. Errors are `{ "error": "<message>" }`, the
 * message being what the component reports to errorConsumer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bankPath } from './bank-page';
import type { SandboxContext } from './context';
import { readBody, sendError, sendJson } from './http';
import {
  applicationIdError,
  environmentError,
  isEnvironment,
  isUuid,
  validateInitiation,
} from './initiation';
import { requestFingerprint } from './payments';
import type { SandboxPayment } from './types';

/**
 * Largest payment request accepted. Metadata may be 5000 characters, each up to 6 bytes once
 * JSON-escaped (\uXXXX), plus the other fields: 64 KiB holds any valid request with room.
 */
export const MAX_PAYMENT_BODY_BYTES = 64 * 1024;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export function listInstitutions(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  ctx: SandboxContext,
): void {
  const environment = query.get('environment');
  if (!isEnvironment(environment)) return sendError(res, 400, environmentError(environment));
  const applicationId = query.get('applicationId');
  if (!isUuid(applicationId)) return sendError(res, 400, applicationIdError(applicationId));
  const origin = ctx.doors.origin(req);
  const institutions = Array.from(ctx.options.institutions.values(), ({ id, name }) => ({
    id,
    name,
    iconUrl: `${origin}/icons/${id}.svg`,
  }));
  sendJson(res, 200, { institutions });
}

export async function createPayment(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: SandboxContext,
): Promise<void> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(contentType)) {
    return sendError(res, 415, 'The request body must be JSON (Content-Type: application/json)');
  }
  // Too large: BodyTooLargeError, answered 413 by the router.
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
    const match = ctx.payments.matchIdempotencyKey(idempotency.key, idempotency.fingerprint);
    if (match.kind === 'conflict') {
      return sendError(
        res,
        409,
        `The Idempotency-Key ${keyHeader} was already used with a different request`,
      );
    }
    if (match.kind === 'replay') {
      return sendJson(res, 200, created(req, match.payment, ctx), {
        'Idempotent-Replayed': 'true',
      });
    }
  }

  const checked = validateInitiation(body, (id) => ctx.options.institutions.has(id));
  if (!checked.ok) return sendError(res, 400, checked.error);
  const payment = ctx.payments.create(checked.value, idempotency);
  ctx.options.log(
    `payment ${payment.paymentId} created: ${payment.amount} GBP, reference ${JSON.stringify(payment.reference)}, ${payment.institutionId}, ${payment.agentType}`,
  );
  sendJson(res, 201, created(req, payment, ctx));
}

function created(req: IncomingMessage, payment: SandboxPayment, ctx: SandboxContext) {
  return {
    paymentId: payment.paymentId,
    authorisationUrl: `${ctx.doors.origin(req)}${bankPath(payment.paymentId)}`,
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
  ctx: SandboxContext,
): void {
  const payment = ctx.payments.get(paymentId);
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
    authorisationUrl: `${ctx.doors.origin(req)}${bankPath(payment.paymentId)}`,
  });
}
