/**
 * Faults armed ahead of the notifications they break (Sandbox.breakDeliveries, the deliveries
 * page, `servicepay-sandbox break`): for one payment's next delivery, or for the next
 * notifications the sandbox sends as payments settle. Listeners hear every change (armed, or
 * used up): the deliveries page shows what is armed.
 */
import { SandboxError } from '../errors';
import { checkFaults, hasFault } from '../faults';
import type { ArmedFaults, DeliveryFaults, DeliveryFaultTarget } from '../types';

export interface FaultPlan {
  /** Arms faults for one payment or the next notifications; returns what is armed. */
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
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        log(`a deliveries listener threw: ${describe(error)}`);
      }
    }
  };

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
            'servicepay: breakDeliveries target paymentId must be a payment id.',
          );
        }
        if (hasFault(checked)) payments.set(target.paymentId, checked);
        else payments.delete(target.paymentId);
      } else {
        const { count } = target;
        if (!Number.isInteger(count) || count < 0 || count > 1000) {
          throw new SandboxError(
            'invalid-argument',
            `servicepay: breakDeliveries target count must be an integer from 0 to 1000, got ${String(count)}.`,
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
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear: () => listeners.clear(),
  };
  return plan;
}
