import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs';
import { sharedFixture } from './shared-fixtures.mjs';

export { CHROMIUM_ARGS, chromiumPath };

/**
 * A Chromium for a test file. Under vitest, a connection to the run's one shared Chromium
 * (test/helpers/shared-fixtures-setup.ts): `close()` closes this file's contexts and pages and
 * leaves the browser to the others. Elsewhere, a Chromium of its own.
 */
export async function launchChromium(): Promise<Browser> {
  const shared = await sharedFixture('chromium');
  if (shared?.wsEndpoint) return chromium.connect(shared.wsEndpoint);
  return chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
}
