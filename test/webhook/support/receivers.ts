import { createFetchWebhookHandler, MemoryIdempotencyStore } from '../../../src/webhook/index';
import { serviceKeys } from './keys';
import type { SignedDelivery } from './notifications';
import type {
  FetchWebhookHandlerOptions,
  IdempotencyClaim,
  IdempotencyStore,
  WebhookErrorContext,
  WebhookNotification,
  WebhookNotificationContext,
} from '../../../src/webhook/index';

/** A store that records every call, over the real in-memory store. */
export class RecordingStore implements IdempotencyStore {
  readonly calls: string[] = [];
  readonly inner: IdempotencyStore;

  constructor(inner: IdempotencyStore = new MemoryIdempotencyStore()) {
    this.inner = inner;
  }

  async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
    const result = await this.inner.claim(key, ttlMs);
    this.calls.push(`claim ${key} -> ${result.state}`);
    return result;
  }

  async renew(key: string, token: string, ttlMs: number): Promise<boolean> {
    this.calls.push(`renew ${key}`);
    return this.inner.renew(key, token, ttlMs);
  }

  async complete(key: string, token: string, ttlMs: number): Promise<boolean> {
    this.calls.push(`complete ${key}`);
    return this.inner.complete(key, token, ttlMs);
  }

  async release(key: string, token: string): Promise<boolean> {
    this.calls.push(`release ${key}`);
    return this.inner.release(key, token);
  }
}

export interface Recorder {
  notifications: WebhookNotification[];
  contexts: WebhookNotificationContext[];
  errors: { error: unknown; context: WebhookErrorContext }[];
  onNotification: (n: WebhookNotification, c: WebhookNotificationContext) => Promise<void>;
  onError: (error: unknown, context: WebhookErrorContext) => void;
}

/**
 * Records what reached onNotification and onError. `behaviour` runs inside onNotification
 * (to delay or fail it) before the notification counts as handled.
 */
export function recorder(
  behaviour: (n: WebhookNotification, attempt: number) => void | Promise<void> = () => {},
): Recorder {
  const notifications: WebhookNotification[] = [];
  const contexts: WebhookNotificationContext[] = [];
  const errors: Recorder['errors'] = [];
  let attempts = 0;
  return {
    notifications,
    contexts,
    errors,
    async onNotification(n, c) {
      attempts++;
      await behaviour(n, attempts);
      notifications.push(n);
      contexts.push(c);
    },
    onError: (error, context) => {
      errors.push({ error, context });
    },
  };
}

/**
 * A Fetch receiver (createFetchWebhookHandler with the test service's key) as a function of a
 * signed delivery to the HTTP status it answers: the service's whole view of a delivery.
 * Unreconciled (`expectedPayment: 'unreconciled'`) unless the test gives a lookup: most of its
 * tests are about deliveries, claims and stores, not about orders.
 */
export function statusOf(
  options: Omit<FetchWebhookHandlerOptions, 'publicKey' | 'expectedPayment'> &
    Partial<Pick<FetchWebhookHandlerOptions, 'expectedPayment'>>,
): (delivery: SignedDelivery) => Promise<number> {
  const handle = createFetchWebhookHandler({
    publicKey: serviceKeys().publicText,
    expectedPayment: 'unreconciled',
    ...options,
  });
  return async (delivery) =>
    (
      await handle(
        new Request('http://localhost/', {
          method: 'PUT',
          body: delivery.body,
          headers: { authorization: delivery.authorization },
        }),
      )
    ).status;
}
