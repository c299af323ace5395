/**
 * The receiver's options: what merchants pass to the node:http and Fetch receivers, what their
 * hooks receive, and the same options after defaults and validation. Mistakes are reported when
 * the handler is created, not at the first delivery, with one exception: a key that is simply
 * absent (its environment variable unset, as during `next build` or a CI build without
 * secrets) only warns, so a route module that creates its handler at module level still
 * imports; deliveries are then answered 500 with an error naming the variable.
 */
import { defaultErrorLog } from './error-log';
import { WebhookConfigError } from '../errors';
import type { WebhookNotification, WebhookNotificationContext } from '../verification/notification';
import type { WebhookErrorContext } from './verdicts';
import { publicKeyUrl, urlKeySource } from '../verification/key-fetch';
import { fixedKeySource, missingKeySource } from '../verification/fixed-keys';
import type { KeySource, WebhookEnvironment } from '../verification/key-fetch';
import { PUBLIC_KEY_ENV } from '../verification/public-key';
import type { CryptoProvider, KeyInput } from '../verification/public-key';
import { amountOf, atLeast, callback, callbackOr, checkOption } from '../option-checks';
import {
  MemoryIdempotencyStore,
  MIN_CLAIM_TTL_MS,
  notificationIdempotencyKey,
} from '../stores/idempotency';
import type { IdempotencyStore } from '../stores/idempotency';
import { orderBook, orderMethodsOf, ORDER_METHODS } from '../stores/orders';
import { createNotificationHandler, UNRECONCILED } from './reconcile';
import type { NotificationHandler, ReconcileOptions } from './reconcile';
import { createTelemetry, observeStore } from '../telemetry';
import type { Telemetry, TelemetryOptions } from '../telemetry';
import { prefixed } from '../prefixed';

/**
 * Options common to createWebhookHandler and createFetchWebhookHandler. Give exactly one of
 * `publicKey`, `publicKeyUrl` or `environment`. `K` is the runtime's key object type.
 */
export interface WebhookReceiverOptions<K> extends ReconcileOptions, TelemetryOptions {
  /**
   * The service's public key: the text served at `<base>/.well-known/signature/pem`, a full
   * PEM, or a key object; or several, to rotate without downtime (`[current, next]`: a
   * notification verified by any of them is accepted; absent or empty entries are left out, a
   * repeated key is kept once; more than 3 different keys throw WebhookConfigError).
   * A fixed key is never refetched. The documented form is
   * `publicKey: process.env.SERVICEPAY_PUBLIC_KEY`: when it is undefined or empty (and neither
   * publicKeyUrl nor environment is given) the handler is still created, with a console
   * warning, and answers every delivery 500. A key that is present but malformed, cut short or
   * under 2048 bits throws WebhookKeyError at creation.
   */
  publicKey?: KeyInput<K> | readonly (KeyInput<K> | undefined)[];
  /**
   * The full address of the public-key endpoint: https (plain http only to a loopback address).
   * The key is fetched at the first delivery, cached, and refetched once when a signature fails
   * (key rotation). Redirects are followed only within the same origin.
   */
  publicKeyUrl?: string;
  /** Fetch the key from this environment's endpoint, as publicKeyUrl does. */
  environment?: WebhookEnvironment;
  /**
   * Base address of `environment`'s endpoint. Required for LIVE (no address is specified), and
   * https for LIVE.
   * @default 'http://127.0.0.1:4010' for SANDBOX (the local sandbox)
   */
  publicKeyBaseUrl?: string;
  /**
   * Handles a verified notification. Called once per distinct notification; the service is
   * answered 200 only after it resolves. If it throws or rejects, the service is answered 500
   * and its resend is processed again: make it safe to retry after a partial failure. Besides
   * COMPLETED and FAILED it gets the service's other statuses (SETTLED, PENDING) as received;
   * with `expectedPayment`, a COMPLETED that does not match its order goes to onMismatch.
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
   * @default `${paymentId}:${paymentStatus}` (notificationIdempotencyKey)
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
   * How long the store remembers which payment paid an order (expectedPayment's `orderId`), so
   * that a later COMPLETED of another payment for it is `already-paid`. After it, only your
   * order's own answer (acceptsPayment: false once you mark it paid) stops a second payment.
   * @default 2592000000 (30 days)
   */
  orderTtlMs?: number;
  /**
   * How long a payment's outcome is kept for its return page (createPaymentStatusHandler), when
   * the store records outcomes (the memory, PostgreSQL and Redis stores do).
   * @default 86400000 (24 hours)
   */
  outcomeTtlMs?: number;
  /**
   * Least time between two refetches of the key after signature failures, so forged
   * deliveries cannot flood the key endpoint, and how long a failed fetch is remembered
   * (deliveries meanwhile get the same error without a request). The first fetch and the
   * first refetch are never delayed.
   * @default 30000
   */
  keyRefreshIntervalMs?: number;
  /**
   * The fetch implementation used for the public key.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
  /**
   * Told about every delivery not answered 200, about store failures after success, and
   * (without onMismatch) about each payment recorded NEEDS_REVIEW (outcome `needs-review`), for
   * logging. Errors it throws are ignored.
   * @default logs 5xx outcomes and needs-review through console.error, and a signature failure
   * (401) as one line asking whether the key is this environment's, at most once a minute
   */
  onError?: (error: unknown, context: WebhookErrorContext) => void;
}

