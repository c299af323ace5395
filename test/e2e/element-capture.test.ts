// @vitest-environment node
// Issue 46, finding 1: HTML above the component that carries its element's id (a product
// review, a rendered name: sanitisers keep ids), wrapped in a link to another page. No script
// is needed: the service finds its element with getElementById, which returns the first. In a
// real headless Chromium, on the real window.Service: the standalone script as the sandbox's
// script host serves it, under servicepay/hosted and on a plain page.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SANDBOX_APPLICATION_ID } from '../../src/sandbox/index';
import { hostedOnSandbox } from './hosted/support';
import type { PageOptions } from './hosted/support';

const PAYMENT = { amount: 12.5, paymentReference: 'ORDER-1042' };
/** The page's content above the component: a link around an element with the id `id`. */
const trap = (id: string) =>
  `<section><h2>Reviews</h2><a href="/phish"><div id="${id}">Great shop!</div></a></section>`;

const hosted = hostedOnSandbox();
let page: Page;

const script = () => hosted.script;

async function open(options: PageOptions, before?: (page: Page) => Promise<unknown>) {
  hosted.server.page(options);
  page = hosted.page = await hosted.browser.newPage();
  await before?.(page);
  await page.goto(`${hosted.server.url}/page`);
}

/** Every button inside the page's link, by its text: none may be the service's. */
const buttonsInTheLink = () => page.locator('a[href="/phish"] button').allTextContents();

describe('servicepay/hosted', () => {
  const mount = async () => {
    await page.waitForFunction(() => 'harness' in window);
    await page.evaluate(
      (props) =>
        (window as unknown as { harness: { mount(p: object): void } }).harness.mount(props),
      {
        scriptSrc: script(),
        environment: 'SANDBOX',
        applicationId: SANDBOX_APPLICATION_ID,
        payment: PAYMENT,
      },
    );
  };
  const log = () =>
    page.evaluate(() => (window as unknown as { harness: { log: unknown[][] } }).harness.log);

  it('attaches to its own element only: the id React would have given it, planted above in a link, gets nothing', async () => {
    // The ids of the first components of a page under React's useId, as the wrapper once used them.
    const planted = ['servicepay_r_0_', 'servicepay_r_1_', 'servicepayr0', 'servicepay-r0'];
    await open({ above: planted.map(trap).join('') });
    await mount();
    const pay = page.getByRole('button', { name: 'Pay £12.50', disabled: false });
    await pay.waitFor();
    expect(await buttonsInTheLink()).toEqual([]);
    expect(await page.locator('#root').getByRole('button', { name: 'Pay £12.50' }).count()).toBe(1);
    // Its element's id is random, set in the browser.
    const own = await page.locator('#root [data-servicepay-hosted] > div[id]').getAttribute('id');
    expect(own).toMatch(
      /^servicepay-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    // The shopper's click opens the bank list here, not the link's page.
    await pay.click();
    await page.getByRole('button', { name: 'Barclays' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/page');
    expect((await log()).filter(([kind]) => kind == 'error')).toEqual([]);
  });

  it('refuses when the element its id finds is not the one it rendered, and tells errorConsumer', async () => {
    // An id the page could predict (here a random source that is not random): the check
    // through the element itself still refuses what it did not render.
    const uuid = '00000000-0000-4000-8000-000000000000';
    await open({ above: trap(`servicepay-${uuid}`) }, (p) =>
      p.addInitScript((fixed) => {
        crypto.randomUUID = () => fixed as `${string}-${string}-${string}-${string}-${string}`;
      }, uuid),
    );
    await mount();
    await page.waitForFunction(() =>
      (window as unknown as { harness: { log: unknown[][] } }).harness.log.some(
        ([kind]) => kind == 'error',
      ),
    );
    expect(await log()).toEqual([
      [
        'error',
        0,
        1,
        'fetchInstitutions',
        `servicepay: another element in the page has the id of <ServicePay>'s own element (servicepay-${uuid}), or that element is not in the document: the service's component is not injected, so that it cannot be drawn inside content it does not own`,
      ],
    ]);
    expect(await buttonsInTheLink()).toEqual([]);
    expect(await page.locator('a[href="/phish"]').textContent()).toBe('Great shop!');
    expect(await page.getByRole('button').count()).toBe(0);
  });
});

describe('the standalone window.Service', () => {
  it('refuses an id that content above carries too: the error thrown and errorConsumer told, no Pay button in the link', async () => {
    await open({
      head: `<script src="${script()}"></script>`,
      above: trap('pay'),
      markup: '<div id="pay"></div>',
    });
    const outcome = await page.evaluate((applicationId) => {
      const errors: unknown[] = [];
      const service = new window.Service({
        environment: 'SANDBOX',
        applicationId,
        errorConsumer: (error) => errors.push(error),
      });
      service.createPayment({ amount: 12.5, paymentReference: 'ORDER-1042' });
      try {
        service.injectComponent('pay');
        return { thrown: null, errors };
      } catch (error) {
        return {
          thrown: { name: (error as Error).name, message: (error as Error).message },
          errors,
        };
      }
    }, SANDBOX_APPLICATION_ID);
    const message =
      'servicepay: injectComponent found more than one element with id "pay": give your element an id that nothing else in the page has';
    expect(outcome).toEqual({
      thrown: { name: 'ServiceInjectionError', message },
      errors: [{ location: 'fetchInstitutions', error: message }],
    });
    expect(await buttonsInTheLink()).toEqual([]);
    expect(await page.getByRole('button').count()).toBe(0);
  });
});
