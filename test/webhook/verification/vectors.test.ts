// @vitest-environment node
// Every shared vector, through both input forms (raw bytes and the JSON string) and both
// verifiers (node:crypto and WebCrypto), with the key in both of its published forms.
import { describe, expect, it } from 'vitest';
import { verifyWebhookSignature as verifyNode } from '../../../src/webhook/index';
import { verifyWebhookSignature as verifyWeb } from '../../../src/webhook/web';
import { vectors } from '../support/vectors';

const forms = {
  bytes: (c: (typeof vectors.cases)[number]) => Buffer.from(c.bodyBase64, 'base64'),
  string: (c: (typeof vectors.cases)[number]) => c.body,
};

describe('shared webhook signature vectors', () => {
  it('has cases, valid and invalid', () => {
    expect(vectors.cases.length).toBeGreaterThan(0);
    expect(vectors.cases.some((c) => c.valid)).toBe(true);
    expect(vectors.cases.some((c) => !c.valid)).toBe(true);
  });

  describe.each(Object.entries(forms))('body as %s', (_form, toBody) => {
    it.each(vectors.cases.map((c) => [c.name, c] as const))('node verifier: %s', (_name, c) => {
      expect(verifyNode(toBody(c), c.authorization, vectors.publicKey)).toBe(c.valid);
      expect(verifyNode(toBody(c), c.authorization, vectors.publicKeyPem)).toBe(c.valid);
    });

    it.each(vectors.cases.map((c) => [c.name, c] as const))(
      'web verifier: %s',
      async (_name, c) => {
        expect(await verifyWeb(toBody(c), c.authorization, vectors.publicKey)).toBe(c.valid);
        expect(await verifyWeb(toBody(c), c.authorization, vectors.publicKeyPem)).toBe(c.valid);
      },
    );
  });

  it('the string and byte forms of each case are the same bytes', () => {
    for (const c of vectors.cases) {
      expect(Buffer.from(c.body, 'utf8').equals(Buffer.from(c.bodyBase64, 'base64'))).toBe(true);
    }
  });
});
