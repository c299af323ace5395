import { said } from './protocol';

// What the browser half says on the console, with the one prefix (./protocol, `said`).

/**
 * A development warning. The caller checks `process.env.NODE_ENV !== 'production'` before it
 * builds the text, so that a production bundle drops both.
 */
export const warn = (text: string): void => console.warn(said(text));

/** Merchant code (a callback) threw: caught, so that it never breaks the library, and shown. */
export const reportThrown = (name: string, error: unknown): void =>
  console.error(said(`${name} threw`), error);
