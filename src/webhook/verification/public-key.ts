/**
 * The service's public key as merchants hold it (spec 4.2), checked alike on every runtime,
 * and the one cache of parsed keys. Fetching it from its endpoint is key-fetch.ts.
 */
import { WebhookKeyError } from '../errors';
import type { Maybe } from '../maybe';
import { isPaddedBase64 } from './encoding';

/**
 * The environment variable the documentation reads the key from (`publicKey:
 * process.env.SERVICEPAY_PUBLIC_KEY`). The library never reads the environment itself (edge
 * runtimes may have no `process`); messages name it so the fix is one line in a .env file.
 */
export const PUBLIC_KEY_ENV = 'SERVICEPAY_PUBLIC_KEY';

/** The service signs with RSA keys of at least this size; a shorter key is not its key. */
const MIN_RSA_BITS = 2048;

/** The likely cause of a key cut short, spelled out in every message about one. */
const MULTI_LINE_HINT = `a multi-line value in a .env file must be quoted (${PUBLIC_KEY_ENV}="-----BEGIN PUBLIC KEY-----\\n...") or written on one line, or the platform cut it`;

// Key text ------------------------------------------------------------------------------------

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
 * Normalises key text as merchants hold it: the endpoint's answer (PEM body with the BEGIN/END
 * lines trimmed, with or without line breaks), a full PEM, or either pasted into an environment
 * variable with literal `\n` sequences. Throws WebhookKeyError when it cannot be the service's
 * key: wrong PEM kind, not base64, cut short, or an RSA key under 2048 bits. The runtime's
 * crypto parses the DER afterwards; what is checked here is checked alike on every runtime,
 * synchronously, so both entries refuse a bad key when the handler is created.
 */
export function normalisePublicKey(text: string): NormalisedPublicKey {
  // Environment variables often carry a PEM with literal "\n" sequences instead of newlines.
  let body = text.replace(/\\r|\\n/g, '\n');
  const block = PEM_BLOCK.exec(body);
  if (block) {
    const label = block[1] ?? '';
    if (label !== 'PUBLIC KEY') {
      const why = WRONG_LABEL[label] ?? 'a "PUBLIC KEY" PEM is expected';
      throw new WebhookKeyError(`the public key is a "${label}" PEM: ${why}.`);
    }
    body = block[2] ?? '';
    if (body.trim() === '') {
      throw new WebhookKeyError(
        `the public key holds only its "-----BEGIN PUBLIC KEY-----" line: ${MULTI_LINE_HINT}.`,
      );
    }
  }
  const base64 = body.replace(/\s+/g, '');
  if (!isPaddedBase64(base64)) {
    throw new WebhookKeyError(
      base64 === ''
        ? 'the public key is empty; pass the text served at <base>/.well-known/signature/pem or a full PEM.'
        : `the public key is not base64 PEM text (${base64.length} characters); pass the text served at <base>/.well-known/signature/pem or a full "PUBLIC KEY" PEM. If it looks cut short: ${MULTI_LINE_HINT}.`,
    );
  }
  checkDer(atob(base64));
  const lines = base64.match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
  return { base64, pem };
}

/** The error for a key argument of the wrong type; `accepted` names the key objects allowed. */
export function keyTypeError(value: unknown, accepted: string): WebhookKeyError {
  const got = value === null ? 'null' : typeof value === 'object' ? 'an object' : typeof value;
  return new WebhookKeyError(
    `the public key must be the text served at <base>/.well-known/signature/pem, a "PUBLIC KEY" PEM, or ${accepted}; got ${got}.`,
  );
}

/** The error for an RSA key shorter than the service uses. */
export function shortKeyError(bits: number): WebhookKeyError {
  return new WebhookKeyError(
    `the public key is RSA-${bits}; the service signs with RSA keys of at least ${MIN_RSA_BITS} bits, so this is not its key. Copy the key again from <base>/.well-known/signature/pem of the right environment.`,
  );
}

/** rsaEncryption, 1.2.840.113549.1.1.1, as DER content bytes. */
const RSA_OID = '\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01';

/**
 * Reads just enough of the SubjectPublicKeyInfo DER (given as a binary string) to tell a key
 * cut short and an RSA modulus under 2048 bits, without a crypto library: importKey is
 * asynchronous on WebCrypto, and these two mistakes must fail when the handler is created.
 * Anything else odd in the DER is left to the runtime's parser.
 */
