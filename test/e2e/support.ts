// Shared by the end-to-end tests: the example checkout wired to a sandbox, screenshots, axe.
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { startCheckout } from '../../examples/checkout/server.mjs';
import { SANDBOX_APPLICATION_ID, startSandbox } from '../../src/sandbox/index';

export type Checkout = Awaited<ReturnType<typeof startCheckout>>;
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Webhook retries in milliseconds rather than seconds, bounded. */
export const FAST_RETRY = { initialDelayMs: 20, factor: 2, maxDelayMs: 200, maxAttempts: 50 };

/** The example checkout and a sandbox that sends it webhooks and returns shoppers to it. */
export async function startCheckoutWithSandbox(): Promise<{
  checkout: Checkout;
  sandbox: Sandbox;
  stop(): Promise<void>;
}> {
  const checkout = await startCheckout({ port: 0 });
  const sandbox = await startSandbox({
    port: 0,
    webhookUrl: checkout.webhookUrl,
    webCallbackUrl: checkout.returnUrl,
    mobileCallbackUrl: `${checkout.returnUrl}?app=mobile`,
    applications: { [SANDBOX_APPLICATION_ID]: { merchantName: checkout.merchantName } },
    retry: FAST_RETRY,
  });
  checkout.useSandbox(sandbox);
  return {
    checkout,
    sandbox,
    async stop() {
      await sandbox.stop();
      await checkout.stop();
    },
  };
}

/** Screenshots for review, in a git-ignored folder. */
const SHOTS = new URL('../../artifacts/screenshots/', import.meta.url);
export const prepareScreenshots = () => mkdir(SHOTS, { recursive: true });
export const shot = (page: Page, name: string) =>
  page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });

const require = createRequire(import.meta.url);

/**
 * axe's violations on the page as it is now, colour contrast included, as `id: node count`.
 * axe is injected by the test, so the page's context must bypass its CSP (bypassCSP: true).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const source = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResults> } }).axe;
    return (await axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.length}`);
  });
}
