// Dependency-free, so that server code (src/webhook, src/sandbox) shares it with the browser
// layers (eslint allows webhook this module of core, beside service-addresses).

const MAX_VALUE_CHARS = 120;

/**
 * A value as text for a message; never throws, whatever the value (a Proxy whose traps throw,
 * an object without a prototype, a getter that throws).
 */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    // Strings and primitives as themselves (NaN and Infinity would read as null through JSON).
    text = (!!value && typeof value == 'object' && JSON.stringify(value)) || String(value);
  } catch {
    try {
      text = {}.toString.call(value); // Object.prototype's, as a fresh literal has no own
    } catch {
      text = '[unreadable]';
    }
  }
  // Huge values (a 6000-character metadata object) would drown the message.
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/**
 * What a value is, never what it holds ("a string", "an object with keys state, token", "null",
 * "missing"): for messages about values the merchant's code returned (an order row, a store's
 * answer), which are data about their customers and must not reach a log line or a trace.
 */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'object') return `an object with keys ${keysOf(value as object)}`;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** An object's own keys (names, not values): at most 20, each cut to 40 characters. */
export function keysOf(object: object): string {
  let keys: string[];
  try {
    keys = Object.keys(object);
  } catch {
    return '(unreadable)';
  }
  if (keys.length === 0) return '(none)';
  const shown = keys.slice(0, 20).map((key) => (key.length > 40 ? `${key.slice(0, 40)}…` : key));
  return keys.length > 20 ? `${shown.join(', ')} and ${keys.length - 20} more` : shown.join(', ');
}
