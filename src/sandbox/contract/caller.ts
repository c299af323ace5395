/**
 * Who calls the contract: the environment and applicationId that both routes of the component
 * (the banks, institutions.ts; a payment, payments.ts) read first, refused with the
 * component's own `Input validation error: …` strings (spec 2.4, 7.3). A module of their own,
 * so that neither route imports the other.
 */
import { formatValidationIssue } from '../../core/index';
import type { Environment } from '../../core/index';

export function isEnvironment(value: unknown): value is Environment {
  return value === 'SANDBOX' || value === 'LIVE';
}

/** The message for an applicationId that is not a UUID. */
export function applicationIdError(value: unknown): string {
  return formatValidationIssue({ field: 'applicationId', value, reason: 'must be a UUID' });
}

/** The message for an environment other than SANDBOX or LIVE. */
export function environmentError(value: unknown): string {
  return formatValidationIssue({ field: 'environment', value, reason: 'must be SANDBOX or LIVE' });
}
