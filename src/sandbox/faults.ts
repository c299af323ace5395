/**
 * Delivery faults (Sandbox.breakDeliveries, the deliveries page, `servicepay-sandbox break`):
 * checked once wherever they come from, and put in a few words.
 */
import { SandboxError } from './errors';
import type { DeliveryFaults } from './types';

const FAULT_LIMIT_MS = 2 ** 31 - 1;

/**
 * Checks faults given by code, the page or the CLI; returns them without the keys left
 * undefined. Bounded like the retry policy: a typo must not schedule a timer that overflows.
 */
export function checkFaults(value: unknown): DeliveryFaults {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxError(
      'invalid-argument',
      'servicepay: delivery faults must be an object such as { twiceAtOnce: true, networkFailures: 2 }.',
    );
  }
  const faults = value as Record<string, unknown>;
  const known = ['twiceAtOnce', 'lateResendMs', 'networkFailures', 'delayMs'];
  const unknown = Object.keys(faults).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new SandboxError(
      'invalid-argument',
      `servicepay: unknown delivery fault ${JSON.stringify(unknown[0])}; the faults are ${known.join(', ')}.`,
    );
  }
  const result: DeliveryFaults = {};
  if (faults.twiceAtOnce !== undefined) {
    if (typeof faults.twiceAtOnce !== 'boolean') {
      throw new SandboxError(
        'invalid-argument',
        'servicepay: delivery fault twiceAtOnce must be true or false.',
      );
    }
    result.twiceAtOnce = faults.twiceAtOnce;
  }
  const count = (key: 'networkFailures', max: number) => {
    const n = faults[key];
    if (n === undefined) return;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
      throw new SandboxError(
        'invalid-argument',
        `servicepay: delivery fault ${key} must be an integer from 0 to ${max}, got ${String(n)}.`,
      );
    }
    result[key] = n;
  };
  const ms = (key: 'lateResendMs' | 'delayMs') => {
    const n = faults[key];
    if (n === undefined) return;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > FAULT_LIMIT_MS) {
      throw new SandboxError(
        'invalid-argument',
        `servicepay: delivery fault ${key} must be a number of milliseconds from 0 to ${FAULT_LIMIT_MS}, got ${String(n)}.`,
      );
    }
    result[key] = n;
  };
  count('networkFailures', 1000);
  ms('lateResendMs');
  ms('delayMs');
  return result;
}

/** The faults in a few words, for the page and the log: "twice at once, 2 network failures". */
export function describeFaults(faults: DeliveryFaults): string {
  const parts: string[] = [];
  if (faults.twiceAtOnce) parts.push('twice at once');
  if (faults.lateResendMs !== undefined) parts.push(`again ${faults.lateResendMs} ms after a 200`);
  if (faults.networkFailures) {
    parts.push(
      `${faults.networkFailures} network failure${faults.networkFailures === 1 ? '' : 's'} first`,
    );
  }
  if (faults.delayMs) parts.push(`delayed ${faults.delayMs} ms`);
  return parts.length > 0 ? parts.join(', ') : 'no fault';
}

/** Whether the faults change anything (a 0 or false is no fault). */
export const hasFault = (faults: DeliveryFaults) =>
  Boolean(faults.twiceAtOnce || faults.networkFailures || faults.delayMs) ||
  faults.lateResendMs !== undefined;
