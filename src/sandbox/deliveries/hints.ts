/**
 * What a receiver's answer means: a hint in plain words for each attempt that was not answered
 * 200 (diagnose), with where to read more, and the same as a log line.
 */
import { AnswerTimeoutError } from './notification';
import type { DeliveryHint, WebhookDeliveryAttempt } from '../api/types';

/**
 * Where the hints send a reader for more: the repository's docs as published, since the
 * sandbox serves no documentation of its own.
 */
export const DOCS_URL = 'https://github.com/servicepay/servicepay/blob/main/docs/';
/** The troubleshooting section the 401 hint links to; a test checks that the heading exists. */
export const SIGNATURE_DOCS = `${DOCS_URL}troubleshooting.md#genuine-deliveries-get-401`;

/** The plain-words hint for an attempt that was not answered 200. */
export function diagnose(
  answer: { status: number | null; failure?: unknown; simulated?: boolean },
  context: { url: string; bodyBytes: number; timeoutMs: number; publicKeyUrl?: string },
): DeliveryHint | null {
  const { status } = answer;
  if (status === 200) return null;
  const hint = (cause: DeliveryHint['cause'], text: string, docs: string | null = null) => ({
    cause,
    text,
    docs,
  });
  if (answer.simulated) {
    return hint(
      'simulated',
      'Broken on purpose: the sandbox failed this attempt before it reached the receiver, as a network failure would. The receiver saw nothing; the next attempt follows as usual.',
    );
  }
  if (status === null) {
    const { failure } = answer;
    const code = (failure as { code?: unknown } | null | undefined)?.code;
    const { host } = new URL(context.url);
    if (failure instanceof AnswerTimeoutError) {
      return hint(
        'timeout',
        `The receiver did not answer within ${context.timeoutMs} ms. Answer 200 as soon as the notification is stored and do slow work (emails, other services) afterwards; the service counts a slow answer as a failure and sends the notification again.`,
      );
    }
    if (code === 'ECONNREFUSED') {
      return hint(
        'connection-refused',
        `Nothing is listening at ${host}: start the receiver, or check the host and port of the webhook URL.`,
      );
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return hint(
        'unreachable',
        `The host name of the webhook URL (${host}) does not resolve on this machine: check its spelling, or use 127.0.0.1.`,
      );
    }
    return hint(
      'connection-closed',
      'The connection ended before a complete answer: the receiver closed it, or crashed while answering. Look at its log for this moment.',
    );
  }
  if (status === 401) {
    const key = context.publicKeyUrl ? ` (${context.publicKeyUrl})` : '';
    return hint(
      'signature',
      `The receiver could not verify the signature. Most often the body was parsed or re-serialised before verification (JSON.parse then JSON.stringify, a JSON body parser in front of the route): the signature covers the exact bytes received, so verify those. Otherwise the receiver holds another key: it must be this sandbox's public key${key}, which stays the same across restarts only with --key-file.`,
      SIGNATURE_DOCS,
    );
  }
  if (status === 404) {
    return hint(
      'path',
      `The receiver has nothing at ${new URL(context.url).pathname}: compare the path of the webhook URL (${context.url}) with the route your server defines.`,
    );
  }
  if (status === 405) {
    return hint(
      'method',
      'The route exists but does not accept PUT, which is what the service sends (Express: app.put; Next.js: export const PUT).',
    );
  }
  if (status === 413) {
    return hint(
      'too-large',
      `The receiver refused the body (${context.bodyBytes} bytes) as too large: raise its body limit (the library's receiver: maxBodyBytes). Large payment metadata is the usual reason.`,
    );
  }
  if (status >= 500) {
    return hint(
      'handler-failed',
      'The receiver failed while handling the notification (its handler threw, or its database is down): its answer is shown. The service sends the notification again until it gets 200, so a fix is picked up by the next attempt.',
    );
  }
  if (status >= 400) {
    return hint(
      'refused-by-receiver',
      `The receiver refused the notification with HTTP ${status}; its answer says why. Only 200 counts as delivered.`,
    );
  }
  if (status >= 300) {
    return hint(
      'redirect',
      'The receiver answered with a redirect, which the service does not follow: give the final address as the webhook URL.',
    );
  }
  return hint(
    'not-200',
    `Only 200 counts as delivered; HTTP ${status} is resent like a failure. Answer 200 once the notification is stored.`,
  );
}

/** The hint as one log line: its words and, when there is one, where to read more. */
export function hintLine(attempt: Pick<WebhookDeliveryAttempt, 'hint' | 'responseText'>): string {
  const { hint } = attempt;
  if (hint === null) return '';
  const answer =
    hint.cause === 'handler-failed' && attempt.responseText
      ? ` The receiver answered: ${JSON.stringify(attempt.responseText.slice(0, 200))}.`
      : '';
  const docs = hint.docs ? ` See ${hint.docs}` : '';
  return `Likely cause: ${hint.text}${answer}${docs}`;
}
