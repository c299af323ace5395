// Chromium through playwright-core, as the e2e tests launch it (test/helpers/browser.ts).
import type { ElementHandle } from 'playwright-core';
import { launchChromium } from '../../helpers/browser';
import { screenshotPath } from './artifacts';
import { DESKTOP, findControl } from './page';
import type { Engine, EnginePage } from './page';

export async function startChromium(): Promise<Engine> {
  const browser = await launchChromium();
  return {
    name: 'chromium',
    async open({ dark = false, width = DESKTOP.width, height = DESKTOP.height } = {}) {
      // A fresh context per page: its own storage, like a new shopper.
      const context = await browser.newContext({
        colorScheme: dark ? 'dark' : 'light',
        viewport: { width, height },
      });
      const page = await context.newPage();
      const engine: EnginePage = {
        engine: 'chromium',
        goto: async (url) => void (await page.goto(url)),
        url: async () => page.url(),
        evaluate: (expression) => page.evaluate(expression),
        async click(control) {
          const handle = await page.evaluateHandle(findControl(control));
          const element = handle.asElement() as ElementHandle<Element> | null;
          if (!element) throw new Error(`chromium: no visible ${control.role} "${control.name}"`);
          await element.click();
        },
        press: (key) => page.keyboard.press(key),
        setViewport: (w, h) => page.setViewportSize({ width: w, height: h }),
        screenshot: async (name) =>
          void (await page.screenshot({ path: await screenshotPath('chromium', name) })),
        close: () => context.close(),
      };
      return engine;
    },
    stop: () => browser.close(),
  };
}