// After defaults and validation ---------------------------------------------------------------

/** Options after defaults and validation. */
export interface ResolvedReceiverOptions<K> {
  keys: KeySource<K>;
  /** onNotification behind reconciliation (reconcile.ts). */
  handle: NotificationHandler;
  store: IdempotencyStore;
  maxBodyBytes: number;
  isAllowedSource: ((address: string | null | undefined) => boolean) | null;
  idempotencyKey: (notification: WebhookNotification) => string;
  claimTtlMs: number;
  completedTtlMs: number;
  outcomeTtlMs: number;
  maxHandlingMs: number;
  report: (error: unknown, context: WebhookErrorContext) => void;
  /** Traces and metrics (receiver-telemetry.ts), or null: none at all. */
  telemetry: Telemetry | null;
}

export function resolveReceiverOptions<K>(
  options: WebhookReceiverOptions<K>,
  crypto: CryptoProvider<K>,
): ResolvedReceiverOptions<K> {
  if (typeof options !== 'object' || options === null) {
    throw new WebhookConfigError('webhook handler options must be an object.', 'options');
  }
  if (typeof options.onNotification !== 'function') {
    throw new WebhookConfigError(
      'onNotification must be a function that handles a verified notification.',
      'onNotification',
    );
  }
  const store = options.store ?? new MemoryIdempotencyStore();
  if (!isStore(store)) {
    throw new WebhookConfigError(
      'store must implement claim(key, ttlMs), renew(key, token, ttlMs), complete(key, token, ttlMs) and release(key, token) (the IdempotencyStore of servicepay 0.10).',
      'store',
    );
  }
  if (orderMethodsOf(store) === 1) {
    throw new WebhookConfigError(
      `store has one of ${ORDER_METHODS.join(' and ')} but not the other: give both (docs/stores.md, "A store of your own"), or neither.`,
      'store',
    );
  }
  for (const hook of ['idempotencyKey', 'onMismatch'] as const) {
    checkOption(undefined, hook, options[hook], undefined, callback('a function'));
  }
  // Left out is allowed at run time (plain JavaScript, no types): it behaves as 'unreconciled'
  // and says so (reconcile.ts), so that nothing that worked before stops working.
  checkOption(
    undefined,
    'expectedPayment',
    options.expectedPayment,
    undefined,
    callbackOr(
      UNRECONCILED,
      `a function that looks up the order behind a payment, or '${UNRECONCILED}' to take COMPLETED notifications at their word`,
    ),
  );
  const telemetry = createTelemetry(options.telemetry);
  // null: no key configured, which only warns (see the top of this file).
  const configured = keySource(options, crypto);
  const keys = configured ?? noKeySource<K>();
  const onError =
    options.onError ?? defaultErrorLog(configured === null ? null : keyName(options, configured));
  const report: ResolvedReceiverOptions<K>['report'] = (error, context) => {
    try {
      onError(error, context);
    } catch {
      // A logging hook must never change the answer to the service.
    }
  };
  const observed = telemetry === null ? store : observeStore(store, telemetry);
  const orderTtlMs = positive(options.orderTtlMs, 2_592_000_000, 'orderTtlMs');
  const resolved = {
    keys,
    store: observed,
    maxBodyBytes: positive(options.maxBodyBytes, 65_536, 'maxBodyBytes'),
    isAllowedSource: createAddressFilter(options.allowedSourceAddresses),
    idempotencyKey: options.idempotencyKey ?? notificationIdempotencyKey,
    claimTtlMs: claimTtl(options.claimTtlMs),
    completedTtlMs: positive(options.completedTtlMs, 86_400_000, 'completedTtlMs'),
    outcomeTtlMs: positive(options.outcomeTtlMs, 86_400_000, 'outcomeTtlMs'),
    maxHandlingMs: positive(options.maxHandlingMs, 300_000, 'maxHandlingMs'),
    report,
    telemetry,
  };
  // Last, once every option passed: an unreconciled receiver is told of when it is created.
  const handle = createNotificationHandler(
    options.onNotification,
    options,
    orderBook(observed, orderTtlMs),
    report,
  );
  return { ...resolved, handle };
}