function checkDer(der: string): void {
  const outer = tlv(der, 0);
  if (outer === null || outer.tag !== 0x30) throw notDer();
  if (outer.end > der.length) {
    throw new WebhookKeyError(
      `the public key is cut short (${der.length} of ${outer.end} bytes): ${MULTI_LINE_HINT}. Copy it again from <base>/.well-known/signature/pem.`,
    );
  }
  if (outer.end < der.length) throw notDer();
  const algorithm = tlv(der, outer.start);
  const oid = algorithm && algorithm.tag === 0x30 ? tlv(der, algorithm.start) : null;
  if (algorithm === null || oid === null || oid.tag !== 0x06) throw notDer();
  if (der.slice(oid.start, oid.end) !== RSA_OID) return; // not RSA: the runtime's check says so
  const bitString = tlv(der, algorithm.end);
  const rsaKey = bitString?.tag === 0x03 ? tlv(der, bitString.start + 1) : null;
  const modulus = rsaKey?.tag === 0x30 ? tlv(der, rsaKey.start) : null;
  if (modulus === null || modulus.tag !== 0x02 || modulus.end > outer.end) throw notDer();
  let start = modulus.start;
  while (start < modulus.end && der.charCodeAt(start) === 0) start++;
  const first = der.charCodeAt(start);
  const bits = start < modulus.end ? (modulus.end - start - 1) * 8 + (32 - Math.clz32(first)) : 0;
  if (bits < MIN_RSA_BITS) throw shortKeyError(bits);
}

/** One DER tag-length header at `at`: where its content starts and ends, or null if unreadable. */
function tlv(der: string, at: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > der.length) return null;
  const tag = der.charCodeAt(at);
  let length = der.charCodeAt(at + 1);
  let start = at + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 3 || start + count > der.length) return null;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der.charCodeAt(start++);
  }
  return { tag, start, end: start + length };
}

/** The error for base64 key text that is not SubjectPublicKeyInfo DER; `cause`: the parser's. */
export function notDer(cause?: unknown): WebhookKeyError {
  return new WebhookKeyError(
    'the public key text is base64 but not a valid public key (SubjectPublicKeyInfo DER); copy it again from <base>/.well-known/signature/pem.',
    cause === undefined ? undefined : { cause },
  );
}

// The one key cache ---------------------------------------------------------------------------

/**
 * Parsed keys by the exact text given, bounded. Parsing a key (a PEM parse on Node, an
 * asynchronous importKey on WebCrypto) costs far more than a verification, so each runtime
 * keeps what it parsed here: a lookup hashes a string V8 has usually hashed already, and a
 * verification then costs the RSA operation and little else. One class for the Node and
 * WebCrypto public keys and the signing keys, each with its own instance (different values).
 */
export class KeyCache<V> {
  readonly #entries = new Map<string, V>();
  readonly #max: number;

  /** `max`: enough for key rotation overlap and a few environments; odd inputs cannot grow it. */
  constructor(max = 32) {
    this.#max = max;
  }

  get(text: string): V | undefined {
    return this.#entries.get(text);
  }

  set(text: string, value: V): V {
    if (this.#entries.size >= this.#max) {
      // Map iteration is insertion order: drop the oldest entry.
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(text, value);
    return value;
  }

  /** Forgets `text` if it still maps to `value` (a failed asynchronous parse). */
  forget(text: string, value: V): void {
    if (this.#entries.get(text) === value) this.#entries.delete(text);
  }
}

// The key a receiver verifies with ------------------------------------------------------------

/** A key as the verifiers accept it: text/PEM, or the runtime's key object. */
export type KeyInput<K> = string | K;

/**
 * The crypto seam between the runtime-neutral receiver and a runtime: node:crypto in
 * `servicepay/webhook`, WebCrypto in `servicepay/webhook/web`.
 */
export interface CryptoProvider<K> {
  /** Verifies a delivery's signature; node:crypto's is synchronous, WebCrypto's asynchronous. */
  verify(body: Uint8Array, authorization: string | null, key: KeyInput<K>): Maybe<boolean>;
  /** Throws WebhookKeyError unless `key` can verify; run when a handler is created. */
  checkKey(key: unknown): void;
}
