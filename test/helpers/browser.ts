import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs';

export { CHROMIUM_ARGS, chromiumPath };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
}
