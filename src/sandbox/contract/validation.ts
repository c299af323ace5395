/**
 * Validation of `POST /v1/payments` bodies (the PaymentInitiation of src/core/transport.ts).
 * The payment fields reuse core's createPayment rules, so the sandbox refuses exactly what the
 * component refuses, with the same `Input validation error: …` strings (spec 2.4, 7.3).
 */
import { formatValidationIssue, isUuid, validatePaymentArgs } from '../../core/index';
import type { Environment, ValidationIssue } from '../../core/index';
import type { ValidInitiation } from '../payment-store';

export type InitiationResult = { ok: true; value: ValidInitiation } | { ok: false; error: string };

export function isEnvironment(value: unknown): value is Environment {
  return value === 'SANDBOX' || value === 'LIVE';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const invalid = (field: string, value: unknown, reason: string): InitiationResult => ({
  ok: false,
  error: formatValidationIssue({ field, value, reason } satisfies ValidationIssue),
});

/** The message for an applicationId that is not a UUID (shared with the institutions route). */
export function applicationIdError(value: unknown): string {
  return formatValidationIssue({ field: 'applicationId', value, reason: 'must be a UUID' });
}

/** The message for an environment other than SANDBOX or LIVE. */
export function environmentError(value: unknown): string {
  return formatValidationIssue({ field: 'environment', value, reason: 'must be SANDBOX or LIVE' });
}

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
