import { generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

export interface TestKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The private key as a PKCS#8 PEM. */
  privatePem: string;
  /** The public key as a full PEM. */
  publicPem: string;
  /** The public key as the endpoint serves it: the PEM body, BEGIN/END lines trimmed. */
  publicText: string;
}

/** A fresh RSA-2048 key pair; the service signs with such a key. */
export function createKeyPair(): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return {
    privateKey,
    publicKey,
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem,
    publicText: endpointText(publicPem),
  };
}

/** What /.well-known/signature/pem serves: the PEM with its BEGIN/END lines trimmed off. */
export function endpointText(pem: string): string {
  return pem
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('-----'))
    .join('\n');
}

let shared: TestKeyPair | undefined;

/** One key pair shared by the tests of a file (key generation is slow). */
export function serviceKeys(): TestKeyPair {
  shared ??= createKeyPair();
  return shared;
}
