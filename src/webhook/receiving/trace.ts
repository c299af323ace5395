/**
 * A delivery's trace as the receiver and the dispatcher see it: the steps they run through it.
 * Without telemetry each step just runs (UNTRACED); receiver-telemetry.ts gives each a span.
 */
import type { WebhookNotification } from '../verification/notification';

/** The steps of a delivery that get a span of their own. */
export type DeliveryStep = 'verify' | 'claim' | 'handle' | 'complete';

/** One delivery's trace, handed down the receiver and the dispatcher. */
export interface DeliveryTrace {
  /** Runs one step as a child span; gives back what `run` gives (a value or a promise). */
  step<T>(name: DeliveryStep, run: () => T): T;
  /** Sets what the notification is about, once it is verified and parsed. */
  about(notification: WebhookNotification): void;
}

/** The trace of a receiver without telemetry: each step just runs. */
export const UNTRACED: DeliveryTrace = { step: (_, run) => run(), about: () => {} };
