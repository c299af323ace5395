/**
 * Options shared by the node:http and Fetch receivers, and what their hooks receive.
 */
import type { WebhookEnvironment } from './fetch-public-key';
import type { KeyInput } from './key-source';
import type { WebhookNotification } from './notification';
import type { WebhookOutcome } from './outcome';
import type { IdempotencyStore } from './store';

/** Passed to onNotification with each notification. */
export interface WebhookNotificationContext {
  /** The key the notification was claimed under in the idempotency store. */
  idempotencyKey: string;
  /** The exact bytes received and verified. */
  rawBody: Uint8Array;
  /** The address the delivery came from, when known. */
  sourceAddress: string | undefined;
}

/** Passed to onError with each error. */
export interface WebhookErrorContext {
  /** What the handler concluded. */
  outcome: WebhookOutcome;
  /** The HTTP status it answered. */
  status: number;
  /** The notification, when the body had been verified and parsed. */
  notification?: WebhookNotification;
}

/**
 * Options common to createWebhookHandler and createFetchWebhookHandler. Give exactly one of
 * `publicKey`, `publicKeyUrl` or `environment`. `K` is the runtime's key object type.
 */
export interface WebhookReceiverOptions<K> {
  /**
   * The service's public key: the text served at `<base>/.well-known/signature/pem`, a full
   * PEM, or a key object. A fixed key is never refetched.
   */
  publicKey?: KeyInput<K>;
  /**
   * The full address of the public-key endpoint. The key is fetched at the first delivery,
   * cached, and refetched once when a signature fails (key rotation).
   */
  publicKeyUrl?: string;
  /** Fetch the key from this environment's endpoint, as publicKeyUrl does. */
  environment?: WebhookEnvironment;
  /**
   * Base address of `environment`'s endpoint. Required for LIVE (no address is specified).
   * @default 'http://localhost:4010' for SANDBOX (the local sandbox)
   */
  publicKeyBaseUrl?: string;
  /**
   * Handles a verified notification. Called once per distinct notification; the service is
   * answered 200 only after it resolves. If it throws or rejects, the service is answered 500
   * and its resend is processed again: make it safe to retry after a partial failure.
   */
  onNotification: (
    notification: WebhookNotification,
    context: WebhookNotificationContext,
  ) => void | Promise<void>;
  /**
   * Records which notifications were handled. Use a shared store when several instances
   * receive webhooks (see IdempotencyStore for the contract).
   * @default new MemoryIdempotencyStore()
   */
  store?: IdempotencyStore;
  /**
   * Largest body accepted, in bytes; larger deliveries get 413 without being buffered.
   * @default 65536
   */
  maxBodyBytes?: number;
  /**
   * Only deliveries from these IP addresses are accepted (spec 5.1.7, the service's static
   * address for the environment); others get 403. Exact addresses; IPv4-mapped IPv6 matches.
   * @default undefined (every address)
   */
  allowedSourceAddresses?: readonly string[];
  /**
   * Derives the idempotency key of a notification.
   * @default notificationIdempotencyKey (`<paymentId>:<paymentStatus>`)
   */
  idempotencyKey?: (notification: WebhookNotification) => string;
  /**
   * How long a claim protects a notification being handled. The receiver renews it every
   * claimTtlMs/3 while onNotification runs, so it bounds how long a crashed instance delays
   * the resend, not how long a handler may run. At least 1000.
   * @default 30000 (30 seconds)
   */
  claimTtlMs?: number;
  /**
   * Longest onNotification is trusted to run: after it the claim is no longer renewed and
   * lapses claimTtlMs later, so a hung handler does not block its notification for ever.
   * @default 300000 (5 minutes)
   */
  maxHandlingMs?: number;
  /**
   * How long a handled notification is remembered, answering its resends 200 without a call.
   * @default 86400000 (24 hours)
   */
  completedTtlMs?: number;
  /**
   * Least time between two refetches of the key after signature failures, so forged
   * deliveries cannot flood the key endpoint. The first refetch is never delayed.
   * @default 30000
   */
  keyRefreshIntervalMs?: number;
  /**
   * The fetch implementation used for the public key.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Told about every delivery not answered 200, and about store failures after success, for
   * logging. Errors it throws are ignored.
   * @default logs outcomes with a 5xx status through console.error
   */
  onError?: (error: unknown, context: WebhookErrorContext) => void;
}
