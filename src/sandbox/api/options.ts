/**
 * startSandbox's options: what may be given (SandboxOptions; a bank's and the retry policy's own
 * types live with the banks and the sender), the defaults, and the check that completes them. A
 * mistake fails the start with a message naming the option, rather than surfacing later as a
 * confusing page or a webhook that never arrives. Nothing here imports the routes.
 *
 * What the sandbox keeps in memory is bounded, the oldest dropped first: it runs for days beside
 * a merchant's development server, and `POST /v1/payments` answers any origin (the browser
 * component calls it).
 */
import { SANDBOX_PORT, isUuid } from '../../core/index';
import { DEFAULT_INSTITUTIONS, institutionMap } from '../contract/institutions';
import { defaultScriptDir } from '../contract/script-host';
import type { SandboxInstitution } from '../contract/institutions';
import { guarded } from '../deliveries/listeners';
import { MAX_TIMER_MS } from '../deliveries/scheduler';
import { SandboxConfigError } from './errors';
import type { SandboxRetryOptions } from '../deliveries/sender';
import type { WebhookDeliveryAttempt } from './types';

/** What the sandbox knows of one merchant application. */
export interface SandboxApplication {
  /** The payee shown on the bank page for this application's payments. */
  merchantName: string;
}

/** Options of startSandbox. */
export interface SandboxOptions {
  /**
   * TCP port to listen on; 0 picks a free one (the result's `url` carries it).
   * @default 4010
   */
  port?: number;
  /**
   * Address to listen on. The default keeps the sandbox private to this machine; use
   * '0.0.0.0' to reach it from a phone on the same network.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * Where webhook notifications are PUT (the merchant receiver, spec 4.1). Without it no
   * notification is sent.
   */
  webhookUrl?: string;
  /**
   * Where the shopper returns after deciding, for payments with agentType WEB_BROWSER.
   * `?paymentId=…&merchantPaymentId=…` is appended. Without it the bank page shows the result.
   */
  webCallbackUrl?: string;
  /**
   * Where the shopper returns after deciding, for payments with agentType
   * MOBILE_APPLICATION (an http(s) URL or an app scheme such as `myapp://paid`).
   */
  mobileCallbackUrl?: string;
  /**
   * The banks offered.
   * @default DEFAULT_INSTITUTIONS (about twenty UK banks)
   */
  institutions?: readonly SandboxInstitution[];
  /**
   * Ids of listed banks to mark unavailable (shown, not payable), without restating the list:
   * `['santander']` on the default banks. An id not in the list is a SandboxConfigError.
   * @default none
   */
  unavailableInstitutions?: readonly string[];
  /** Retry policy of webhook deliveries. */
  retry?: SandboxRetryOptions;
  /**
   * Path of a PEM private key (PKCS#8 or PKCS#1 RSA) to sign webhooks with, so the public key
   * stays the same across restarts. When the file does not exist, a new key is generated and
   * written there (mode 0600).
   * @default a new RSA 2048 key for each start
   */
  keyFile?: string;
  /**
   * Directory of the standalone component script and its stylesheets, which the sandbox
   * serves as the script host of spec 4.3: `/js/Service-<version>.min.js` (the newest at the
   * bare `/js`), `/js/Service-0.4.css`, `/js/Service-tailwind-0.1.css`.
   * @default the servicepay package's dist/standalone (written by `npm run build`)
   */
  scriptDir?: string;
  /**
   * The payee shown on the bank page ("Pay £12.50 to Example Coffee Co."), for every
   * application without a name of its own in `applications`. A payee that does not match the
   * shop looks like fraud to a shopper: give the shop's display name.
   * @default 'Sandbox merchant'
   */
  merchantName?: string;
  /**
   * Settings per application id (a UUID). Any UUID is accepted as an application id, listed
   * here or not; an entry only names that application's merchant.
   * @example { '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90': { merchantName: 'Example Coffee Co.' } }
   */
  applications?: Readonly<Record<string, SandboxApplication>>;
  /**
   * The address browsers reach the sandbox at when it is not this machine's loopback or an IP
   * address: a tunnel (`https://pay-sandbox.example.test`) or a network name
   * (`http://devbox.local:4010`). The sandbox answers requests for this host name (other
   * names are refused with 421, against DNS rebinding) and hands out its addresses (bank
   * pages, icons) with it. An origin only: no path.
   */
  publicUrl?: string;
  /**
   * Receives one line per notable event (payment created, settled, delivery attempts).
   * @default no logging
   */
  log?: (line: string) => void;
  /** Called after every webhook delivery attempt, with its record. */
  onDelivery?: (attempt: WebhookDeliveryAttempt) => void;
  /**
   * Delivery attempts kept for the deliveries page, `sandbox.deliveries` and
   * `/deliveries.json`; beyond it the oldest are dropped. A notification can still be resent
   * once its attempts are gone.
   * @default 1000
   */
  deliveryHistory?: number;
  /**
   * Payments kept, each with its notification; beyond it the oldest are forgotten (their ids
   * then answer 404, and their attempts leave the deliveries page). `POST /v1/payments`
   * answers any origin, so what it keeps is bounded.
   * @default 1000
   */
  maxPayments?: number;
  /**
   * How long a payment the shopper left undecided (the bank page's "Leave without deciding")
   * waits for a decision: then it FAILS with `EXPIRED_DESCRIPTION` and its notification is
   * sent. Other payments wait for their decision for as long as the sandbox runs.
   * @default 900000 (15 minutes)
   */
  authorisationWindowMs?: number;
  /**
   * How long the bank keeps checking a payment approved with "Authorise, bank still checking":
   * a PENDING notification at once, COMPLETED this long after.
   * @default 120000 (2 minutes)
   */
  bankCheckMs?: number;
  /**
   * How long after its COMPLETED a payment approved with "Authorise, settles later" is SETTLED
   * (a second notification).
   * @default 300000 (5 minutes)
   */
  settleAfterMs?: number;
  /**
   * How much faster the sandbox's clock runs: every wait it plays (the authorisation window,
   * the bank's check, the settlement, a delivery's delay and late resend) is divided by it, so
   * `600` plays a 15-minute window in 1.5 s. Retries, timeouts and the times shown stay real.
   * @default 1
   */
  timeScale?: number;
}

