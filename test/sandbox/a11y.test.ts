// @vitest-environment node
// The sandbox's pages through axe-core, in jsdom (colour contrast cannot be computed there; the
// stylesheet's colours are chosen for WCAG AA and checked in the browser end-to-end tests).
import axe from 'axe-core';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { createPayment, testSandbox } from './support/sandbox';

async function violations(url: string): Promise<string[]> {
  const html = await (await fetch(url)).text();
  const dom = new JSDOM(html, { url, runScripts: 'outside-only' });
  dom.window.eval(axe.source);
  const windowAxe = (dom.window as unknown as { axe: typeof axe }).axe;
  const results = await windowAxe.run(dom.window.document, {
    rules: { 'color-contrast': { enabled: false } },
  });
  dom.window.close();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
}

describe('accessibility of the sandbox pages', () => {
  it('has no axe violations on the bank page, its result, the index and the deliveries', async () => {
    const sandbox = await testSandbox();
    const pending = await createPayment(sandbox);
    const settled = await createPayment(sandbox);
    sandbox.settlePayment(settled.paymentId, { status: 'FAILED' });
    for (const url of [
      pending.authorisationUrl,
      settled.authorisationUrl,
      `${sandbox.url}/`,
      `${sandbox.url}/deliveries`,
      `${sandbox.url}/bank/unknown`,
    ]) {
      expect(await violations(url), url).toEqual([]);
    }
    // axe in jsdom takes a second or two a page on a busy machine.
  }, 30_000);
});
