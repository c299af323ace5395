/**
 * The receiver options after defaults and validation. Mistakes are reported when the handler
 * is created, not at the first delivery.
 */
import { WebhookConfigError } from './errors';
import { publicKeyUrl } from './fetch-public-key';
import type { WebhookEnvironment } from './fetch-public-key';
import { fixedKeySource, urlKeySource } from './key-source';
import type { KeySource } from './key-source';
import { MemoryIdempotencyStore } from './memory-store';
import type { WebhookNotification } from './notification';
import type { WebhookErrorContext, WebhookReceiverOptions } from './options';
import { normalisePublicKey } from './public-key-text';
import { createAddressFilter } from './source-address';
import { MIN_CLAIM_TTL_MS, notificationIdempotencyKey } from './store';
import type { IdempotencyStore } from './store';

/** Options after defaults and validation. */
export interface ResolvedReceiverOptions<K> {
  keys: KeySource<K>;
  onNotification: WebhookReceiverOptions<K>['onNotification'];
  store: IdempotencyStore;
  maxBodyBytes: number;
  isAllowedSource: ((address: string | null | undefined) => boolean) | null;
  idempotencyKey: (notification: WebhookNotification) => string;
  claimTtlMs: number;
  completedTtlMs: number;
  maxHandlingMs: number;
  report: (error: unknown, context: WebhookErrorContext) => void;
}

export function resolveReceiverOptions<K>(
  options: WebhookReceiverOptions<K>,
  checkKeyObject: (key: unknown) => void,
): ResolvedReceiverOptions<K> {
  if (typeof options !== 'object' || options === null) {
    throw new WebhookConfigError(
      'servicepay: webhook handler options must be an object.',
      'options',
    );
  }
  if (typeof options.onNotification !== 'function') {
    throw new WebhookConfigError(
      'servicepay: onNotification must be a function that handles a verified notification.',
      'onNotification',
    );
  }
  const store = options.store ?? new MemoryIdempotencyStore();
  if (!isStore(store)) {
    throw new WebhookConfigError(
      'servicepay: store must implement claim(key, ttlMs), renew(key, token, ttlMs), complete(key, token, ttlMs) and release(key, token) (the IdempotencyStore of servicepay 0.10).',
      'store',
    );
  }
  if (options.idempotencyKey !== undefined && typeof options.idempotencyKey !== 'function') {
    throw new WebhookConfigError(
      'servicepay: idempotencyKey must be a function.',
      'idempotencyKey',
    );
  }
  const onError = options.onError ?? logServerErrors;
  return {
    keys: keySource(options, checkKeyObject),
    onNotification: options.onNotification,
    store,
    maxBodyBytes: positive(options.maxBodyBytes, 65_536, 'maxBodyBytes'),
    isAllowedSource: createAddressFilter(options.allowedSourceAddresses),
    idempotencyKey: options.idempotencyKey ?? notificationIdempotencyKey,
    claimTtlMs: claimTtl(options.claimTtlMs),
    completedTtlMs: positive(options.completedTtlMs, 86_400_000, 'completedTtlMs'),
    maxHandlingMs: positive(options.maxHandlingMs, 300_000, 'maxHandlingMs'),
    report: (error, context) => {
      try {
        onError(error, context);
      } catch {
        // A logging hook must never change the answer to the service.
      }
    },
  };
}

function keySource<K>(
  options: WebhookReceiverOptions<K>,
  checkKeyObject: (key: unknown) => void,
): KeySource<K> {
  const given = [options.publicKey, options.publicKeyUrl, options.environment].filter(
    (value) => value !== undefined,
  ).length;
  if (given !== 1) {
    throw new WebhookConfigError(
      given === 0
        ? 'servicepay: the webhook handler needs the service public key: pass publicKey (the text of /.well-known/signature/pem), publicKeyUrl, or environment.'
        : 'servicepay: pass only one of publicKey, publicKeyUrl and environment.',
      'publicKey',
    );
  }
  if (options.publicKey !== undefined) {
    // Check the key now: a bad key should fail at start-up, not at the first payment.
    if (typeof options.publicKey === 'string') normalisePublicKey(options.publicKey);
    else checkKeyObject(options.publicKey);
    return fixedKeySource(options.publicKey);
  }
  const url = publicKeyUrl(
    options.publicKeyUrl !== undefined
      ? { url: options.publicKeyUrl }
      : {
          environment: options.environment as WebhookEnvironment,
          ...(options.publicKeyBaseUrl === undefined ? {} : { baseUrl: options.publicKeyBaseUrl }),
        },
  );
  return urlKeySource<K>(url, {
    fetch: options.fetch,
    refreshIntervalMs: positive(options.keyRefreshIntervalMs, 30_000, 'keyRefreshIntervalMs', true),
  });
}

function isStore(value: unknown): value is IdempotencyStore {
  const store = value as Partial<IdempotencyStore> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    typeof store.claim === 'function' &&
    typeof store.complete === 'function' &&
    typeof store.release === 'function' &&
    typeof store.renew === 'function'
  );
}

/** Stores keep time in milliseconds but are only held to lifetimes from MIN_CLAIM_TTL_MS up. */
function claimTtl(value: unknown): number {
  const ttl = positive(value, 30_000, 'claimTtlMs');
  if (ttl < MIN_CLAIM_TTL_MS) {
    throw new WebhookConfigError(
      `servicepay: claimTtlMs must be at least ${MIN_CLAIM_TTL_MS} milliseconds, got ${ttl}.`,
      'claimTtlMs',
    );
  }
  return ttl;
}

function positive(value: unknown, fallback: number, option: string, allowZero = false): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (value === 0 && !allowZero)
  ) {
    throw new WebhookConfigError(
      `servicepay: ${option} must be a ${allowZero ? 'non-negative' : 'positive'} number of ${option.endsWith('Bytes') ? 'bytes' : 'milliseconds'}, got ${String(value)}.`,
      option,
    );
  }
  return value;
}

function logServerErrors(error: unknown, context: WebhookErrorContext): void {
  if (context.status >= 500) {
    console.error(`servicepay webhook: answered ${context.status} (${context.outcome})`, error);
  }
}