/** The sandbox's default port, the one the component's SANDBOX default address uses. */
export const SANDBOX_DEFAULT_PORT = SANDBOX_PORT;

/**
 * The options checked and completed, as the parts of a running sandbox read them: the type of
 * resolveOptions's answer, so the fields are listed once (there, with what each means).
 */
export type ResolvedOptions = ReturnType<typeof resolveOptions>;

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

export function resolveOptions(options: SandboxOptions = {}) {
  if (typeof options !== 'object' || options === null) {
    throw new SandboxConfigError('startSandbox takes an options object.', 'options');
  }
  const port = numberOption(options, 'port');
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.trim() === '') {
    throw new SandboxConfigError(
      'sandbox option host must be an address such as 127.0.0.1 or 0.0.0.0.',
      'host',
    );
  }
  const merchantName = displayName(options.merchantName ?? DEFAULT_MERCHANT_NAME, 'merchantName');
  const names = applicationNames(options.applications);
  // The callbacks and the paths: a function, or a string that is not empty, when given.
  for (const [option, what] of [
    ['log', 'a function'],
    ['onDelivery', 'a function'],
    ['keyFile', 'a file path'],
    ['scriptDir', 'a directory path'],
  ] as const) {
    const value: unknown = options[option];
    const kind = what === 'a function' ? 'function' : 'string';
    if (value !== undefined && (typeof value !== kind || value === '')) {
      throw new SandboxConfigError(`sandbox option ${option} must be ${what}.`, option);
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
    /** Where the script host's files are; undefined when the package's dist was not found. */
    scriptDir: options.scriptDir ?? defaultScriptDir(),
    /** The payee shown on the bank page for an application id. */
    merchantNameFor: (applicationId: string): string =>
      names.get(applicationId.toLowerCase()) ?? merchantName,
    publicUrl: publicOrigin(options.publicUrl),
    /** The `log` option, guarded: a throwing logger never breaks what it logs. */
    log: guarded(options.log ?? (() => {})),
    onDelivery: options.onDelivery,
    deliveryHistory: numberOption(options, 'deliveryHistory'),
    maxPayments: numberOption(options, 'maxPayments'),
    /** The payment lifecycle's waits, as given (the time scale divides them when scheduled). */
    authorisationWindowMs: numberOption(options, 'authorisationWindowMs'),
    bankCheckMs: numberOption(options, 'bankCheckMs'),
    settleAfterMs: numberOption(options, 'settleAfterMs'),
    timeScale,
    /** A wait of the sandbox's clock in real milliseconds: divided by timeScale, within a timer. */
    scaled: (ms: number): number => Math.min(ms / timeScale, MAX_TIMER_MS),
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
      `sandbox option ${option} must be ${fraction ? 'a number' : 'an integer'} from ${min} to ${max} (${what}), got ${String(value)}.`,
      option,
    );
  }
  return value;
}

function displayName(value: unknown, option: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_MERCHANT_NAME) {
    throw new SandboxConfigError(
      `sandbox option ${option} must be a name of 1 to ${MAX_MERCHANT_NAME} characters, got ${JSON.stringify(value)}.`,
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
      'sandbox option applications must be an object keyed by application id: { "<uuid>": { merchantName } }.',
      'applications',
    );
  }
  for (const [applicationId, application] of Object.entries(applications)) {
    if (!isUuid(applicationId)) {
      throw new SandboxConfigError(
        `sandbox option applications has the key ${JSON.stringify(applicationId)}, which is not an application id (a UUID).`,
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
      `sandbox option publicUrl must be an origin such as https://sandbox.example.test, without a path, got ${JSON.stringify(value)}.`,
      'publicUrl',
    );
  }
  return url;
}

function parseUrl(value: unknown, option: string): URL | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && URL.canParse(value)) return new URL(value);
  throw new SandboxConfigError(
    `sandbox option ${option} must be an absolute URL, got ${JSON.stringify(value)}.`,
    option,
  );
}

function httpUrl(value: unknown, option: string): URL | undefined {
  const url = parseUrl(value, option);
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SandboxConfigError(
      `sandbox option ${option} must be an http(s) URL, got ${url.protocol} .`,
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
      `sandbox option ${option} must not use the ${url.protocol} scheme; use an http(s) URL or your app's own scheme.`,
      option,
    );
  }
  return url;
}

/** The retry option, checked: each key within its bounds, the default where not given. */
function retryPolicy(retry: SandboxRetryOptions | undefined): Required<SandboxRetryOptions> {
  if (retry !== undefined && (typeof retry !== 'object' || retry === null)) {
    throw new SandboxConfigError('sandbox option retry must be an object.', 'retry');
  }
  const entries = Object.entries(RETRY).map(([key, bounds]) => [
    key,
    checkNumber(retry?.[key as keyof SandboxRetryOptions], `retry.${key}`, bounds),
  ]);
  return Object.fromEntries(entries) as Required<SandboxRetryOptions>;
}
