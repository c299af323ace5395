/**
 * Public-key text as merchants hold it (spec 4.2): the endpoint's answer (PEM body with the
 * BEGIN/END lines trimmed, with or without line breaks), a full PEM, or either pasted into an
 * environment variable with literal `\n` sequences. Shared by both verifiers and the fetcher.
 */
import { isPaddedBase64 } from './base64';
import { WebhookKeyError } from './errors';

/** A public key reduced to one canonical form. */
export interface NormalisedPublicKey {
  /** The DER (SubjectPublicKeyInfo) as one line of base64. */
  readonly base64: string;
  /** A full PEM with 64-character lines, as node:crypto and openssl expect. */
  readonly pem: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)(?:-----END \1-----|$)/;

/** Why a PEM of another kind is not the key verification needs, and what to do instead. */
const WRONG_LABEL: Record<string, string> = {
  'RSA PUBLIC KEY':
    'it is a PKCS#1 "RSA PUBLIC KEY"; convert it with `openssl rsa -RSAPublicKey_in -pubout`, or use the text served at /.well-known/signature/pem',
  'PRIVATE KEY': 'it is a private key; verification needs the service public key',
  'RSA PRIVATE KEY': 'it is a private key; verification needs the service public key',
  CERTIFICATE:
    'it is a certificate; pass the public key served at /.well-known/signature/pem instead',
};

/**
 * Normalises key text, throwing WebhookKeyError when it cannot be a public key. Only the form
 * is checked here; the crypto layer parses the DER.
 */
export function normalisePublicKey(text: string): NormalisedPublicKey {
  // Environment variables often carry a PEM with literal "\n" sequences instead of newlines.
  let body = text.replace(/\\r|\\n/g, '\n');
  const block = PEM_BLOCK.exec(body);
  if (block) {
    const label = block[1] ?? '';
    if (label !== 'PUBLIC KEY') {
      const why = WRONG_LABEL[label] ?? 'a "PUBLIC KEY" PEM is expected';
      throw new WebhookKeyError(`servicepay: the public key is a "${label}" PEM: ${why}.`);
    }
    body = block[2] ?? '';
  }
  const base64 = body.replace(/\s+/g, '');
  if (!isPaddedBase64(base64)) {
    throw new WebhookKeyError(
      base64 === ''
        ? 'servicepay: the public key is empty; pass the text served at <base>/.well-known/signature/pem or a full PEM.'
        : 'servicepay: the public key is not base64 PEM text; pass the text served at <base>/.well-known/signature/pem or a full "PUBLIC KEY" PEM.',
    );
  }
  const lines = base64.match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return { base64, pem };
}

/** The error for a key argument of the wrong type; `accepted` names the key objects allowed. */
export function keyTypeError(value: unknown, accepted: string): WebhookKeyError {
  const got = value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
  return new WebhookKeyError(
    `servicepay: the public key must be the text served at <base>/.well-known/signature/pem, a "PUBLIC KEY" PEM, or ${accepted}; got ${got}.`,
  );
}
