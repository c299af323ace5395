/**
 * The library's own messages start with `servicepay: ` (the package's name first, as
 * downshift's do), added in one place: the error classes' constructors (WebhookError and
 * its family, the sandbox's SandboxError) and, for a plain Error, a TypeError or a line to a
 * log, `prefixed`. Never typed in a message, and never added to the spec's own strings (the
 * simulated service's answers, `Input validation error: ...`), which stay as the spec writes
 * them.
 */
import { MESSAGE_PREFIX } from '../core/protocol';

/** A message of the library's own: the prefix, then what was wrong and how to fix it. */
export function prefixed(words: string): string {
  return MESSAGE_PREFIX + words;
}

/** A message without the prefix, to quote inside another message of the library's. */
export function unprefixed(message: string): string {
  return message.startsWith(MESSAGE_PREFIX) ? message.slice(MESSAGE_PREFIX.length) : message;
}
