/**
 * Delivery faults (Sandbox.breakDeliveries, the deliveries page, `servicepay-sandbox break`):
 * checked once wherever they come from, put in a few words, and armed ahead of the
 * notifications they break (the fault plan): for one payment's next delivery, or for the next
 * notifications the sandbox sends as payments settle. The plan's listeners hear every change
 * (armed, or used up): the deliveries page shows what is armed.
 */
import { SandboxError } from '../api/errors';
import { createListeners } from './listeners';
import { MAX_TIMER_MS } from './scheduler';
import type { ArmedFaults, DeliveryFaults, DeliveryFaultTarget } from '../api/types';

/**
 * Each fault's rule. Bounded like the retry policy: a typo must not schedule a timer that
 * overflows, nor fail a thousand attempts.
 */
const FAULTS: Record<keyof DeliveryFaults, [rule: string, ok: (value: unknown) => boolean]> = {
  twiceAtOnce: ['true or false', (v) => typeof v === 'boolean'],
  lateResendMs: [
    `a number of milliseconds from 0 to ${MAX_TIMER_MS}`,
    (v) => isWithin(v, MAX_TIMER_MS),
  ],
  networkFailures: ['an integer from 0 to 1000', (v) => Number.isInteger(v) && isWithin(v, 1000)],
  delayMs: [`a number of milliseconds from 0 to ${MAX_TIMER_MS}`, (v) => isWithin(v, MAX_TIMER_MS)],
};

const isWithin = (value: unknown, max: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max;

/** Checks faults given by code, the page or the CLI; returns them without the keys left undefined. */
export function checkFaults(value: unknown): DeliveryFaults {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxError(
      'invalid-argument',
      'delivery faults must be an object such as { twiceAtOnce: true, networkFailures: 2 }.',
    );
  }
  const result: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(value)) {
    const fault = FAULTS[key as keyof DeliveryFaults] as
      (typeof FAULTS)[keyof DeliveryFaults] | undefined;
    if (fault === undefined) {
      throw new SandboxError(
        'invalid-argument',
        `unknown delivery fault ${JSON.stringify(key)}; the faults are ${Object.keys(FAULTS).join(', ')}.`,
      );
    }
    if (given === undefined) continue;
    if (!fault[1](given)) {
      throw new SandboxError(
        'invalid-argument',
        `delivery fault ${key} must be ${fault[0]}, got ${String(given)}.`,
      );
    }
    result[key] = given;
  }
  return result as DeliveryFaults;
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

export interface FaultPlan {
  /** Arms faults for one payment or the next notifications (Sandbox.breakDeliveries). */
  arm(faults: DeliveryFaults, target: DeliveryFaultTarget): ArmedFaults;
  armed(): ArmedFaults;
  /** Takes the faults armed for this payment, if any (a resend). */
  takeOwn(paymentId: string): DeliveryFaults | undefined;
  /** Takes the faults for a new notification: the payment's own, else the next ones'. */
  takeForNew(paymentId: string): DeliveryFaults | undefined;
  subscribe(listener: () => void): () => void;
  clear(): void;
}

export function createFaultPlan(log: (line: string) => void, describe: (e: unknown) => string) {
  let next: { faults: DeliveryFaults; remaining: number } | null = null;
  const payments = new Map<string, DeliveryFaults>();
  const listeners = createListeners((error) =>
    log(`a deliveries listener threw: ${describe(error)}`),
  );
  const changed = () => listeners.emit();

  const armed = (): ArmedFaults => ({
    next: next && { faults: { ...next.faults }, remaining: next.remaining },
    payments: Array.from(payments, ([paymentId, faults]) => ({ paymentId, faults: { ...faults } })),
  });

  function takeOwn(paymentId: string): DeliveryFaults | undefined {
    const own = payments.get(paymentId);
    if (own === undefined) return undefined;
    payments.delete(paymentId);
    changed();
    return own;
  }

  const plan: FaultPlan = {
    arm(faults, target) {
      const checked = checkFaults(faults);
      if ('paymentId' in target) {
        if (typeof target.paymentId !== 'string' || target.paymentId === '') {
          throw new SandboxError(
            'invalid-argument',
            'breakDeliveries target paymentId must be a payment id.',
          );
        }
        if (hasFault(checked)) payments.set(target.paymentId, checked);
        else payments.delete(target.paymentId);
      } else {
        const { count } = target;
        if (!Number.isInteger(count) || count < 0 || count > 1000) {
          throw new SandboxError(
            'invalid-argument',
            `breakDeliveries target count must be an integer from 0 to 1000, got ${String(count)}.`,
          );
        }
        next = count > 0 && hasFault(checked) ? { faults: checked, remaining: count } : null;
      }
      changed();
      return armed();
    },
    armed,
    takeOwn,
    takeForNew(paymentId) {
      const own = takeOwn(paymentId);
      if (own !== undefined || next === null) return own;
      const { faults } = next;
      next.remaining -= 1;
      if (next.remaining <= 0) next = null;
      changed();
      return faults;
    },
    subscribe: listeners.subscribe,
    clear: listeners.clear,
  };
  return plan;
}
