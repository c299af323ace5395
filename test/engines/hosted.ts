// servicepay/hosted in each engine, against the recording window.Service of the tests
// (test/e2e/hosted): the rules whose bugs are engine-sensitive (script loading and its
// events, effects and emptied elements), counted in the page: <script> tags, requests,
// injected components, and the calls the service's component received, in order. The whole
// set of rules runs in Chromium in test/e2e/hosted.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedServicePayHandle } from '../../src/hosted/index';
import { bundleHarness, startHostedServer } from '../e2e/hosted/support';
import type { HostedServer } from '../e2e/hosted/support';
import { missingEngine } from './support/engines';
import { DESKTOP, WAIT, script, waitFor } from './support/page';
import type { Engine, EngineName, EnginePage } from './support/page';

const PROPS = {
  environment: 'SANDBOX',
  applicationId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
};

interface Harness {
  mount(props: object, options?: object): void;
  update(props: object): void;
  unmount(): void;
  handle(): HostedServicePayHandle;
  log: unknown[][];
}
type PageWindow = Window & {
  harness: Harness;
  recorded?: unknown[][];
  recordingInstances: { emit(event: string): void }[];
};

const injected = (page: EnginePage) =>
  page.evaluate<number>(script(() => document.querySelectorAll('[data-recording]').length));
const tags = (page: EnginePage, src: string) =>
  page.evaluate<number>(
    script((s: string) => [...document.scripts].filter((x) => x.src == s).length, src),
  );
/** The calls the recording component received: `name` or `name:arg`. */
const calls = (page: EnginePage) =>
  page.evaluate<string[]>(
    script(() =>
      ((window as unknown as PageWindow).recorded ?? []).map(([n, name, arg]) =>
        [n, name, typeof arg == 'object' ? (arg as { amount?: number })?.amount : arg]
          .filter((x) => x !== undefined)
          .join(' '),
      ),
    ),
  );

export function hostedJourneys(name: EngineName, start: () => Promise<Engine>): void {
  describe.skipIf(missingEngine(name) !== null)(`servicepay/hosted in ${name}`, () => {
    let engine: Engine;
    let server: HostedServer;
    let page: EnginePage | undefined;
    beforeAll(async () => {
      const harness = await bundleHarness();
      [engine, server] = await Promise.all([start(), startHostedServer(harness)]);
    });
    afterAll(async () => {
      await page?.close();
      await engine?.stop();
      await server?.stop();
    });

    async function open(): Promise<EnginePage> {
      await page?.close();
      page = await engine.open(DESKTOP);
      await page.goto(`${server.url}/page`);
      await expect
        .poll(() => page!.evaluate<boolean>(script(() => 'harness' in window)), WAIT)
        .toBe(true);
      return page;
    }

    it('one script, one request, one component per <ServicePay>: StrictMode, re-renders, a changed title, a fast remount', async () => {
      const page = await open();
      const src = server.recording(`Service-${name}-one.min.js`);
      const props = { ...PROPS, scriptSrc: src };
      await page.evaluate(
        script(
          (p: object) =>
            (window as unknown as PageWindow).harness.mount(p, { strict: true, count: 2 }),
          props,
        ),
      );
      await expect.poll(() => injected(page), WAIT).toBe(2);
      await page.evaluate(
        script((p: object) => {
          const { harness } = window as unknown as PageWindow;
          harness.update(p);
          harness.update({ ...p, title: 'Changed' });
          harness.unmount();
          harness.mount({ ...p, title: 'Changed' }, { strict: true, count: 2 });
        }, props),
      );
      await expect.poll(() => injected(page), WAIT).toBe(2);
      // Give any stray second injection its chance before counting again.
      await waitFor(page, { role: 'button', name: 'Pay £12.50' });
      expect(await injected(page)).toBe(2);
      expect(await tags(page, src)).toBe(1);
      expect(server.requests(new URL(src).pathname)).toBe(1);
    });

    it('applies calls made before the script is ready in order, and renews the id once per initiation', async () => {
      const page = await open();
      const src = server.recording(`Service-${name}-early.min.js`);
      await page.evaluate(
        script(
          (p: object) => {
            const { harness } = window as unknown as PageWindow;
            harness.mount(p);
            const handle = harness.handle();
            handle.createPayment({ amount: 30, paymentReference: 'Early' });
            handle.toggleButton(false);
            handle.payWithInstitution('ob-barclays');
          },
          { ...PROPS, payment: undefined, scriptSrc: src },
        ),
      );
      await expect.poll(() => injected(page), WAIT).toBe(1);
      await expect
        .poll(() => calls(page), WAIT)
        .toEqual([
          '1 new',
          '1 createPayment 30',
          expect.stringMatching(/^1 injectComponent /),
          '1 toggleButton false',
          '1 payWithInstitution ob-barclays',
          '1 createPayment 30',
        ]);
    });

    it('after a failed load: plain words, and Try again loads it once more', async () => {
      const page = await open();
      const path = `/flaky/Service-${name}.min.js`;
      await page.evaluate(
        script((p: object) => (window as unknown as PageWindow).harness.mount(p), {
          ...PROPS,
          scriptSrc: `${server.url}${path}`,
        }),
      );
      await waitFor(page, { role: 'button', name: 'Try again' });
      expect(server.requests(path)).toBe(1);
      await page.click({ role: 'button', name: 'Try again' });
      await expect.poll(() => injected(page), WAIT).toBe(1);
      expect(server.requests(path)).toBe(2);
    });

    it('unmount empties the element, and the old component reaches no callback', async () => {
      const page = await open();
      const src = server.recording(`Service-${name}-gone.min.js`);
      await page.evaluate(
        script((p: object) => (window as unknown as PageWindow).harness.mount(p), {
          ...PROPS,
          scriptSrc: src,
        }),
      );
      await expect.poll(() => injected(page), WAIT).toBe(1);
      const after = await page.evaluate<[string, number, number]>(
        script(() => {
          const w = window as unknown as PageWindow;
          const before = w.harness.log.length;
          w.harness.unmount();
          w.recordingInstances.at(-1)!.emit('institutions_fetched');
          return [document.getElementById('root')!.innerHTML, before, w.harness.log.length];
        }),
      );
      expect(after[0]).toBe('');
      expect(after[2]).toBe(after[1]);
    });
  });
}
