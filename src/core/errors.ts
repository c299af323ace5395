import { describeValue } from './describe-value';

export { describeValue };

/** A value that failed validation, named by the backend's field path (spec 2.4). */
export interface ValidationIssue {
  field: string;
  value: unknown;
  reason: string;
}

/** `Input validation error: field=[<field>], value=[<value>], error=[<reason>]` (spec 2.4). */
export function formatValidationIssue(issue: ValidationIssue): string {
  return `Input validation error: field=[${issue.field}], value=[${describeValue(issue.value)}], error=[${issue.reason}]`;
}

// Fields are assigned in the constructors, not declared with initialisers: down-levelled class
// fields cost every bundle a defineProperty helper.

/** Thrown (and reported) when options or payment arguments are invalid. */
export class ServiceValidationError extends Error {
  declare readonly name: 'ServiceValidationError';
  declare readonly field: string;
  declare readonly value: unknown;
  declare readonly reason: string;
  constructor(issue: ValidationIssue) {
    super(formatValidationIssue(issue));
    this.name = 'ServiceValidationError';
    this.field = issue.field;
    this.value = issue.value;
    this.reason = issue.reason;
  }
}

/** A failed backend call. `message` is what the component reports to `errorConsumer`. */
export class ServiceTransportError extends Error {
  declare readonly name: 'ServiceTransportError';
  /** HTTP status, when the backend answered. */
  declare readonly status: number | undefined;
  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceTransportError';
    this.status = status;
  }
}

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Unknown error';
