// The Chromium every browser test, the e2e tests and `npm run bench` launch, in one place.
// Plain JavaScript (with chromium.d.mts beside it) so that the bench, run by bare Node, can
// import it too; test/helpers/browser.ts builds the launcher on it.
import { existsSync } from 'node:fs';

/** What a closed network needs (CONTRIBUTING.md, "Browsers"); never @sparticuz/chromium's own args. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/**
 * A real Chromium from npm alone: CHROME_PATH if set, else a system Chromium or Chrome, else the
 * build shipped inside the @sparticuz/chromium package (unpacked to /tmp on first use).
 */
export async function chromiumPath() {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  const system = SYSTEM_BROWSERS.find((path) => existsSync(path));
  if (system) return system;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}
