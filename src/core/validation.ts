import type { ValidationIssue } from './errors';
import { isPaymentId, PAYMENT_ID_RULE, toPence } from './protocol';
import type { PreparedPayment } from './types';

// Validation of what arrives from merchant code as `unknown` (TypeScript users are also
// guarded by the types; plain-JS and script-tag users are not). Field names are the
// backend's (spec 2.4), so errors read the same as the service's own. Each object is checked
// against a table of fields, in order; the first refusal is the issue reported.

export type Result<T> = { ok: true; value: T } | { ok: false; issue: ValidationIssue };

/**
 * Why a value is refused, or a falsy value when it is accepted. The value is typed `any`:
 * each test in a chain of conditions relies on the ones before it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Check = (value: any) => string | false | undefined;

/** [field, check, key]: the backend's field name, and the key it is read from (the same by default). */
type Table = [field: string, check: Check, key?: string][];

function firstIssue(source: Record<string, unknown>, table: Table): ValidationIssue | undefined {
  for (const [field, check, key = field] of table) {
    const value = source[key];
    const reason = check(value);
    if (reason) return { field, value, reason };
  }
}

/** Undefined is accepted: the option or argument was not given. */
const optional =
  (check: Check): Check =>
  (value) =>
    value !== undefined && check(value);

export const MAX_REFERENCE_LENGTH = 18;
export const MAX_METADATA_LENGTH = 5000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in UUID form, as applicationId must be (the sandbox checks its requests with it). */
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value &&
  typeof value == 'object' &&
  [null, Object.prototype].includes(Object.getPrototypeOf(value) as object | null);

export function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * Amount in pounds: finite, > 0, pence that are a safe integer, a whole number of pence by the
 * protocol's one rule (toPence: binary floating-point noise such as 0.1 + 0.2 =
 * 0.30000000000000004 is tolerated and rounded away, so the backend receives 0.3; 1.005 is
 * three decimals and is refused), and at least a penny.
 */
const checkAmount: Check = (v) =>
  v == null
    ? 'must not be null'
    : typeof v !== 'number'
      ? 'must be a number'
      : !isFinite(v) // the global: v is a number already
        ? 'must be a finite number'
        : v <= 0
          ? 'must be greater than 0'
          : v * 100 >= 2 ** 53 // a size, not a rounding: its pence would not be a safe integer
            ? 'is too large'
            : isNaN(toPence(v)) // the global: toPence answers a number
              ? 'must have at most 2 decimal places'
              : toPence(v) < 1 && 'must be at least 0.01';

const checkReference: Check = (v) =>
  v == null
    ? 'must not be null'
    : typeof v !== 'string'
      ? 'must be a string'
      : !v.trim()
        ? 'must not be blank'
        : // UTF-16 length, as the service's (Java) validation counts it.
          v.length > MAX_REFERENCE_LENGTH &&
          `must not be longer than ${MAX_REFERENCE_LENGTH} characters`;

const checkAgentType = optional(
  (v) =>
    v !== 'WEB_BROWSER' &&
    v !== 'MOBILE_APPLICATION' &&
    'must be one of WEB_BROWSER, MOBILE_APPLICATION',
);

const NOT_OBJECT = 'must be a JSON object (not a number, string or array)';

/**
 * Checks that `value` is a plain object, then reads it with `read`. Reading what the merchant
 * passed can itself throw (a getter, a Proxy trap, a revoked Proxy): that is a refusal like
 * any other, never an exception in the merchant's page.
 */
function guarded<T>(
  field: string,
  value: unknown,
  read: (value: Record<string, unknown>) => T,
): T | ValidationIssue {
  try {
    return isPlainObject(value) ? read(value) : { field, value, reason: 'must be an object' };
  } catch {
    return { field, value: '[unreadable]', reason: 'must be a readable value (reading it threw)' };
  }
}

/** Validates the argument of `createPayment` (spec 2.3) before anything can be sent. */
export function validatePaymentArgs(args: unknown): Result<PreparedPayment> {
  const result = guarded('paymentRequest', args, readPaymentArgs);
  return 'field' in result ? { ok: false, issue: result } : { ok: true, value: result };
}

