/**
 * startSandbox's options, checked and completed with defaults, and the defaults themselves (the
 * retry policy, what is kept, the payment lifecycle's waits). A mistake here fails the start
 * with a message naming the option, rather than surfacing later as a confusing page or a
 * webhook that never arrives. Nothing here imports the routes: they read what this resolves.
 *
 * What the sandbox keeps in memory is bounded, the oldest dropped first: it runs for days beside
 * a merchant's development server, and `POST /v1/payments` answers any origin (the browser
 * component calls it).
 */
import { SANDBOX_PORT, isUuid } from '../core/index';
import { DEFAULT_INSTITUTIONS, institutionMap } from './contract/institutions';
import { defaultScriptDir } from './contract/script-host';
import type { Institutions } from './contract/institutions';
import { SandboxConfigError } from './errors';
import type { WebhookDeliveryAttempt } from './types';
import type { SandboxApplication, SandboxOptions, SandboxRetryOptions } from './sandbox-options';

/** The sandbox's default port, the one the component's SANDBOX default address uses. */
export const SANDBOX_DEFAULT_PORT = SANDBOX_PORT;

export interface ResolvedOptions {
  port: number;
  host: string;
  webhookUrl: URL | undefined;
  webCallbackUrl: URL | undefined;
  mobileCallbackUrl: URL | undefined;
  institutions: Institutions;
  retry: Required<SandboxRetryOptions>;
  keyFile: string | undefined;
  /** Where the script host's files are; undefined when the package's dist was not found. */
  scriptDir: string | undefined;
  /** The payee shown on the bank page for an application id. */
  merchantNameFor(applicationId: string): string;
  publicUrl: URL | undefined;
  log: (line: string) => void;
  onDelivery: ((attempt: WebhookDeliveryAttempt) => void) | undefined;
  deliveryHistory: number;
  maxPayments: number;
  /** The payment lifecycle's waits, as given (the time scale divides them when scheduled). */
  authorisationWindowMs: number;
  bankCheckMs: number;
  settleAfterMs: number;
  timeScale: number;
  /** A wait of the sandbox's clock in real milliseconds: divided by timeScale, within a timer. */
  scaled(ms: number): number;
}

/**
 * Delivery attempts kept by default: hundreds of payments' worth, a few megabytes at most
 * (each keeps its request and up to 4 KiB of answer). Beyond 100,000 the deliveries page and
 * /deliveries.json would be too slow to be of use.
 */
export const DEFAULT_DELIVERY_HISTORY = 1000;
/**
 * Payments kept by default, each with its notification: a few days of a developer's testing,
 * about 20 MB (10,000 payments and their notifications took about 180 MB).
 */
export const DEFAULT_MAX_PAYMENTS = 1000;

/** How long a shopper who left the bank page has to come back (authorisationWindowMs). */
export const DEFAULT_AUTHORISATION_WINDOW_MS = 15 * 60_000;
/**
 * How long the bank checks an approved payment (bankCheckMs): longer than the result page's
 * first minute, so that the shopper sees it say that their bank is still confirming.
 */
export const DEFAULT_BANK_CHECK_MS = 2 * 60_000;
/** From COMPLETED to SETTLED (settleAfterMs). */
export const DEFAULT_SETTLE_AFTER_MS = 5 * 60_000;

/** The longest timer Node keeps (setTimeout fires at once beyond it). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The payee when none is configured: neutral, so that it is plainly not some other shop's
 * name (the sandbox used to say "ServicePay Demo Shop", which a checkout for another shop
 * contradicted).
 */
export const DEFAULT_MERCHANT_NAME = 'Sandbox merchant';

/** Long enough for any trading name, short enough for the bank page's heading. */
const MAX_MERCHANT_NAME = 100;

