import type { ValidationIssue } from './errors';
import type { AgentType, PreparedPayment } from './types';

// Validation of what arrives from merchant code as `unknown` (TypeScript users are also
// guarded by the types; plain-JS and script-tag users are not). Field names are the
// backend's (spec 2.4), so errors read the same as the service's own.

export type Result<T> = { ok: true; value: T } | { ok: false; issue: ValidationIssue };

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = (field: string, value: unknown, reason: string): Result<never> => ({
  ok: false,
  issue: { field, value, reason },
});

export const MAX_REFERENCE_LENGTH = 18;
export const MAX_METADATA_LENGTH = 5000;
const AGENT_TYPES: readonly string[] = ['WEB_BROWSER', 'MOBILE_APPLICATION'];
const ENVIRONMENTS: readonly string[] = ['SANDBOX', 'LIVE'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Amount in pounds: finite, > 0, at most two decimals. Binary floating-point noise
 * (0.1 + 0.2 = 0.30000000000000004) is tolerated and rounded away, so the backend
 * receives 0.3; 1.005 is three decimals and is refused.
 */
export function validateAmount(value: unknown): Result<number> {
  const field = 'paymentRequest.amount';
  if (value === undefined || value === null) return fail(field, value, 'must not be null');
  if (typeof value !== 'number') return fail(field, value, 'must be a number');
  if (!Number.isFinite(value)) return fail(field, value, 'must be a finite number');
  if (value <= 0) return fail(field, value, 'must be greater than 0');
  const pence = Math.round(value * 100);
  if (!Number.isSafeInteger(pence)) return fail(field, value, 'is too large');
  const rounded = pence / 100;
  // A few units in the last place of the value itself: noise at any magnitude, never a
  // third decimal (1.005 and 134217895.615 are refused, 134217895.61 is not).
  if (Math.abs(rounded - value) > 4 * Number.EPSILON * Math.max(1, value)) {
    return fail(field, value, 'must have at most 2 decimal places');
  }
  if (pence < 1) return fail(field, value, 'must be at least 0.01');
  return ok(rounded);
}

export function validateReference(value: unknown): Result<string> {
  const field = 'paymentRequest.reference';
  if (value === undefined || value === null) return fail(field, value, 'must not be null');
  if (typeof value !== 'string') return fail(field, value, 'must be a string');
  if (value.trim() === '') return fail(field, value, 'must not be blank');
  // UTF-16 length, as the service's (Java) validation counts it.
  if (value.length > MAX_REFERENCE_LENGTH) {
    return fail(field, value, `must not be longer than ${MAX_REFERENCE_LENGTH} characters`);
  }
  return ok(value);
}

export function validateAgentType(value: unknown, field = 'agentType'): Result<AgentType> {
  if (typeof value === 'string' && AGENT_TYPES.includes(value)) return ok(value as AgentType);
  return fail(field, value, 'must be one of WEB_BROWSER, MOBILE_APPLICATION');
}

/**
 * Metadata travels as JSON and comes back unchanged in the webhook, so what is sent is the
 * JSON round trip of the object: no prototype, getters or functions survive, and a cyclic
 * or absurdly deep object is refused rather than crashing the page.
 */
export function validateMetadata(value: unknown): Result<Record<string, unknown>> {
  const field = 'paymentMetadata';
  const notObject = 'must be a JSON object (not a number, string or array)';
  if (!isPlainObject(value)) return fail(field, value, notObject);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return fail(field, value, 'must be serialisable to JSON');
  if (json.length > MAX_METADATA_LENGTH) {
    return fail(
      field,
      value,
      `must not be longer than ${MAX_METADATA_LENGTH} characters after serialisation`,
    );
  }
  // What is sent is the JSON: an object whose toJSON makes it an array is not an object.
  const sent: unknown = JSON.parse(json);
  return isPlainObject(sent) ? ok(sent) : fail(field, value, notObject);
}

/** Validates the argument of `createPayment` (spec 2.3) before anything can be sent. */
export function validatePaymentArgs(args: unknown): Result<PreparedPayment> {
  if (!isPlainObject(args)) return fail('paymentRequest', args, 'must be an object');
  const amount = validateAmount(args.amount);
  if (!amount.ok) return amount;
  const reference = validateReference(args.paymentReference);
  if (!reference.ok) return reference;
  if ('currency' in args && args.currency !== 'GBP') {
    return fail('paymentRequest.currency', args.currency, 'must be GBP (the only currency)');
  }
  const { merchantPaymentId, metadata, agentType } = args;
  if (
    merchantPaymentId !== undefined &&
    (typeof merchantPaymentId !== 'string' || !merchantPaymentId.trim())
  ) {
    return fail('merchantPaymentId', merchantPaymentId, 'must be a non-empty string');
  }
  let meta: Record<string, unknown> | undefined;
  if (metadata !== undefined && metadata !== null) {
    const checked = validateMetadata(metadata);
    if (!checked.ok) return checked;
    meta = checked.value;
  }
  let agent: AgentType | undefined;
  if (agentType !== undefined) {
    const checked = validateAgentType(agentType);
    if (!checked.ok) return checked;
    agent = checked.value;
  }
  return ok({
    amount: amount.value,
    reference: reference.value,
    merchantPaymentId: merchantPaymentId as string | undefined,
    metadata: meta,
    agentType: agent,
  });
}

const FUNCTION_OPTIONS = [
  'eventConsumer',
  'errorConsumer',
  'openUrl',
  'generateMerchantPaymentId',
  'onPaymentInitiated',
] as const;
const BOOLEAN_OPTIONS = [
  'disablePayButton',
  'isWebView',
  'disableVolumeStyling',
  'disableTailwindStyling',
] as const;
const STRING_OPTIONS = ['title', 'label', 'payLabel'] as const;

/** Validates component options (spec 2.2); the first problem found, or undefined. */
export function validateOptions(options: unknown): ValidationIssue | undefined {
  if (!isPlainObject(options))
    return { field: 'options', value: options, reason: 'must be an object' };
  const { environment, applicationId, agentType, baseUrl, transport } = options;
  if (typeof environment !== 'string' || !ENVIRONMENTS.includes(environment)) {
    return { field: 'environment', value: environment, reason: 'must be SANDBOX or LIVE' };
  }
  if (typeof applicationId !== 'string' || !UUID.test(applicationId)) {
    return { field: 'applicationId', value: applicationId, reason: 'must be a UUID' };
  }
  if (agentType !== undefined) {
    const checked = validateAgentType(agentType);
    if (!checked.ok) return checked.issue;
  }
  for (const key of BOOLEAN_OPTIONS) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      return { field: key, value: options[key], reason: 'must be a boolean' };
    }
  }
  for (const key of STRING_OPTIONS) {
    if (options[key] !== undefined && typeof options[key] !== 'string') {
      return { field: key, value: options[key], reason: 'must be a string' };
    }
  }
  for (const key of FUNCTION_OPTIONS) {
    if (options[key] !== undefined && typeof options[key] !== 'function') {
      return { field: key, value: options[key], reason: 'must be a function' };
    }
  }
  if (baseUrl !== undefined && (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl))) {
    return { field: 'baseUrl', value: baseUrl, reason: 'must be an absolute http(s) URL' };
  }
  if (
    transport !== undefined &&
    (!isPlainObjectLike(transport) ||
      typeof transport.fetchInstitutions !== 'function' ||
      typeof transport.initiatePayment !== 'function')
  ) {
    return {
      field: 'transport',
      value: transport,
      reason: 'must have fetchInstitutions and initiatePayment functions',
    };
  }
  return undefined;
}

function isPlainObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
