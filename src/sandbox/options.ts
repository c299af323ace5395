/**
 * startSandbox's options, checked and completed with defaults, and the defaults themselves (the
 * banks, the retry policy, where the script host's files are). A mistake here fails the start
 * with a message naming the option, rather than surfacing later as a confusing page or a
 * webhook that never arrives. Nothing here imports the routes: they read what this resolves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANDBOX_PORT, isUuid } from '../core/index';
import { SandboxConfigError } from './errors';
import { keptCounts } from './kept';
import type { WebhookDeliveryAttempt } from './types';
import type {
  SandboxApplication,
  SandboxInstitution,
  SandboxOptions,
  SandboxRetryOptions,
} from './sandbox-options';

/** The sandbox's default port, the one the component's SANDBOX default address uses. */
export const SANDBOX_DEFAULT_PORT = SANDBOX_PORT;

export interface ResolvedOptions {
  port: number;
  host: string;
  webhookUrl: URL | undefined;
  webCallbackUrl: URL | undefined;
  mobileCallbackUrl: URL | undefined;
  institutions: ReadonlyMap<string, Required<SandboxInstitution>>;
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
}

export const DEFAULT_RETRY: Readonly<Required<SandboxRetryOptions>> = Object.freeze({
  initialDelayMs: 500,
  factor: 2,
  maxDelayMs: 30_000,
  maxAttempts: 20,
  timeoutMs: 5_000,
});

export { DEFAULT_DELIVERY_HISTORY, DEFAULT_MAX_PAYMENTS } from './kept';

/**
 * The payee when none is configured: neutral, so that it is plainly not some other shop's
 * name (the sandbox used to say "ServicePay Demo Shop", which a checkout for another shop
 * contradicted).
 */
export const DEFAULT_MERCHANT_NAME = 'Sandbox merchant';

/**
 * The banks the sandbox offers by default: the UK's large retail banks and the app banks
 * shoppers most often pick, so a checkout looks and searches as it will in production.
 * Colours approximate each brand; icons are generated locally (no external URLs).
 */
export const DEFAULT_INSTITUTIONS: readonly SandboxInstitution[] = Object.freeze(
  [
    { id: 'barclays', name: 'Barclays', colour: '#00395d' },
    { id: 'hsbc', name: 'HSBC UK', colour: '#db0011' },
    { id: 'lloyds', name: 'Lloyds Bank', colour: '#006a4d' },
    { id: 'natwest', name: 'NatWest', colour: '#5a287d' },
    { id: 'santander', name: 'Santander UK', colour: '#ec0000' },
    { id: 'nationwide', name: 'Nationwide', colour: '#002f6c' },
    { id: 'monzo', name: 'Monzo', colour: '#ff4f40' },
    { id: 'starling', name: 'Starling Bank', colour: '#6935d3' },
    { id: 'revolut', name: 'Revolut', colour: '#191c1f' },
    { id: 'halifax', name: 'Halifax', colour: '#005eb8' },
    { id: 'tsb', name: 'TSB', colour: '#0055a4' },
    { id: 'co-operative-bank', name: 'Co-operative Bank', colour: '#00b1e7' },
    { id: 'metro-bank', name: 'Metro Bank', colour: '#c8102e' },
    { id: 'first-direct', name: 'first direct', colour: '#000000' },
    { id: 'bank-of-scotland', name: 'Bank of Scotland', colour: '#0a3d7e' },
    { id: 'rbs', name: 'Royal Bank of Scotland', colour: '#0a2f64' },
    { id: 'virgin-money', name: 'Virgin Money', colour: '#c4003d' },
    { id: 'chase', name: 'Chase UK', colour: '#117aca' },
    { id: 'danske', name: 'Danske Bank', colour: '#003755' },
    { id: 'ulster-bank', name: 'Ulster Bank', colour: '#00305e' },
  ].map((institution) => Object.freeze(institution)),
);

/** Long enough for any trading name, short enough for the bank page's heading. */
const MAX_MERCHANT_NAME = 100;

const INSTITUTION_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
// Schemes that would run code or read local files when a browser is redirected to them.
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new SandboxConfigError('servicepay: startSandbox takes an options object.', 'options');
  }
  const port = options.port ?? SANDBOX_DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SandboxConfigError(
      `servicepay: sandbox option port must be an integer from 0 to 65535 (0 picks a free port), got ${String(port)}.`,
      'port',
    );
  }
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
    ...keptCounts(options),
  };
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

/** The neutral background of a generated icon when an institution gives no colour. */
export const DEFAULT_INSTITUTION_COLOUR = '#475569';
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOUR.test(value);
}

