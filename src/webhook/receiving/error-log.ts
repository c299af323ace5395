/**
 * What the receiver writes to the merchant's log when they give no onError: server errors and
 * payments that need review, every time; two misconfigurations that turn every resend into the
 * same refusal, as one plain line at most once a minute each, so that neither the service's
 * resends nor forged requests can flood the log, and neither is silent:
 * - signature failures (401): a wrong key (another environment's, or a sandbox restarted
 *   without --key-file), or no key configured at all; silent, that costs an afternoon;
 * - a body parsed before the receiver (500, `body-already-parsed`): express.json() in front of
 *   the route. One line saying so, not a stack trace on every resend: the stack is the
 *   receiver's own and says nothing the line does not.
 */
import { BODY_ALREADY_PARSED } from '../verification/encoding';
import type { WebhookErrorContext } from './verdicts';

/** Least time between two lines of the same kind (signature, parsed body) of one receiver. */
export const SIGNATURE_LOG_INTERVAL_MS = 60_000;

const PARSED_BODY_LINE = `servicepay webhook: a delivery was answered 500 (body-already-parsed), and the service will send it again: ${BODY_ALREADY_PARSED} Further deliveries refused for this reason are not logged for a minute.`;

/**
 * The default onError of a receiver whose key is described by `keyName` (`publicKey`, the key
 * from its URL, each of the keys of a list), as the signature line names it; null when no key
 * is configured (the environment variable unset), which the signature line then says.
 */
export function defaultErrorLog(
  keyName: string | null,
): (error: unknown, context: WebhookErrorContext) => void {
  // One receiver has one key configuration, so one clock per kind is "per key".
  const last = { signature: -Infinity, parsed: -Infinity };
  const due = (kind: keyof typeof last): boolean => {
    const now = Date.now();
    if (now - last[kind] < SIGNATURE_LOG_INTERVAL_MS) return false;
    last[kind] = now;
    return true;
  };
  return (error, context) => {
    if (context.outcome === 'invalid-signature') {
      if (due('signature')) console.error(signatureLine(error, context.status, keyName));
      return;
    }
    if (context.outcome === 'body-already-parsed') {
      if (due('parsed')) console.error(PARSED_BODY_LINE);
      return;
    }
    if (context.status >= 500 || context.outcome === 'needs-review') {
      console.error(`servicepay webhook: answered ${context.status} (${context.outcome})`, error);
    }
  };
}

/** The one line for a signature failure: what failed, and the likeliest cause. */
function signatureLine(error: unknown, status: number, keyName: string | null): string {
  const bare = /no Authorization header/.test(String((error as Error | null)?.message));
  const later = 'Further signature failures are not logged for a minute.';
  if (keyName === null) {
    // Only a request without a signature gets here (a signed one is answered 500, naming the
    // variable): asking whether the key is this environment's would send the reader astray.
    const header = bare
      ? 'had no Authorization header'
      : 'had no signature in its Authorization header';
    return `servicepay webhook: a delivery ${header}, so it was answered ${status}; and this receiver has no public key configured to verify signatures with: set SERVICEPAY_PUBLIC_KEY to the text served at <base>/.well-known/signature/pem and pass it as publicKey (or pass publicKeyUrl or environment). Until then signed deliveries are answered 500. ${later}`;
  }
  const failed = bare ? 'had no Authorization header' : `did not verify with ${keyName}`;
  return `servicepay webhook: a delivery's signature ${failed}, so it was answered ${status} and the service will send it again. Is the key this environment's (the sandbox's /.well-known/signature/pem for the sandbox, the live service's for LIVE)? If it is, something changed the body before verification (a JSON body parser in front of the route). ${later}`;
}
