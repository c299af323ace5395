/**
 * What a value is, for messages about values the merchant's code returned (expectedPayment's
 * answer, a store's), which name a value's kind and keys and never quote it: an order row is
 * data about the merchant's customers, and a message reaches logs and traces.
 * (core/describe-value.ts quotes values: for what the merchant passed as an option or an
 * argument, where showing it is the fix.)
 */
/** What a value is, never what it holds: "a string", "an object with keys state, token". */
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
