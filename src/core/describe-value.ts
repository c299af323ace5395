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
