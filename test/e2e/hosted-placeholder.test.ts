// @vitest-environment node
// servicepay/hosted.css, the optional look of servicepay/hosted's placeholder, in a real headless
// Chromium: the built file (dist/css/hosted.css) linked by the harness page, the placeholder
// loading (as the server renders it: the script's own timeout never turns it into the failure
// while axe looks) and failed (a script address that answers 404), and the sandbox's own script
// taking its place.
import { readFile } from 'node:fs/promises';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServicePay } from '../../src/hosted/index';
import { SANDBOX_APPLICATION_ID, startSandbox } from '../../src/sandbox/index';
import { launchChromium } from '../helpers/browser';
import type { Sandbox } from './support';
import { axeViolations, inBothSchemes } from './support';
import { bundleHarness, startHostedServer } from './hosted/support';
import type { HostedServer, PageOptions } from './hosted/support';

const css = await readFile(new URL('../../dist/css/hosted.css', import.meta.url), 'utf8');
const STYLESHEET = '<link rel="stylesheet" href="/hosted.css">';
/** A page as a shop's is, for axe's page rules: its heading in a banner. */
const HEADER = '<header><h1>Checkout</h1></header>';
const BELOW = '<p id="below">Delivery: 2 to 3 working days.</p>';
const PAYMENT = { amount: 12.5, paymentReference: 'ORDER-1042' };
const PROPS = {
  environment: 'SANDBOX' as const,
  applicationId: SANDBOX_APPLICATION_ID,
  payment: PAYMENT,
};

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: HostedServer;
let sandbox: Sandbox;
let script: string;
let page: Page | undefined;
beforeAll(async () => {
  const [chromium, harness] = await Promise.all([launchChromium(), bundleHarness()]);
  browser = chromium;
  // The harness's server, which also serves the built stylesheet, as a merchant's page does.
  server = await startHostedServer(harness, (req, res) => {
    if (req.url !== '/hosted.css') return false;
    res.writeHead(200, { 'Content-Type': 'text/css' }).end(css);
    return true;
  });
  sandbox = await startSandbox({ port: 0 });
  const { componentVersion } = JSON.parse(
    await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { componentVersion: string };
  script = `${sandbox.url}/js/Service-${componentVersion}.min.js`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sandbox?.stop();
});
afterEach(async () => {
  await page?.close();
  page = undefined;
});

/** The harness page with these options, and `<ServicePay>` on `scriptSrc` mounted in it. */
async function mounted(
  scriptSrc: string,
  options: PageOptions = { head: STYLESHEET, above: HEADER },
) {
  server.page(options);
  page = await browser.newPage();
  await page.goto(`${server.url}/page`);
  await page.waitForFunction(() => 'harness' in window);
  await page.evaluate(
    (props) => (window as unknown as { harness: { mount(p: object): void } }).harness.mount(props),
    { scriptSrc, ...PROPS },
  );
  return page;
}

/** The loading placeholder as the server renders it, in a page that mounts nothing over it. */
async function loading() {
  const markup = renderToString(createElement(ServicePay, { scriptSrc: script, ...PROPS }));
  server.page({ head: STYLESHEET, above: HEADER, markup });
  page = await browser.newPage();
  await page.goto(`${server.url}/page`);
  return page;
}

/** What the shopper sees of an element: its computed style, by property. */
const style = (page: Page, selector: string, ...properties: string[]) =>
  page
    .locator(selector)
    .evaluate(
      (element, names) => names.map((name) => getComputedStyle(element).getPropertyValue(name)),
      properties,
    );

describe('servicepay/hosted.css', () => {
  it('loading: the Pay step’s card and a disabled Pay, axe clean, colour contrast included, light and dark', async () => {
    const page = await loading();
    await page.getByRole('button', { name: 'Pay £12.50', disabled: true }).waitFor();
    const seen = await inBothSchemes(page, async () => ({
      violations: await axeViolations(page),
      card: await style(page, '.servicepay-placeholder', 'background-color', 'border-radius'),
      pay: await style(page, '.servicepay-placeholder > button', 'background-color', 'min-height'),
    }));
    expect(seen.light.violations).toEqual([]);
    expect(seen.dark.violations).toEqual([]);
    // The theme's surface and primary, each scheme its own (the stylesheet is what drew them).
    expect(seen.light.card).toEqual(['rgb(255, 255, 255)', '12px']);
    expect(seen.dark.card).toEqual(['rgb(17, 24, 39)', '12px']);
    expect(seen.light.pay).toEqual(['rgb(29, 78, 216)', '44px']);
    expect(seen.dark.pay).toEqual(['rgb(147, 197, 253)', '44px']);
  });

  it('failed: the sentence and Try again, axe clean, colour contrast included, light and dark', async () => {
    const page = await mounted(`${server.url}/missing/Service-1.0.0.min.js`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'We couldn’t load the payment options.' })
      .waitFor();
    const seen = await inBothSchemes(page, async () => ({
      violations: await axeViolations(page),
      alert: await style(page, '[role="alert"]', 'color'),
    }));
    expect(seen.light.violations).toEqual([]);
    expect(seen.dark.violations).toEqual([]);
    expect(seen.light.alert).toEqual(['rgb(185, 28, 28)']);
    expect(seen.dark.alert).toEqual(['rgb(252, 165, 165)']);
  });

  it('gives Try again a target of 44px and a focus ring a keyboard user sees', async () => {
    const page = await mounted(`${server.url}/missing/Service-1.0.0.min.js`);
    const retry = page.getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    const box = (await retry.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    await expect.poll(() => style(page, 'button', 'outline-style')).toEqual(['none']);
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Try again');
    const [outline, width, color] = await style(
      page,
      'button',
      'outline-style',
      'outline-width',
      'outline-color',
    );
    expect([outline, width, color]).toEqual(['solid', '3px', 'rgb(29, 78, 216)']);
  });

  it('lets the waiting Pay button breathe only for shoppers who have not asked for less motion', async () => {
    const page = await loading();
    const pay = page.getByRole('button', { name: 'Pay £12.50', disabled: true });
    await pay.waitFor();
    const animations = () => pay.evaluate((button) => button.getAnimations().length);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animations()).toBe(0);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await animations()).toBe(1);
  });

  it.each([
    ['with it, the service’s component takes its place and nothing below moves', STYLESHEET, 0],
    ['without it (the control), the page below moves', '', 1],
  ])('%s', async (_, head, moves) => {
    // The script is held until the placeholder has been measured, as a slow network holds it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.page({ head, below: BELOW });
    page = await browser.newPage();
    await page.route(script, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/page`);
    await page.waitForFunction(() => 'harness' in window);
    await page.evaluate(
      (props) =>
        (window as unknown as { harness: { mount(p: object): void } }).harness.mount(props),
      { scriptSrc: script, ...PROPS },
    );
    await page.getByRole('button', { name: 'Pay £12.50', disabled: true }).waitFor();
    const below = page.locator('#below');
    const before = (await below.boundingBox())!.y;
    release();
    await page.locator('[data-servicepay-hosted="ready"] .service-root').waitFor();
    await page.getByRole('button', { name: 'Pay £12.50', disabled: false }).waitFor();
    const after = (await below.boundingBox())!.y;
    const shift = Math.abs(after - before);
    if (moves) expect(shift).toBeGreaterThan(8);
    else expect(shift).toBeLessThan(1);
  });
});
