/**
 * What the receiver writes to the merchant's log when they give no onError: server errors and
 * payments that need review, every time; signature failures (401) once a minute per key. A wrong
 * key (another environment's, or a sandbox restarted without --key-file) turns every delivery
 * into a 401 the service keeps resending: silent, that costs an afternoon. Once a minute, so
 * forged requests cannot flood the log.
 */
import type { WebhookErrorContext } from './verdicts';

/** Least time between two signature lines for the same key. */
export const SIGNATURE_LOG_INTERVAL_MS = 60_000;

/**
 * The default onError of a receiver whose key is described by `keyName` (`publicKey`, the key
 * from its URL, each of the keys of a list), as the signature line names it.
 */
export function defaultErrorLog(
  keyName: string,
): (error: unknown, context: WebhookErrorContext) => void {
  // One receiver has one key configuration, so one clock is "per key".
  let lastSignatureLine = -Infinity;
  return (error, context) => {
    if (context.outcome === 'invalid-signature') {
      const now = Date.now();
      if (now - lastSignatureLine < SIGNATURE_LOG_INTERVAL_MS) return;
      lastSignatureLine = now;
      const failed = /no Authorization header/.test(String((error as Error | null)?.message))
        ? 'had no Authorization header'
        : `did not verify with ${keyName}`;
      console.error(
        `servicepay webhook: a delivery's signature ${failed}, so it was answered ${context.status} and the service will send it again. Is the key this environment's (the sandbox's /.well-known/signature/pem for the sandbox, the live service's for LIVE)? If it is, something changed the body before verification (a JSON body parser in front of the route). Further signature failures are not logged for a minute.`,
      );
      return;
    }
    if (context.status >= 500 || context.outcome === 'needs-review') {
      console.error(`servicepay webhook: answered ${context.status} (${context.outcome})`, error);
    }
  };
}
