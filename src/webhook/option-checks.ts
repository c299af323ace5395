/**
 * The one check of a configuration option, for the handlers, the stores and the kit alike: the
 * value given, or the default when none was, or a WebhookConfigError naming the option, whose
 * message always reads `servicepay: <entry> <option> must be <rule>, got <what was given>.`
 */
import { WebhookConfigError } from './errors';

/** What an option must be. */
export interface OptionRule<T> {
  /** Whether the value is acceptable. */
  test(value: unknown): value is T;
  /** What it must be, as the message says it: `a positive integer`. */
  says: string;
  /**
   * The message shows a wrong value's type (for strings, functions, flags), the value, or a
   * string quoted and anything else's type (`word`: a function or a word).
   */
  shows?: 'type' | 'value' | 'word';
}

/**
 * `value` when `rule` accepts it, `fallback` when it is undefined; otherwise a
 * WebhookConfigError. `entry` is the function or class taking the option (undefined for the
 * receiver's options, whose messages name the option alone).
 */
export function checkOption<T>(
  entry: string | undefined,
  option: string,
  value: unknown,
  fallback: T,
  rule: OptionRule<T>,
): T {
  if (value === undefined) return fallback;
  if (rule.test(value)) return value;
  throw new WebhookConfigError(
    `${entry === undefined ? '' : `${entry} `}${option} must be ${rule.says}, got ${shown(rule, value)}.`,
    option,
  );
}

/**
 * `value` when `rule` accepts it; otherwise a WebhookConfigError for an option that has no
 * default: `servicepay: <entry> needs { <option> }, <rule>.`
 */
export function requiredOption<T>(
  entry: string,
  option: string,
  value: unknown,
  rule: OptionRule<T>,
): T {
  if (rule.test(value)) return value;
  const given = value === undefined ? '' : `, got ${shown(rule, value)}`;
  throw new WebhookConfigError(`${entry} needs { ${option} }, ${rule.says}${given}.`, option);
}

/** A wrong value as a message shows it (OptionRule's `shows`). */
function shown(rule: OptionRule<unknown>, value: unknown): string {
  if (rule.shows === 'word' && typeof value === 'string') return JSON.stringify(value);
  return rule.shows === 'type' || rule.shows === 'word' ? typeof value : String(value);
}

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** An integer of at least `least`, said as `a positive integer` when that is 1. */
export function integerFrom(least: number): OptionRule<number> {
  return {
    test: (value): value is number => Number.isInteger(value) && (value as number) >= least,
    says: least === 1 ? 'a positive integer' : `an integer of at least ${least}`,
  };
}

/** A number of `unit` (milliseconds, bytes) above 0, or from 0 when `zero` is allowed. */
export function amountOf(unit: string, zero = false): OptionRule<number> {
  return {
    test: (value): value is number => isNumber(value) && (zero ? value >= 0 : value > 0),
    says: `a ${zero ? 'non-negative' : 'positive'} number of ${unit}`,
  };
}

/** A number of `unit` of at least `least` (a lifetime the stores are held to). */
export function atLeast(least: number, unit: string): OptionRule<number> {
  return {
    test: (value): value is number => isNumber(value) && value >= least,
    says: `at least ${least} ${unit}`,
  };
}

/** A positive number of milliseconds a timer can wait (setTimeout's bound). */
export const TIMER_MS: OptionRule<number> = {
  test: (value): value is number => isNumber(value) && value > 0 && value <= 2 ** 31 - 1,
  says: 'a positive number of milliseconds (at most 2147483647)',
};

/** A string (a key prefix). */
export const TEXT: OptionRule<string> = {
  test: (value): value is string => typeof value === 'string',
  says: 'a string',
  shows: 'type',
};

/** true or false. */
export const FLAG: OptionRule<boolean> = {
  test: (value): value is boolean => typeof value === 'boolean',
  says: 'true or false',
  shows: 'type',
};

/** A function, `says` naming its signature: `a function (message: string) => void`. */
export function callback<F>(says: string): OptionRule<F> {
  return { test: (value): value is F => typeof value === 'function', says, shows: 'type' };
}

/**
 * A function, or the one word that declines it (expectedPayment's 'unreconciled'); a wrong
 * string is quoted (a misspelt word is found at once), anything else named by its type.
 */
export function callbackOr<F, W extends string>(word: W, says: string): OptionRule<F | W> {
  return {
    test: (value): value is F | W => typeof value === 'function' || value === word,
    says,
    shows: 'word',
  };
}

/** An object with these methods, `says` naming what it is (a node-postgres Pool, ...). */
export function withMethods<T>(methods: readonly string[], says: string): OptionRule<T> {
  return {
    test: (value): value is T =>
      methods.every(
        (method) => typeof (value as Record<string, unknown> | null)?.[method] === 'function',
      ),
    says,
    shows: 'type',
  };
}