function readPaymentArgs(args: Record<string, unknown>): PreparedPayment | ValidationIssue {
  let sentMetadata: Record<string, unknown> | undefined;
  // Each argument is read once: a getter cannot show the checks one value and the request
  // another. A copy of the object's own enumerable properties (what JSON and a literal give),
  // so a property inherited from a polluted Object.prototype is never read as an argument.
  const given = { ...args };
  const { amount, paymentReference, merchantPaymentId, agentType } = given;
  const issue = firstIssue(given, [
    ['paymentRequest.amount', checkAmount, 'amount'],
    ['paymentRequest.reference', checkReference, 'paymentReference'],
    [
      'paymentRequest.currency',
      (v) => 'currency' in args && v !== 'GBP' && 'must be GBP (the only currency)',
      'currency',
    ],
    // The one id rule (protocol.ts): an id accepted here always finds its outcome later.
    ['merchantPaymentId', optional((v) => !isPaymentId(v) && PAYMENT_ID_RULE)],
    // Metadata travels as JSON and comes back unchanged in the webhook, so what is sent is the
    // JSON round trip of the object: no prototype, getters or functions survive, and a cyclic
    // or absurdly deep object is refused rather than crashing the page.
    [
      'paymentMetadata',
      (v) => {
        if (v == null) return;
        try {
          if (!isPlainObject(v)) return NOT_OBJECT;
        } catch {
          return NOT_OBJECT; // A Proxy whose getPrototypeOf trap throws, or a revoked one.
        }
        let json: string | undefined;
        try {
          json = JSON.stringify(v);
        } catch {
          // Cyclic, too deep, or a BigInt.
        }
        if (json === undefined) return 'must be serialisable to JSON';
        if (json.length > MAX_METADATA_LENGTH) {
          return `must not be longer than ${MAX_METADATA_LENGTH} characters after serialisation`;
        }
        // What is sent is the JSON: an object whose toJSON makes it an array is not an object.
        sentMetadata = JSON.parse(json) as Record<string, unknown>;
        return !isPlainObject(sentMetadata) && NOT_OBJECT;
      },
      'metadata',
    ],
    ['agentType', checkAgentType],
  ]);
  return (
    issue || {
      amount: toPence(amount as number) / 100,
      reference: paymentReference as string,
      merchantPaymentId: merchantPaymentId as string | undefined,
      metadata: sentMetadata,
      agentType: agentType as PreparedPayment['agentType'],
    }
  );
}

/** Component options (spec 2.2), in the order they are checked. */
const OPTIONS: Table = [
  ['environment', (v) => v !== 'SANDBOX' && v !== 'LIVE' && 'must be SANDBOX or LIVE'],
  // The test itself, not isUuid: a call would cost the Pay button's bundle the function.
  ['applicationId', (v) => !(typeof v === 'string' && UUID.test(v)) && 'must be a UUID'],
  ['agentType', checkAgentType],
  ...(
    [
      ['boolean', 'disablePayButton isWebView disableVolumeStyling disableTailwindStyling'],
      ['string', 'title label payLabel'],
      [
        'function',
        'eventConsumer errorConsumer openUrl generateMerchantPaymentId onPaymentInitiated',
      ],
    ] as const
  ).flatMap(([type, keys]) =>
    keys
      .split(' ')
      .map((key): Table[number] => [
        key,
        optional((v) => typeof v !== type && `must be a ${type}`),
      ]),
  ),
  [
    'baseUrl',
    optional((v) => !(typeof v === 'string' && isHttpUrl(v)) && 'must be an absolute http(s) URL'),
  ],
  [
    'transport',
    optional(
      (v) =>
        !(
          !!v &&
          typeof v === 'object' &&
          typeof v.fetchInstitutions === 'function' &&
          typeof v.initiatePayment === 'function'
        ) && 'must have fetchInstitutions and initiatePayment functions',
    ),
  ],
];

/** Validates component options (spec 2.2); the first problem found, or undefined. */
export const validateOptions = (options: unknown): ValidationIssue | undefined =>
  guarded('options', options, (given) => firstIssue(given, OPTIONS));
