// WebKitGTK (WebKit, Safari's engine) through selenium-webdriver and WebKit's own WebDriver
// server, WebKitWebDriver, which starts MiniBrowser (the WebKitGTK test browser) per session. It
// needs an X display: its own Xvfb, or, on a developer's desktop without Xvfb, DISPLAY.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Builder, Key } from 'selenium-webdriver';
import type { WebDriver, WebElement } from 'selenium-webdriver';
import { DriverService } from 'selenium-webdriver/remote';
import { expect } from 'vitest';
import { freePort } from '../../helpers/free-port';
import { screenshotPath } from './artifacts';
import { miniBrowserPath, webKitDriverPath, xvfbPath } from './engines';
import { DESKTOP, WAIT, findControl } from './page';
import type { Engine, EnginePage, Key as KeyName } from './page';

const KEYS: Record<Exclude<KeyName, 'Shift+Tab'>, string> = {
  Tab: Key.TAB,
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  ArrowDown: Key.ARROW_DOWN,
  ArrowUp: Key.ARROW_UP,
  ArrowLeft: Key.ARROW_LEFT,
  ArrowRight: Key.ARROW_RIGHT,
  Home: Key.HOME,
  End: Key.END,
};

/**
 * MiniBrowser's toolbar (back, forward, reload, address field) makes its window at least 447 px
 * wide, too wide for a 390 px phone. WebKitGTK draws web content without the GTK theme, so a
 * user stylesheet for GTK that takes the padding and minimum widths off the browser's own
 * widgets lets the window narrow to 390 px and changes nothing in the page (checked: the
 * same fonts, form controls and sizes). GTK reads it from $XDG_CONFIG_HOME/gtk-3.0/gtk.css.
 */
const NARROW_CHROME = '* { padding: 0; margin: 0; min-width: 0; border-width: 0; }\n';

/** How long a new session may take before the driver is replaced (see newSession). */
const SESSION_LIMIT_MS = 20_000;

/** Starts Xvfb on a free display (it picks the number and writes it to fd 3). */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  const xvfb = spawn(
    xvfbPath()!,
    ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    },
  );
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display`)));
    xvfb.once('error', reject);
  });
  return { display, process: xvfb };
}

export async function startWebKit(): Promise<Engine> {
  const config = await mkdtemp(join(tmpdir(), 'servicepay-webkit-'));
  await mkdir(join(config, 'gtk-3.0'));
  await writeFile(join(config, 'gtk-3.0', 'gtk.css'), NARROW_CHROME);
  const xvfb = xvfbPath() ? await startXvfb() : undefined;
  // DriverService runs the driver and waits until it answers; the port is WebKitWebDriver's flag.
  const startDriver = async () => {
    const port = await freePort();
    const service = new DriverService(webKitDriverPath()!, {
      port,
      args: [`--port=${port}`],
      hostname: '127.0.0.1',
      loopback: true,
      env: {
        ...process.env,
        DISPLAY: xvfb?.display ?? process.env.DISPLAY,
        GDK_BACKEND: 'x11',
        XDG_CONFIG_HOME: config,
        // No accessibility bus on a CI machine: GTK would wait for it.
        NO_AT_BRIDGE: '1',
      },
    });
    return { service, server: await service.start(30_000) };
  };
  let current = await startDriver();

  /**
   * A new session: a new MiniBrowser. WebKitWebDriver answers in well under a second, but now
   * and then never does (its new MiniBrowser never connects: seen in about one run in ten of
   * this file, alone or beside other files, where a journey then hung until its 120 s
   * timeout). Then the driver is replaced and asked once more: the journey itself is not
   * retried, only the browser's start.
   */
  async function newSession(dark: boolean): Promise<WebDriver> {
    for (let attempt = 1; ; attempt++) {
      const driver = new Builder()
        .usingServer(current.server)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': {
            binary: miniBrowserPath(),
            args: ['--automation', ...(dark ? ['--dark-mode'] : [])],
          },
        })
        .build();
      let timer: NodeJS.Timeout | undefined;
      const started = await Promise.race([
        driver.getSession().then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(resolve, SESSION_LIMIT_MS, false))),
      ]).finally(() => clearTimeout(timer));
      if (started) return driver;
      // Both reject once their driver is gone.
      driver.catch(() => {});
      driver.getSession().catch(() => {});
      if (attempt === 2) {
        throw new Error(
          `webkit: WebKitWebDriver started no MiniBrowser within ${SESSION_LIMIT_MS} ms, twice`,
        );
      }
      // One line in the run's output, so that how often it happens stays known.
      console.warn(`webkit: no new session within ${SESSION_LIMIT_MS} ms; a new WebKitWebDriver`);
      await current.service.kill();
      current = await startDriver();
    }
  }

  return {
    name: 'webkit',
    async open({ dark = false, width = DESKTOP.width, height = DESKTOP.height } = {}) {
      // A new session per page: a new MiniBrowser, its own storage, like a new shopper. Dark is
      // MiniBrowser's --dark-mode, which WebKit reports as prefers-color-scheme: dark.
      const driver = await newSession(dark);
      const inner = () =>
        driver.executeScript<{ width: number; height: number }>(
          'return { width: innerWidth, height: innerHeight }',
        );
      const setViewport = async (w: number, h: number) => {
        const window = driver.manage().window();
        await window.setRect({ width: w, height: h });
        // The X server resizes the window after WebDriver answers: wait for the page to see it.
        await expect.poll(inner, WAIT).toMatchObject({ width: w });
        // The window's height includes the toolbar: grow it by the difference, once.
        const { height: seen } = await inner();
        if (seen !== h) {
          await window.setRect({ width: w, height: 2 * h - seen });
          await expect.poll(inner, WAIT).toEqual({ width: w, height: h });
        }
      };
      await setViewport(width, height);
      const engine: EnginePage = {
        engine: 'webkit',
        goto: (url) => driver.get(url),
        url: () => driver.getCurrentUrl(),
        evaluate: (expression) => driver.executeScript(`return ${expression}`),
        async click(control) {
          const element = await driver.executeScript<WebElement | null>(
            `return ${findControl(control)}`,
          );
          if (!element) throw new Error(`webkit: no visible ${control.role} "${control.name}"`);
          await element.click();
        },
        async press(key) {
          const actions = driver.actions();
          if (key === 'Shift+Tab') {
            await actions.keyDown(Key.SHIFT).sendKeys(Key.TAB).keyUp(Key.SHIFT).perform();
          } else await actions.sendKeys(KEYS[key]).perform();
        },
        setViewport,
        async screenshot(name) {
          const png = await driver.takeScreenshot();
          await writeFile(await screenshotPath('webkit', name), png, 'base64');
        },
        close: () => driver.quit(),
      };
      return engine;
    },
    async stop() {
      await current.service.kill();
      xvfb?.process.kill();
      await rm(config, { recursive: true, force: true });
    },
  };
}