/** The configured key, checked; null when none is configured. */
function keySource<K>(
  options: WebhookReceiverOptions<K>,
  crypto: CryptoProvider<K>,
): KeySource<K> | null {
  // An unset or empty environment variable is absence, not a malformed key: in a list too, so
  // `[process.env.SERVICEPAY_PUBLIC_KEY, process.env.SERVICEPAY_NEXT_PUBLIC_KEY]` works
  // whether or not a rotation is under way.
  const listed = (Array.isArray(options.publicKey) ? options.publicKey : [options.publicKey])
    .filter((key) => key !== undefined && key !== null)
    .filter((key) => typeof key !== 'string' || key.trim() !== '') as KeyInput<K>[];
  const publicKey = listed.length === 0 ? undefined : listed;
  const given = [publicKey, options.publicKeyUrl, options.environment].filter(
    (value) => value !== undefined,
  ).length;
  if (given > 1) {
    throw new WebhookConfigError(
      'pass only one of publicKey, publicKeyUrl and environment.',
      'publicKey',
    );
  }
  if (given === 0) return null;
  if (publicKey !== undefined) {
    // Parse the keys now: a bad key should fail at start-up, not at the first payment.
    for (const key of publicKey) crypto.checkKey(key);
    return fixedKeySource(publicKey);
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

/** No key configured: a warning now, and every delivery that needs the key answered 500. */
function noKeySource<K>(): KeySource<K> {
  const message = `the webhook handler has no public key: set ${PUBLIC_KEY_ENV} to the text served at <base>/.well-known/signature/pem and pass it as publicKey (or pass publicKeyUrl or environment). Until then every delivery is answered 500.`;
  console.warn(prefixed(message));
  return missingKeySource(new WebhookConfigError(message, 'publicKey'));
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
  return checkOption(undefined, 'claimTtlMs', ttl, ttl, atLeast(MIN_CLAIM_TTL_MS, 'milliseconds'));
}

function positive(value: unknown, fallback: number, option: string, allowZero = false): number {
  const unit = option.endsWith('Bytes') ? 'bytes' : 'milliseconds';
  return checkOption(undefined, option, value, fallback, amountOf(unit, allowZero));
}

/** The receiver's key as its signature line names it. */
function keyName<K>(options: WebhookReceiverOptions<K>, keys: KeySource<K>): string {
  if (keys.tried !== undefined) return keys.tried;
  if (options.publicKey !== undefined) return 'publicKey';
  return options.publicKeyUrl !== undefined
    ? `the key from ${options.publicKeyUrl}`
    : `the ${String(options.environment)} key`;
}

// The source-address allowlist (spec 5.1.7) ---------------------------------------------------
// Addresses are compared in canonical form, so `::ffff:203.0.113.7` (an IPv4 client on a
// dual-stack socket) matches `203.0.113.7` and IPv6 spellings such as `0:0::1` match `::1`. The
// WHATWG URL parser does the canonicalising: it is on every runtime and knows every spelling.

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** The canonical form of an IP address, or null when the text is not one. */
export function canonicalAddress(address: string): string | null {
  // A zone index (fe80::1%eth0) names the local interface, not the peer: compare without it.
  const text = address.trim().replace(/%[^\]]*/, '');
  const mapped = MAPPED_DOTTED.exec(text);
  if (mapped) return canonicalAddress(mapped[1] ?? '');
  try {
    if (text.includes(':')) {
      const host = new URL(`http://[${text.replace(/^\[|\]$/g, '')}]/`).hostname.slice(1, -1);
      const hex = MAPPED_HEX.exec(host);
      if (!hex) return host;
      const high = parseInt(hex[1] ?? '0', 16);
      const low = parseInt(hex[2] ?? '0', 16);
      return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
    }
    // Only plain dotted quads: the URL parser would also accept host names and "127.1".
    if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(text)) return null;
    return new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
}

/** A predicate for the allowlist, or null when every address is allowed. */
export function createAddressFilter(
  allowed: readonly string[] | undefined,
): ((address: string | null | undefined) => boolean) | null {
  if (allowed === undefined) return null;
  if (!Array.isArray(allowed) || allowed.length === 0) {
    throw new WebhookConfigError(
      'allowedSourceAddresses must be a non-empty array of IP addresses (the service static address for the environment), or left out.',
      'allowedSourceAddresses',
    );
  }
  const set = new Set<string>();
  for (const address of allowed) {
    const canonical = typeof address === 'string' ? canonicalAddress(address) : null;
    if (canonical === null) {
      throw new WebhookConfigError(
        `allowedSourceAddresses holds ${JSON.stringify(address)}, which is not an IP address; list exact addresses (ranges are not supported).`,
        'allowedSourceAddresses',
      );
    }
    set.add(canonical);
  }
  return (address) => {
    if (typeof address !== 'string') return false;
    const canonical = canonicalAddress(address);
    return canonical !== null && set.has(canonical);
  };
}
