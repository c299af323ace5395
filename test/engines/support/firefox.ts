// Firefox ESR through puppeteer-core over WebDriver BiDi (no geckodriver).
import type { Browser, ElementHandle } from 'puppeteer-core';
import puppeteer from 'puppeteer-core';
import { screenshotPath } from './artifacts';
import { firefoxPath } from './engines';
import { DESKTOP, findControl } from './page';
import type { Engine, EnginePage, Key } from './page';

/**
 * Dark: puppeteer's emulateMediaFeatures needs CDP, which Firefox no longer has, so the colour
 * scheme is Firefox's own preference (0: dark, 1: light), given at launch: a second Firefox,
 * started on the first dark page.
 */
const launch = (dark: boolean) =>
  puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath()!,
    headless: true,
    extraPrefsFirefox: {
      'layout.css.prefers-color-scheme.content-override': dark ? 0 : 1,
      // A closed network: no experiments or remote settings fetched at start.
      'app.normandy.enabled': false,
      'messaging-system.rsexperimentloader.enabled': false,
    },
  });

export async function startFirefox(): Promise<Engine> {
  const browsers: Record<'light' | 'dark', Promise<Browser> | undefined> = {
    light: launch(false),
    dark: undefined,
  };
  return {
    name: 'firefox',
    async open({ dark = false, width = DESKTOP.width, height = DESKTOP.height } = {}) {
      const browser = await (dark ? (browsers.dark ??= launch(true)) : browsers.light!);
      // A fresh user context per page: its own storage, like a new shopper.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height });
      const engine: EnginePage = {
        engine: 'firefox',
        goto: async (url) => void (await page.goto(url)),
        url: async () => page.url(),
        evaluate: <T>(expression: string) => page.evaluate(expression) as Promise<T>,
        async click(control) {
          const handle = await page.evaluateHandle(findControl(control));
          const element = handle.asElement() as ElementHandle<Element> | null;
          if (!element) throw new Error(`firefox: no visible ${control.role} "${control.name}"`);
          await element.click();
        },
        async press(key: Key) {
          if (key !== 'Shift+Tab') return page.keyboard.press(key);
          await page.keyboard.down('Shift');
          await page.keyboard.press('Tab');
          await page.keyboard.up('Shift');
        },
        setViewport: (w, h) => page.setViewport({ width: w, height: h }),
        screenshot: async (name) =>
          void (await page.screenshot({ path: await screenshotPath('firefox', name) })),
        close: () => context.close(),
      };
      return engine;
    },
    async stop() {
      const open = await Promise.all(Object.values(browsers));
      await Promise.all(open.map((browser) => browser?.close()));
    },
  };
}
