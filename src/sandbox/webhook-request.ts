/**
 * The headers of a webhook request, as the service sends them (spec 4.1, 5.3): JSON, any
 * answer type, and the SHA256withRSA signature of exactly these body bytes. Signing is the
 * webhook module's (the same code merchants use in their tests), not a second implementation.
 */
import type { KeyObject } from 'node:crypto';
import { signWebhookPayload } from '../webhook/index';

export const SANDBOX_USER_AGENT = 'servicepay-sandbox';

export function webhookRequestHeaders(
  body: Buffer,
  privateKey: KeyObject | string,
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: '*/*',
    Authorization: signWebhookPayload(body, privateKey),
    'User-Agent': SANDBOX_USER_AGENT,
  };
}
