// An independent statement of the validation rules (spec 2.2, 2.3, 7, 8 and the README's
// tables), for the property tests: what a given createPayment argument or options object must
// yield. Written from the documents, not from src/core/validation.ts.

/** `Input validation error: field=[<field>], value=[<value>], error=[<reason>]` (spec 2.4). */
export const SPEC_ERROR =
  /^Input validation error: field=\[(.*?)\], value=\[([\s\S]*)\], error=\[([^\]]*)\]$/;

export interface SpecError {
  field: string;
  value: string;
  reason: string;
}

/** The three parts of a spec-format message, or undefined when it is not one. */
export function parseSpecError(message: string): SpecError | undefined {
  const match = SPEC_ERROR.exec(message);
  return match ? { field: match[1]!, value: match[2]!, reason: match[3]! } : undefined;
}

/** Values longer than 120 characters are cut short with `…` (README). */
export function shown(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

export const NOT_OBJECT = 'must be a JSON object (not a number, string or array)';
const AMOUNT_DECIMALS = [
  'must have at most 2 decimal places',
  'must be at least 0.01',
  'is too large',
];

/** What the oracle expects of one argument: refused (at one of `fields`) or accepted. */
export type Verdict =
  | { ok: false; fields: { field: string; reasons: string[] }[] }
  | {
      ok: true;
      /** The amount, rounded to pence, as it must be sent. */
      amount: number;
      reference: string;
      merchantPaymentId: string | undefined;
      /** The JSON of the metadata as it must be sent, or undefined when none is sent. */
      metadataJson: string | undefined;
      agentType: 'WEB_BROWSER' | 'MOBILE_APPLICATION' | undefined;
    }
  /** Binary noise around two decimals: either verdict is allowed; accepted means these fields. */
  | {
      ok: 'either';
      refusal: { field: string; reasons: string[] }[];
      accepted: Verdict & { ok: true };
    };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' &&
  v !== null &&
  (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const hasText = (v: unknown): v is string => typeof v === 'string' && /\S/.test(v);

/**
 * The id rule, stated apart from src/core/protocol.ts: at most 200 UTF-16 units, some text
 * that is not white space, no C0 control character nor DEL.
 */
const isId = (v: unknown): v is string =>
  hasText(v) &&
  v.length <= 200 &&
  ![...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

type Amount =
  { ok: true; pence: number } | { ok: false; reasons: string[] } | { ok: 'either'; pence: number };

/**
 * The amount rule: a finite number > 0 with at most two decimals, at least 0.01, whose pence
 * are a safe integer. A value a few units in the last place away from two decimals is binary
 * noise (0.1 + 0.2): the README says it is accepted, so values that are neither plainly two
 * decimals nor plainly more are left to the implementation ('either').
 */
export function amountRule(v: unknown): Amount {
  if (v === null || v === undefined) return { ok: false, reasons: ['must not be null'] };
  if (typeof v !== 'number') return { ok: false, reasons: ['must be a number'] };
  if (!Number.isFinite(v)) return { ok: false, reasons: ['must be a finite number'] };
  if (v <= 0) return { ok: false, reasons: ['must be greater than 0'] };
  const pence = Math.round(v * 100);
  if (!Number.isSafeInteger(pence) || pence < 1) return { ok: false, reasons: AMOUNT_DECIMALS };
  // Plainly two decimals: its shortest decimal form says so.
  if (/^\d+(\.\d{1,2})?$/.test(String(v))) return { ok: true, pence };
  // Plainly a third decimal: a hundredth of a penny or more away, far above binary noise.
  if (Math.abs(v * 100 - pence) >= 0.01 && v < 1e9) return { ok: false, reasons: AMOUNT_DECIMALS };
  return { ok: 'either', pence };
}

const firstRefusal = (
  checks: [string, () => string[] | undefined][],
): { field: string; reasons: string[] } | undefined => {
  for (const [field, check] of checks) {
    const reasons = check();
    if (reasons) return { field, reasons };
  }
};

/** The verdict for a createPayment argument (spec 2.3). */
export function paymentVerdict(args: unknown): Verdict {
  if (!isRecord(args)) {
    return { ok: false, fields: [{ field: 'paymentRequest', reasons: ['must be an object'] }] };
  }
  const { amount, paymentReference: reference, merchantPaymentId, metadata, agentType } = args;
  let metadataJson: string | undefined;
  const rest = firstRefusal([
    [
      'paymentRequest.reference',
      () =>
        reference === null || reference === undefined
          ? ['must not be null']
          : typeof reference !== 'string'
            ? ['must be a string']
            : !/\S/.test(reference)
              ? ['must not be blank']
              : reference.length > 18
                ? ['must not be longer than 18 characters']
                : undefined,
    ],
    [
      'paymentRequest.currency',
      () =>
        'currency' in args && args.currency !== 'GBP'
          ? ['must be GBP (the only currency)']
          : undefined,
    ],
    [
      'merchantPaymentId',
      () =>
        merchantPaymentId !== undefined && !isId(merchantPaymentId)
          ? ['must be a non-blank string of at most 200 characters without control characters']
          : undefined,
    ],
    [
      'paymentMetadata',
      () => {
        if (metadata === null || metadata === undefined) return;
        if (!isRecord(metadata)) return [NOT_OBJECT];
        let json: string | undefined;
        try {
          json = JSON.stringify(metadata);
        } catch {
          return ['must be serialisable to JSON'];
        }
        if (json === undefined) return ['must be serialisable to JSON'];
        if (json.length > 5000)
          return ['must not be longer than 5000 characters after serialisation'];
        if (!isRecord(JSON.parse(json))) return [NOT_OBJECT];
        metadataJson = json;
      },
    ],
    [
      'agentType',
      () =>
        agentType !== undefined && agentType !== 'WEB_BROWSER' && agentType !== 'MOBILE_APPLICATION'
          ? ['must be one of WEB_BROWSER, MOBILE_APPLICATION']
          : undefined,
    ],
  ]);
  const a = amountRule(amount);
  if (a.ok === false)
    return { ok: false, fields: [{ field: 'paymentRequest.amount', reasons: a.reasons }] };
  const noise = { field: 'paymentRequest.amount', reasons: AMOUNT_DECIMALS };
  // Refused either way; at the amount if the noise is refused, else at the next field.
  if (rest) return { ok: false, fields: a.ok === true ? [rest] : [noise, rest] };
  const accepted = {
    ok: true as const,
    amount: a.pence / 100,
    reference: reference as string,
    merchantPaymentId: merchantPaymentId as string | undefined,
    metadataJson,
    agentType: agentType as 'WEB_BROWSER' | 'MOBILE_APPLICATION' | undefined,
  };
  if (a.ok === true) return accepted;
  return { ok: 'either', refusal: [noise], accepted };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The first refused option (spec 2.2 plus the React/transport additions), in the README's order. */
export function optionsRefusal(options: unknown): { field: string; reason: string } | undefined {
  if (!isRecord(options)) return { field: 'options', reason: 'must be an object' };
  const o = options;
  const typed = (type: string, keys: string) =>
    keys
      .split(' ')
      .map((key): [string, () => string | undefined] => [
        key,
        () => (o[key] !== undefined && typeof o[key] !== type ? `must be a ${type}` : undefined),
      ]);
  const checks: [string, () => string | undefined][] = [
    [
      'environment',
      () =>
        o.environment === 'SANDBOX' || o.environment === 'LIVE'
          ? undefined
          : 'must be SANDBOX or LIVE',
    ],
    [
      'applicationId',
      () =>
        typeof o.applicationId === 'string' && UUID.test(o.applicationId)
          ? undefined
          : 'must be a UUID',
    ],
    [
      'agentType',
      () =>
        o.agentType === undefined ||
        o.agentType === 'WEB_BROWSER' ||
        o.agentType === 'MOBILE_APPLICATION'
          ? undefined
          : 'must be one of WEB_BROWSER, MOBILE_APPLICATION',
    ],
    ...typed('boolean', 'disablePayButton isWebView disableVolumeStyling disableTailwindStyling'),
    ...typed('string', 'title label payLabel'),
    ...typed(
      'function',
      'eventConsumer errorConsumer openUrl generateMerchantPaymentId onPaymentInitiated',
    ),
    [
      'baseUrl',
      () =>
        o.baseUrl === undefined || (typeof o.baseUrl === 'string' && isHttpUrl(o.baseUrl))
          ? undefined
          : 'must be an absolute http(s) URL',
    ],
    [
      'transport',
      () => {
        const t = o.transport as { fetchInstitutions?: unknown; initiatePayment?: unknown } | null;
        return t === undefined ||
          (typeof t === 'object' &&
            t !== null &&
            typeof t.fetchInstitutions === 'function' &&
            typeof t.initiatePayment === 'function')
          ? undefined
          : 'must have fetchInstitutions and initiatePayment functions';
      },
    ],
  ];
  for (const [field, check] of checks) {
    const reason = check();
    if (reason) return { field, reason };
  }
}

/**
 * Whether `value` is plain JSON data: objects with Object.prototype, arrays, strings, finite
 * numbers, booleans and null, held in own data properties, no accessors, proxies or symbols.
 * `isProxy` is passed in (node:util in Node, unavailable in the browser).
 */
export function isPlainJson(
  value: unknown,
  isProxy: (v: unknown) => boolean = () => false,
): boolean {
  const seen = new Set<object>();
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
    if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
    if (typeof v !== 'object' || isProxy(v) || seen.has(v)) return false;
    seen.add(v);
    const proto = Object.getPrototypeOf(v);
    if (proto !== (Array.isArray(v) ? Array.prototype : Object.prototype)) return false;
    if (Object.getOwnPropertySymbols(v).length) return false;
    return Object.entries(Object.getOwnPropertyDescriptors(v)).every(
      ([key, d]) =>
        (Array.isArray(v) && key === 'length') ||
        ('value' in d && d.enumerable === true && walk(d.value)),
    );
  };
  return walk(value);
}