// Schemes that would run code or read local files when a browser is redirected to them.
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new SandboxConfigError('servicepay: startSandbox takes an options object.', 'options');
  }
  const port = numberOption(options, 'port');
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.trim() === '') {
    throw new SandboxConfigError(
      'servicepay: sandbox option host must be an address such as 127.0.0.1 or 0.0.0.0.',
      'host',
    );
  }
  const merchantName = displayName(options.merchantName ?? DEFAULT_MERCHANT_NAME, 'merchantName');
  const names = applicationNames(options.applications);
  if (options.log !== undefined && typeof options.log !== 'function') {
    throw new SandboxConfigError('servicepay: sandbox option log must be a function.', 'log');
  }
  if (options.onDelivery !== undefined && typeof options.onDelivery !== 'function') {
    throw new SandboxConfigError(
      'servicepay: sandbox option onDelivery must be a function.',
      'onDelivery',
    );
  }
  for (const [option, what] of [
    ['keyFile', 'a file path'],
    ['scriptDir', 'a directory path'],
  ] as const) {
    const path = options[option];
    if (path !== undefined && (typeof path !== 'string' || path === '')) {
      throw new SandboxConfigError(`servicepay: sandbox option ${option} must be ${what}.`, option);
    }
  }
  const timeScale = numberOption(options, 'timeScale');
  return {
    port,
    host,
    webhookUrl: httpUrl(options.webhookUrl, 'webhookUrl'),
    webCallbackUrl: callbackUrl(options.webCallbackUrl, 'webCallbackUrl'),
    mobileCallbackUrl: callbackUrl(options.mobileCallbackUrl, 'mobileCallbackUrl'),
    institutions: institutionMap(
      options.institutions ?? DEFAULT_INSTITUTIONS,
      options.unavailableInstitutions,
    ),
    retry: retryPolicy(options.retry),
    keyFile: options.keyFile,
    scriptDir: options.scriptDir ?? defaultScriptDir(),
    merchantNameFor: (applicationId) => names.get(applicationId.toLowerCase()) ?? merchantName,
    publicUrl: publicOrigin(options.publicUrl),
    log: safeLog(options.log),
    onDelivery: options.onDelivery,
    deliveryHistory: numberOption(options, 'deliveryHistory'),
    maxPayments: numberOption(options, 'maxPayments'),
    authorisationWindowMs: numberOption(options, 'authorisationWindowMs'),
    bankCheckMs: numberOption(options, 'bankCheckMs'),
    settleAfterMs: numberOption(options, 'settleAfterMs'),
    timeScale,
    scaled: (ms) => Math.min(ms / timeScale, MAX_TIMER_MS),
  };
}

/**
 * The numeric options: each one's default, its bounds and what it counts, an integer unless
 * marked 'fraction'. Bounded on purpose: a typo must not keep everything in memory, overflow a
 * timer, or retry without end.
 */
type Bounds = [fallback: number, min: number, max: number, what: string, fraction?: 'fraction'];
const NUMBERS = {
  port: [SANDBOX_DEFAULT_PORT, 0, 65535, '0 picks a free port'],
  deliveryHistory: [DEFAULT_DELIVERY_HISTORY, 1, 100_000, 'the delivery attempts kept'],
  maxPayments: [DEFAULT_MAX_PAYMENTS, 1, 100_000, 'the payments kept'],
  authorisationWindowMs: [DEFAULT_AUTHORISATION_WINDOW_MS, 1, MAX_TIMER_MS, 'milliseconds'],
  bankCheckMs: [DEFAULT_BANK_CHECK_MS, 0, MAX_TIMER_MS, 'milliseconds'],
  settleAfterMs: [DEFAULT_SETTLE_AFTER_MS, 0, MAX_TIMER_MS, 'milliseconds'],
  // Any factor, 1.5 as well as 600.
  timeScale: [1, 0.001, 1_000_000, 'a factor', 'fraction'],
} satisfies Partial<Record<keyof SandboxOptions, Bounds>>;
const RETRY: Record<keyof SandboxRetryOptions, Bounds> = {
  initialDelayMs: [500, 0, MAX_TIMER_MS, 'milliseconds', 'fraction'],
  factor: [2, 1, 100, 'a factor', 'fraction'],
  maxDelayMs: [30_000, 0, MAX_TIMER_MS, 'milliseconds', 'fraction'],
  maxAttempts: [20, 1, 1000, 'attempts'],
  timeoutMs: [5_000, 1, MAX_TIMER_MS, 'milliseconds', 'fraction'],
};

/** The webhook retry policy's defaults. */
export const DEFAULT_RETRY: Readonly<Required<SandboxRetryOptions>> = Object.freeze(
  retryPolicy({}),
);

/** A numeric option, checked. */
function numberOption(options: SandboxOptions, option: keyof typeof NUMBERS): number {
  return checkNumber(options[option], option, NUMBERS[option]);
}