function institutionMap(
  list: readonly SandboxInstitution[],
  unavailable: readonly string[] | undefined,
): ReadonlyMap<string, Required<SandboxInstitution>> {
  if (!Array.isArray(list) || list.length === 0) {
    throw new SandboxConfigError(
      'servicepay: sandbox option institutions must be a non-empty array of { id, name, colour?, available? }.',
      'institutions',
    );
  }
  const map = new Map<string, Required<SandboxInstitution>>();
  for (const item of list as unknown[]) {
    const { id, name, colour, available } = (item ?? {}) as Partial<
      Record<keyof SandboxInstitution, unknown>
    >;
    if (typeof id !== 'string' || !INSTITUTION_ID.test(id)) {
      throw new SandboxConfigError(
        `servicepay: sandbox institution id ${JSON.stringify(id)} must be lower-case letters, digits and inner dashes (it names the icon file).`,
        'institutions',
      );
    }
    if (map.has(id)) {
      throw new SandboxConfigError(
        `servicepay: sandbox institution id "${id}" is listed twice.`,
        'institutions',
      );
    }
    if (typeof name !== 'string' || name.trim() === '') {
      throw new SandboxConfigError(
        `servicepay: sandbox institution "${id}" needs a name.`,
        'institutions',
      );
    }
    if (colour !== undefined && !isHexColour(colour)) {
      throw new SandboxConfigError(
        `servicepay: sandbox institution "${id}" colour must be #rrggbb, got ${JSON.stringify(colour)}.`,
        'institutions',
      );
    }
    if (available !== undefined && typeof available !== 'boolean') {
      throw new SandboxConfigError(
        `servicepay: sandbox institution "${id}" available must be true or false, got ${JSON.stringify(available)}.`,
        'institutions',
      );
    }
    map.set(id, {
      id,
      name,
      colour: colour ?? DEFAULT_INSTITUTION_COLOUR,
      available: available ?? true,
    });
  }
  for (const id of unavailableIds(unavailable)) {
    const institution = map.get(id);
    if (institution === undefined) {
      throw new SandboxConfigError(
        `servicepay: sandbox option unavailableInstitutions names ${JSON.stringify(id)}, which is not a listed institution; the ids are ${[...map.keys()].join(', ')}.`,
        'unavailableInstitutions',
      );
    }
    map.set(id, { ...institution, available: false });
  }
  return map;
}

function unavailableIds(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string')) {
    throw new SandboxConfigError(
      `servicepay: sandbox option unavailableInstitutions must be an array of institution ids such as ["santander"], got ${JSON.stringify(value)}.`,
      'unavailableInstitutions',
    );
  }
  return value as string[];
}

function retryPolicy(retry: SandboxRetryOptions | undefined): Required<SandboxRetryOptions> {
  if (retry !== undefined && (typeof retry !== 'object' || retry === null)) {
    throw new SandboxConfigError('servicepay: sandbox option retry must be an object.', 'retry');
  }
  const policy = { ...DEFAULT_RETRY, ...stripUndefined(retry ?? {}) };
  const check = (key: keyof SandboxRetryOptions, ok: (n: number) => boolean, rule: string) => {
    const value = policy[key];
    if (typeof value !== 'number' || !ok(value)) {
      throw new SandboxConfigError(
        `servicepay: sandbox option retry.${key} must be ${rule}, got ${String(value)}.`,
        `retry.${key}`,
      );
    }
  };
  // Bounded on purpose: a typo must not produce a retry loop that never ends or a timer
  // overflow (setTimeout fires at once beyond 2^31-1 ms).
  const MAX_MS = 2 ** 31 - 1;
  check(
    'initialDelayMs',
    (n) => Number.isFinite(n) && n >= 0 && n <= MAX_MS,
    'from 0 to 2147483647',
  );
  check('factor', (n) => Number.isFinite(n) && n >= 1 && n <= 100, 'from 1 to 100');
  check('maxDelayMs', (n) => Number.isFinite(n) && n >= 0 && n <= MAX_MS, 'from 0 to 2147483647');
  check(
    'maxAttempts',
    (n) => Number.isInteger(n) && n >= 1 && n <= 1000,
    'an integer from 1 to 1000',
  );
  check('timeoutMs', (n) => Number.isFinite(n) && n > 0 && n <= MAX_MS, 'from 1 to 2147483647');
  return policy;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The dist/standalone directory of the servicepay package this module belongs to, found by
 * walking up to its package.json: the same answer from src/sandbox (tests), dist/ or
 * dist/chunks/ (built, ESM or CJS), and node_modules/servicepay. Undefined if there is none.
 */
export function defaultScriptDir(from: string = import.meta.url): string | undefined {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if (
          (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'servicepay'
        )
          return join(dir, 'dist', 'standalone');
      } catch {
        // Not a package manifest we can read: keep looking above.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
