// @vitest-environment node
// The sandbox's pages through axe-core, in jsdom (colour contrast cannot be computed there; the
// stylesheet's colours are chosen for WCAG AA and checked in the browser end-to-end tests).
import axe from 'axe-core';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { startReceiver } from './support/receiver';
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
  it('has no axe violations on the bank page, its result, the index, the deliveries and the keys', async () => {
    // Deliveries with hints, an answer shown, failures on purpose, faults armed and a receiver
    // check report: every part of the deliveries page.
    const receiver = await startReceiver((_, n) =>
      n === 1 ? { status: 500, body: 'TypeError: order is undefined' } : 401,
    );
    const sandbox = await testSandbox({ webhookUrl: receiver.url, retry: { maxAttempts: 2 } });
    const pending = await createPayment(sandbox);
    const settled = await createPayment(sandbox);
    sandbox.breakDeliveries({ networkFailures: 1 }, { paymentId: settled.paymentId });
    const gaveUp = sandbox.attempt((a) => a.outcome === 'gave-up');
    sandbox.settlePayment(settled.paymentId, { status: 'FAILED' });
    await gaveUp;
    await sandbox.checkReceiver();
    sandbox.breakDeliveries({ twiceAtOnce: true }, { count: 2 });
    for (const url of [
      pending.authorisationUrl,
      settled.authorisationUrl,
      `${sandbox.url}/`,
      `${sandbox.url}/deliveries`,
      `${sandbox.url}/keys`,
      `${sandbox.url}/bank/unknown`,
    ]) {
      expect(await violations(url), url).toEqual([]);
    }
    await receiver.stop();
    // axe in jsdom takes a second or two a page on a busy machine.
  }, 30_000);
});