/** A number, checked: its default when absent, else a number within its bounds. */
function checkNumber(value: unknown, option: string, bounds: Bounds): number {
  const [fallback, min, max, what, fraction] = bounds;
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !(fraction ? Number.isFinite(value) : Number.isInteger(value)) ||
    value < min ||
    value > max
  ) {
    throw new SandboxConfigError(
      `servicepay: sandbox option ${option} must be ${fraction ? 'a number' : 'an integer'} from ${min} to ${max} (${what}), got ${String(value)}.`,
      option,
    );
  }
  return value;
}

function displayName(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_MERCHANT_NAME) {
    throw new SandboxConfigError(
      `servicepay: sandbox option ${option} must be a name of 1 to ${MAX_MERCHANT_NAME} characters, got ${JSON.stringify(value)}.`,
      option,
    );
  }
  return value.trim();
}

/** The applications option as merchant names by lower-case application id. */
function applicationNames(
  applications: Readonly<Record<string, SandboxApplication>> | undefined,
): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  if (applications === undefined) return names;
  if (typeof applications !== 'object' || applications === null || Array.isArray(applications)) {
    throw new SandboxConfigError(
      'servicepay: sandbox option applications must be an object keyed by application id: { "<uuid>": { merchantName } }.',
      'applications',
    );
  }
  for (const [applicationId, application] of Object.entries(applications)) {
    if (!isUuid(applicationId)) {
      throw new SandboxConfigError(
        `servicepay: sandbox option applications has the key ${JSON.stringify(applicationId)}, which is not an application id (a UUID).`,
        'applications',
      );
    }
    const option = `applications["${applicationId}"].merchantName`;
    const name = (application as Partial<SandboxApplication> | null)?.merchantName;
    names.set(applicationId.toLowerCase(), displayName(name, option));
  }
  return names;
}

/** publicUrl: an http(s) origin, since every path the sandbox serves starts at its root. */
function publicOrigin(value: unknown): URL | undefined {
  const url = httpUrl(value, 'publicUrl');
  if (url && (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username)) {
    throw new SandboxConfigError(
      `servicepay: sandbox option publicUrl must be an origin such as https://sandbox.example.test, without a path, got ${JSON.stringify(value)}.`,
      'publicUrl',
    );
  }
  return url;
}

/** A logger that cannot break what it logs: a throwing `log` is ignored. */
function safeLog(log: ((line: string) => void) | undefined): (line: string) => void {
  if (log === undefined) return () => {};
  return (line) => {
    try {
      log(line);
    } catch {
      // Logging is a side show; a payment or a delivery must not fail because of it.
    }
  };
}

function parseUrl(value: unknown, option: string): URL | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && URL.canParse(value)) return new URL(value);
  throw new SandboxConfigError(
    `servicepay: sandbox option ${option} must be an absolute URL, got ${JSON.stringify(value)}.`,
    option,
  );
}

function httpUrl(value: unknown, option: string): URL | undefined {
  const url = parseUrl(value, option);
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SandboxConfigError(
      `servicepay: sandbox option ${option} must be an http(s) URL, got ${url.protocol} .`,
      option,
    );
  }
  return url;
}

/** A callback may be an app's own scheme (mobile), but never one that runs code. */
function callbackUrl(value: unknown, option: string): URL | undefined {
  const url = parseUrl(value, option);
  if (url && UNSAFE_SCHEMES.has(url.protocol)) {
    throw new SandboxConfigError(
      `servicepay: sandbox option ${option} must not use the ${url.protocol} scheme; use an http(s) URL or your app's own scheme.`,
      option,
    );
  }
  return url;
}

/** The retry option, checked: each key within its bounds, the default where not given. */
function retryPolicy(retry: SandboxRetryOptions | undefined): Required<SandboxRetryOptions> {
  if (retry !== undefined && (typeof retry !== 'object' || retry === null)) {
    throw new SandboxConfigError('servicepay: sandbox option retry must be an object.', 'retry');
  }
  const entries = Object.entries(RETRY).map(([key, bounds]) => [
    key,
    checkNumber(retry?.[key as keyof SandboxRetryOptions], `retry.${key}`, bounds),
  ]);
  return Object.fromEntries(entries) as Required<SandboxRetryOptions>;
}
