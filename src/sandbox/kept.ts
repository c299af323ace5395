/**
 * What the sandbox keeps in memory, and how much: it runs for days beside a merchant's
 * development server, and `POST /v1/payments` answers any origin (the browser component
 * calls it), so every store of it is bounded, the oldest dropped first.
 */
import { SandboxConfigError } from './errors';

/**
 * Delivery attempts kept by default: hundreds of payments' worth, a few megabytes at most
 * (each keeps its request and up to 4 KiB of answer).
 */
export const DEFAULT_DELIVERY_HISTORY = 1000;
/** Beyond this the deliveries page and /deliveries.json would be too slow to be of use. */
const MAX_DELIVERY_HISTORY = 100_000;

/**
 * Payments kept by default, each with its notification: a few days of a developer's testing,
 * about 20 MB (10,000 payments and their notifications took about 180 MB).
 */
export const DEFAULT_MAX_PAYMENTS = 1000;
const MAX_MAX_PAYMENTS = 100_000;

/** The option's count, checked: an integer from 1 to the bound. */
function keptCount(value: unknown, fallback: number, max: number, option: string, what: string) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new SandboxConfigError(
      `servicepay: sandbox option ${option} must be an integer from 1 to ${max} (${what}), got ${String(value)}.`,
      option,
    );
  }
  return value;
}

/** The `deliveryHistory` and `maxPayments` options, checked. */
export function keptCounts(options: { deliveryHistory?: unknown; maxPayments?: unknown }): {
  deliveryHistory: number;
  maxPayments: number;
} {
  return {
    deliveryHistory: keptCount(
      options.deliveryHistory,
      DEFAULT_DELIVERY_HISTORY,
      MAX_DELIVERY_HISTORY,
      'deliveryHistory',
      'the delivery attempts kept',
    ),
    maxPayments: keptCount(
      options.maxPayments,
      DEFAULT_MAX_PAYMENTS,
      MAX_MAX_PAYMENTS,
      'maxPayments',
      'the payments kept',
    ),
  };
}
