import { readFileSync } from 'node:fs';

export interface VectorCase {
  name: string;
  /** The exact body bytes, base64. */
  bodyBase64: string;
  /** The same body as a string. */
  body: string;
  authorization: string;
  valid: boolean;
  note: string;
}

export interface Vectors {
  description: string;
  /** The key as the endpoint serves it: PEM body, BEGIN/END lines trimmed. */
  publicKey: string;
  publicKeyPem: string;
  cases: VectorCase[];
}

/** The service's signed examples, kept in the repository (test/fixtures/README.md). */
export const vectors: Vectors = JSON.parse(
  readFileSync(new URL('../../fixtures/webhook-signatures.json', import.meta.url), 'utf8'),
);

export function vectorCase(name: string): VectorCase {
  const found = vectors.cases.find((c) => c.name === name);
  if (!found) throw new Error(`no vector case ${name}`);
  return found;
}
