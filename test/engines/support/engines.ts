// Where each engine is found on this machine, and what to say when it is not. Firefox ESR and
// WebKitGTK come from Debian's packages, which .ci/run installs when missing. Chromium runs the
// same journeys in test/e2e (checkout, shopper), so it has no file here.
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { EngineName } from './page';

export const ENGINES: readonly EngineName[] = ['firefox', 'webkit'];

/** A command on PATH, or null. */
function onPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, command);
    if (dir && existsSync(path)) return path;
  }
  return null;
}

/** FIREFOX_PATH if set, else Debian's Firefox ESR or a system Firefox; null if not there. */
export function firefoxPath(): string | null {
  const paths = process.env.FIREFOX_PATH
    ? [process.env.FIREFOX_PATH]
    : ['/usr/bin/firefox-esr', '/usr/bin/firefox'];
  return paths.find((path) => existsSync(path)) ?? null;
}

/**
 * MINIBROWSER_PATH if set, else the MiniBrowser that Debian's webkit2gtk-driver brings, in the
 * library folder of this machine's architecture (/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/).
 */
export function miniBrowserPath(): string | null {
  const own = process.env.MINIBROWSER_PATH;
  if (own) return existsSync(own) ? own : null;
  const roots = ['/usr/lib', '/usr/libexec'];
  for (const root of roots) {
    const arches = existsSync(root) ? ['', ...readdirSync(root)] : [];
    for (const arch of arches) {
      for (const api of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
        const path = join(root, arch, api, 'MiniBrowser');
        if (existsSync(path)) return path;
      }
    }
  }
  return null;
}

export const webKitDriverPath = () => onPath('WebKitWebDriver');
/** Xvfb gives MiniBrowser its window; without it, a display of the developer's own (DISPLAY). */
export const xvfbPath = () => onPath('Xvfb');

/** Why this engine cannot run here, in one line, or null when it can. */
export function missingEngine(engine: EngineName): string | null {
  if (engine === 'firefox' && !firefoxPath()) {
    return 'Firefox ESR is not installed (apt-get install -y firefox-esr, or set FIREFOX_PATH)';
  }
  if (engine === 'webkit') {
    const missing = [
      !webKitDriverPath() && 'WebKitWebDriver',
      !miniBrowserPath() && 'MiniBrowser',
      !xvfbPath() && !process.env.DISPLAY && 'Xvfb',
    ].filter(Boolean);
    if (missing.length) {
      return `WebKitGTK cannot run: no ${missing.join(', ')} (apt-get install -y webkit2gtk-driver xvfb)`;
    }
  }
  return null;
}
