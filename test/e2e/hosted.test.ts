// @vitest-environment node
// servicepay/hosted in a real headless Chromium, against the recording implementation of
// window.Service (test/e2e/hosted/recording-service.js): the <script> tags, the requests and
// the injected components counted in the page, every call the wrapper made read back in order.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServicePay, loadService } from '../../src/hosted/index';
import type { HostedServicePayHandle } from '../../src/hosted/index';
import { launchHosted } from './hosted/support';
import type { HostedServer, PageOptions } from './hosted/support';

const APP = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const PAYMENT = { amount: 12.5, paymentReference: 'Order 1042' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let browser: Browser;
let server: HostedServer;
let page: Page;
let failures: string[];
/** The page's development warnings. */
let warnings: string[];
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ browser, server, stop } = await launchHosted());
});
afterAll(() => stop?.());
/** Requests per script address in this test's page. */
let scripts = new Map<string, number>();
/** How many attempts this test makes to load one address (a retry is a new attempt). */
let attempts: number;
afterEach(async () => {
  await page?.close();
  // Every test: one request per address and attempt, never a silent loop.
  for (const [url, count] of scripts) expect(count, url).toBeLessThanOrEqual(attempts);
  scripts = new Map();
});

type Recorded = [number, string, ...unknown[]];
interface Harness {
  log: unknown[][];
  mount(props: object, options?: { strict?: boolean; count?: number }): void;
  hydrate(props: object): void;
  update(props: object): void;
  unmount(): void;
  handle(i?: number): HostedServicePayHandle;
  status(src: string): void;
  loadService(src: string, options?: object): Promise<unknown>;
}
interface TestWindow {
  harness: Harness;
  recorded: Recorded[];
  recordingInstances: { emit(event: string): void; fail(error: object): void }[];
}

async function open(options: PageOptions = {}) {
  server.page(options);
  page = await browser.newPage();
  failures = [];
  warnings = [];
  scripts = new Map();
  attempts = 1;
  page.on('request', (r) => {
    if (r.url().endsWith('.min.js')) scripts.set(r.url(), (scripts.get(r.url()) ?? 0) + 1);
  });
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('console', (msg) => msg.type() === 'error' && failures.push(msg.text()));
  page.on('console', (msg) => msg.type() === 'warning' && warnings.push(msg.text()));
  await page.goto(`${server.url}/page`);
  await page.waitForFunction(() => 'harness' in window);
}

/** Runs `fn` in the page with the harness and the recording. */
const inPage = <T, A = undefined>(fn: (w: TestWindow, arg: A) => T, arg?: A) =>
  page.evaluate(
    ([source, a]) => new Function('w', 'a', `return (${source})(w, a)`)(window, a) as T,
    [fn.toString(), arg] as const,
  );
const recorded = () => inPage((w) => w.recorded ?? []);
const log = () => inPage((w) => w.harness.log);
const mount = (props: object, options?: { strict?: boolean; count?: number }) =>
  inPage((w, a) => w.harness.mount(a.props, a.options), { props, options });
const update = (props: object) => inPage((w, p) => w.harness.update(p), props);
/** The service's component, injected: how many are in the page. */
const injected = () => page.locator('[data-recording]').count();
const ready = (n = 1) =>
  page.waitForFunction((count) => document.querySelectorAll('[data-recording]').length == count, n);
const scriptTags = (src: string) =>
  page.evaluate((s) => [...document.scripts].filter((x) => x.src == s).length, src);
const props = (src: string, more: object = {}) => ({
  scriptSrc: src,
  environment: 'SANDBOX',
  applicationId: APP,
  payment: PAYMENT,
  ...more,
});

describe('loadService', () => {
  it('on a server: rejects with a clear error, touching no window (nor on import)', async () => {
    expect(typeof window).toBe('undefined');
    await expect(loadService('https://scripts.service.test/Service-0.9.3.min.js')).rejects.toThrow(
      "servicepay: could not load the service's script from https://scripts.service.test/Service-0.9.3.min.js: loadService runs in a browser, not on a server",
    );
  });

  it('puts one <script> in the page per address, and resolves with the constructor', async () => {
    await open();
    const src = server.recording('Service-one.min.js');
    const names = await inPage(
      (w, s) =>
        Promise.all([w.harness.loadService(s), w.harness.loadService(s)]).then((all) =>
          all.map((c) => (c as { name: string }).name),
        ),
      src,
    );
    expect(names).toEqual(['RecordingService', 'RecordingService']);
    await mount(props(src), { strict: true, count: 3 });
    await ready(3);
    expect(await scriptTags(src)).toBe(1);
    expect(server.requests('/recording/Service-one.min.js')).toBe(1);
  });

  it('rejects a script that defines no constructor at its load event, and tries again later', async () => {
    await open();
    const src = `${server.url}/none/Service-1.0.0.min.js`;
    const load = () =>
      inPage((w, s) => w.harness.loadService(s).then(String, (e: Error) => e.message), src);
    const message = `servicepay: could not load the service's script from ${src}: it loaded but defined no window.Service constructor: check the address (the versioned Service-<version>.min.js from the service's onboarding) and globalName`;
    expect(await load()).toBe(message);
    expect(await scriptTags(src)).toBe(0);
    // Not memoised: a fresh tag, a second request.
    attempts = 2;
    expect(await load()).toBe(message);
    expect(server.requests('/none/Service-1.0.0.min.js')).toBe(2);
  });

  it('refuses no address without a request', async () => {
    await open();
    const message = await inPage((w) =>
      w.harness.loadService(undefined as unknown as string).then(String, (e: Error) => e.message),
    );
    expect(message).toBe(
      "servicepay: could not load the service's script from undefined: no address: pass the versioned Service-<version>.min.js address from the service's onboarding",
    );
    expect(await page.evaluate(() => document.scripts.length)).toBe(1);
  });

  it('gives up after timeoutMs and removes its tag', async () => {
    await open();
    const src = `${server.url}/hang/Service-1.0.0.min.js`;
    const message = await inPage(
      (w, s) => w.harness.loadService(s, { timeoutMs: 300 }).then(String, (e: Error) => e.message),
      src,
    );
    expect(message).toBe(
      `servicepay: could not load the service's script from ${src}: no answer within 300 ms: check the address and the network`,
    );
    expect(await scriptTags(src)).toBe(0);
  });

  it('names the page CSP when it blocks the script, and loads with the nonce', async () => {
    await open({ cspNonce: 'n0nce' });
    const src = server.recording('Service-csp.min.js');
    const load = (nonce?: string) =>
      inPage(
        (w, a) =>
          w.harness.loadService(a.src, { nonce: a.nonce }).then(
            () => 'ready',
            (e: Error) => e.message,
          ),
        { src, nonce },
      );
    expect(await load()).toBe(
      `servicepay: could not load the service's script from ${src}: blocked by the page's Content-Security-Policy (script-src-elem): allow it there`,
    );
    attempts = 2;
    expect(await load('n0nce')).toBe('ready');
  });

  it('checks integrity (crossorigin="anonymous") and reports a mismatch', async () => {
    await open();
    const src = server.recording('Service-sri.min.js');
    const body = await (await fetch(src)).text();
    const good = `sha384-${createHash('sha384').update(body).digest('base64')}`;
    const bad = `sha384-${createHash('sha384').update('other').digest('base64')}`;
    const load = (integrity: string) =>
      inPage(
        (w, a) =>
          w.harness.loadService(a.src, { integrity: a.integrity }).then(
            () => 'ready',
            (e: Error) => e.message,
          ),
        { src, integrity },
      );
    attempts = 2;
    expect(await load(bad)).toBe(
      `servicepay: could not load the service's script from ${src}: its content did not match integrity (${bad}): the file at this address is not the one the hash was made for; check that the hash is this version's`,
    );
    expect(await load(good)).toBe('ready');
    const tag = await page.evaluate(
      (s) =>
        [...document.scripts].filter((x) => x.src == s).map((x) => [x.integrity, x.crossOrigin]),
      src,
    );
    expect(tag).toEqual([[good, 'anonymous']]);
  });

  /** loadService in the page: `ready`, or the rejection's message. */
  const loadIn = (src: string, options: object = {}) =>
    inPage(
      (w, a) =>
        w.harness.loadService(a.src, a.options).then(
          () => 'ready',
          (e: Error) => e.message,
        ),
      { src, options },
    );
  const hashOf = async (src: string) =>
    `sha384-${createHash('sha384')
      .update(await (await fetch(src)).text())
      .digest('base64')}`;

  it('never lets a load without integrity satisfy a call with one (issue 46): refused, saying so', async () => {
    await open();
    const src = server.recording('Service-unpinned.min.js');
    const good = await hashOf(src);
    const bad = `sha384-${createHash('sha384').update('other').digest('base64')}`;
    const refusal = (integrity: string) =>
      `servicepay: could not load the service's script from ${src}: it is already loaded (or loading) without integrity, so ${integrity} cannot be checked: give integrity to every load of this address (loadService, useServiceScript, <ServicePay>), the first one included`;
    // While the unchecked load is pending, and once it is done.
    const [first, pending] = await Promise.all([loadIn(src), loadIn(src, { integrity: bad })]);
    expect([first, pending]).toEqual(['ready', refusal(bad)]);
    expect(await loadIn(src, { integrity: bad })).toBe(refusal(bad));
    expect(await loadIn(src, { integrity: good })).toBe(refusal(good));
    // <ServicePay integrity> after it: told at fetchInstitutions, nothing injected.
    await mount(props(src, { integrity: good }));
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await log()).toEqual([['error', 0, 1, 'fetchInstitutions', refusal(good)]]);
    expect(await injected()).toBe(0);
    // One tag, one request from the page (afterEach counts them).
    expect(await scriptTags(src)).toBe(1);
  });

  it('shares a load made with integrity with a call without one, and refuses another hash', async () => {
    await open();
    const src = server.recording('Service-pinned.min.js');
    const good = await hashOf(src);
    const other = `sha384-${createHash('sha384').update('other').digest('base64')}`;
    expect(await loadIn(src, { integrity: good })).toBe('ready');
    expect(await loadIn(src)).toBe('ready');
    expect(await loadIn(src, { integrity: good })).toBe('ready');
    expect(await loadIn(src, { integrity: other })).toBe(
      `servicepay: could not load the service's script from ${src}: it is already loaded (or loading) with another integrity (${good}), not ${other}: give every load of this address the same integrity`,
    );
    expect(await scriptTags(src)).toBe(1);
  });

  it('refuses a globalName that is not an identifier or that the window already has from the browser, without a request', async () => {
    await open();
    const src = server.recording('Service-names.min.js');
    for (const globalName of [
      'constructor',
      'toString',
      '__proto__',
      'Window',
      'Array',
      'alert',
      'a-b',
      '',
    ]) {
      expect(await loadIn(src, { globalName })).toBe(
        `servicepay: could not load the service's script from ${src}: globalName ${JSON.stringify(globalName)} is not a name the script can define its constructor under: give the identifier it uses (a white-label build's), or leave globalName out for 'Service'`,
      );
    }
    expect(server.requests('/recording/Service-names.min.js')).toBe(0);
  });

  it('reads its options from their own properties only: a polluted Object.prototype is not inherited (issue 46)', async () => {
    await open();
    const src = server.recording('Service-polluted.min.js');
    const hooked = server.recording('Service-polluted-hook.min.js');
    // As a prototype pollution leaves it: enumerable. (Given a ref, React copies a forwardRef
    // component's props with for…in, inherited ones included, so a <ServicePay> with a ref gets
    // them as if given, and its checks refuse them; the harness always passes one.)
    await inPage(() => {
      Object.assign(Object.prototype, { integrity: 'sha384-polluted', globalName: 'constructor' });
    });
    try {
      expect(await loadIn(src)).toBe('ready');
      await inPage((w, s) => w.harness.status(s), hooked);
      await page.getByText('script: ready').waitFor();
    } finally {
      await inPage(() => {
        const prototype = Object.prototype as Record<string, unknown>;
        delete prototype.integrity;
        delete prototype.globalName;
      });
    }
    const tags = await page.evaluate(
      (all) => [...document.scripts].filter((x) => all.includes(x.src)).map((x) => x.integrity),
      [src, hooked],
    );
    expect(tags).toEqual(['', '']);
  });

  it('tells a host that does not answer, a 404, a CORS refusal and a content that fails integrity apart, where the browser lets it (issue 47)', async () => {
    await open();
    const at = (path: string, origin = server.url) => `${origin}${path}`;
    // Another origin, the same server: the page's 127.0.0.1 is not localhost to the browser.
    const other = server.url.replace('127.0.0.1', 'localhost');
    const closed = await new Promise<string>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(`http://127.0.0.1:${port}`));
      });
    });
    const good = await hashOf(server.recording('Service-told.min.js'));
    const failure = (src: string, cause: string) =>
      `servicepay: could not load the service's script from ${src}: ${cause}`;
    const notAnswered =
      "the script host did not answer, or answered an error status (the browser hides which from the page for another origin's script loaded without integrity): check the address and that the host is up";
    const notAnsweredOrCors =
      'the script host did not answer, or refused the CORS request that integrity needs (no Access-Control-Allow-Origin): check the address, that the host is up, and its CORS headers';
    const cases: [src: string, integrity: string | undefined, cause: string][] = [
      // A stopped script host.
      [at('/Service-1.0.0.min.js', closed), undefined, notAnswered],
      [at('/Service-1.0.0.min.js', closed), good, notAnsweredOrCors],
      // A 404 that the page may read (its own origin, or a CORS request: with integrity).
      [
        at('/missing/Service-1.0.0.min.js'),
        undefined,
        "the script host answered 404: check the address (the versioned Service-<version>.min.js from the service's onboarding)",
      ],
      // A 404 at another origin without integrity: hidden from the page, so both are named.
      [at('/missing/Service-1.0.0.min.js', other), undefined, notAnswered],
      // With integrity at another origin that sends no CORS headers: refused before any status.
      [at('/recording/Service-told.min.js', other), good, notAnsweredOrCors],
    ];
    attempts = 2;
    for (const [src, integrity, cause] of cases) {
      expect(await loadIn(src, integrity ? { integrity } : {}), src).toBe(failure(src, cause));
    }
  });

  it('reads a white-label build’s constructor under globalName', async () => {
    await open();
    const src = server.recording('Acme-1.0.0.min.js', 'AcmePay');
    await mount(props(src, { globalName: 'AcmePay' }));
    await ready();
    expect(await inPage((w) => typeof (w as unknown as { Service?: unknown }).Service)).toBe(
      'undefined',
    );
  });
});

describe('<ServicePay> of servicepay/hosted', () => {
  it('hands the options to new Service under the spec names, then createPayment, then injectComponent into an empty element', async () => {
    await open();
    const src = server.recording('Service-options.min.js');
    const options = {
      title: 'Pay for your order',
      label: 'Secure',
      payLabel: 'Send £',
      isWebView: true,
      agentType: 'MOBILE_APPLICATION',
      disableVolumeStyling: true,
      disableTailwindStyling: true,
      disablePayButton: true,
    };
    await mount(props(src, options));
    await ready();
    const calls = await recorded();
    expect(calls.map(([n, name]) => `${n} ${name}`)).toEqual([
      '1 new',
      '1 createPayment',
      '1 injectComponent',
    ]);
    expect(calls[0]![2]).toEqual({
      environment: 'SANDBOX',
      applicationId: APP,
      ...options,
      eventConsumer: 'function',
      errorConsumer: 'function',
    });
    const [, , args] = calls[1]!;
    expect(args).toMatchObject(PAYMENT);
    expect((args as { merchantPaymentId: string }).merchantPaymentId).toMatch(UUID);
    // Its own element, emptied before the injection.
    const [, , id, children] = calls[2]!;
    expect(children).toBe(0);
    expect(await page.locator(`#${id as string} [data-recording]`).count()).toBe(1);
    await expect(page.getByRole('button', { name: 'Send £12.50' }).isDisabled()).resolves.toBe(
      true,
    );
  });

  it('keeps exactly one component per mounted <ServicePay>: StrictMode, re-renders, prop changes, a fast remount', async () => {
    await open();
    const src = server.recording('Service-one-each.min.js');
    await mount(props(src), { strict: true, count: 2 });
    await ready(2);
    await update(props(src));
    await update(props(src, { title: 'Changed' }));
    await ready(2);
    expect(await injected()).toBe(2);
    expect(await page.getByText('Changed').count()).toBe(2);
    await inPage((w, p) => {
      w.harness.unmount();
      w.harness.mount(p, { strict: true, count: 2 });
    }, props(src));
    await ready(2);
    expect(await injected()).toBe(2);
    expect(await scriptTags(src)).toBe(1);
    expect(server.requests('/recording/Service-one-each.min.js')).toBe(1);
  });

  it('sends a changed payment again, toggles the button, and makes a fresh instance for a changed environment', async () => {
    await open();
    const src = server.recording('Service-changes.min.js');
    await mount(props(src));
    await ready();
    const before = (await recorded()).length;
    // The same content in a new object: nothing.
    await update(props(src, { payment: { ...PAYMENT } }));
    await update(props(src, { payment: { ...PAYMENT, amount: 20 } }));
    await update(props(src, { payment: { ...PAYMENT, amount: 20 }, disablePayButton: true }));
    await update(
      props(src, {
        payment: { ...PAYMENT, amount: 20 },
        environment: 'LIVE',
        disablePayButton: true,
      }),
    );
    await ready();
    const calls = (await recorded()).slice(before);
    expect(
      calls.map(([n, name, arg]) => [n, name, (arg as { amount?: number })?.amount ?? arg]),
    ).toEqual([
      [1, 'createPayment', 20],
      [1, 'toggleButton', false],
      [2, 'new', expect.objectContaining({ environment: 'LIVE', disablePayButton: true })],
      [2, 'createPayment', 20],
      [2, 'injectComponent', expect.any(String)],
    ]);
    expect(await injected()).toBe(1);
  });

  it('reaches new inline callbacks without a new instance, and the old instance reaches none after unmount', async () => {
    await open();
    const src = server.recording('Service-callbacks.min.js');
    await mount(props(src));
    await ready();
    await update(props(src));
    await update(props(src));
    await inPage((w) => {
      w.recordingInstances.at(-1)!.emit('institutions_fetched');
      w.recordingInstances.at(-1)!.fail({ location: 'fetchInstitutions', error: 'down' });
    });
    expect((await log()).slice(-2)).toEqual([
      ['event', 0, 3, 'institutions_fetched'],
      ['error', 0, 3, 'fetchInstitutions', 'down'],
    ]);
    expect((await recorded()).filter(([, name]) => name == 'new')).toHaveLength(1);
    const count = (await log()).length;
    await inPage((w) => w.harness.unmount());
    expect(await page.locator('#root').innerHTML()).toBe('');
    await inPage((w) => {
      w.recordingInstances.at(-1)!.emit('institutions_fetched');
      w.recordingInstances.at(-1)!.fail({ location: 'fetchInstitutions', error: 'late' });
    });
    expect(await log()).toHaveLength(count);
  });

  it('applies handle calls made before the script is ready, in order, once it is', async () => {
    await open();
    const src = server.recording('Service-early.min.js');
    await inPage(
      (w, p) => {
        w.harness.mount(p);
        const handle = w.harness.handle();
        handle.createPayment({ amount: 30, paymentReference: 'Early' });
        handle.toggleButton(false);
        handle.openInstitutionSelection();
        handle.payWithInstitution('ob-barclays');
      },
      props(src, { payment: undefined }),
    );
    await ready();
    const calls = (await recorded()).map(([, name, arg]) => [
      name,
      (arg as { amount?: number })?.amount ?? arg,
    ]);
    expect(calls).toEqual([
      ['new', expect.anything()],
      ['createPayment', 30],
      ['injectComponent', expect.any(String)],
      ['toggleButton', false],
      ['openInstitutionSelection', undefined],
      ['payWithInstitution', 'ob-barclays'],
      // Spec 4.4 rule 4: the next payment's new id.
      ['createPayment', 30],
    ]);
  });

  it('renews the merchantPaymentId once per payment_initiated and tells onPaymentInitiated the id used', async () => {
    await open();
    const src = server.recording('Service-ids.min.js');
    await mount(props(src, { payment: { ...PAYMENT, merchantPaymentId: 'order-1042' } }));
    await ready();
    await inPage((w) => w.harness.handle().payWithInstitution('ob-monzo'));
    await inPage((w) => w.harness.handle().payWithInstitution('ob-monzo'));
    const created = (await recorded())
      .filter(([, name]) => name == 'createPayment')
      .map(([, , args]) => (args as { merchantPaymentId: string }).merchantPaymentId);
    expect(created).toHaveLength(3);
    expect(created[0]).toBe('order-1042');
    expect(created[1]).toMatch(UUID);
    expect(created[2]).toMatch(UUID);
    expect(new Set(created).size).toBe(3);
    const entries = await log();
    expect(entries.filter(([kind]) => kind == 'initiated')).toEqual([
      ['initiated', 0, 'order-1042'],
      ['initiated', 0, created[1]],
    ]);
    expect(entries.filter(([kind]) => kind == 'event').map((e) => e[3])).toEqual([
      'mounted',
      'payment_initiated',
      'institution_selected',
      'awaiting_authorisation',
      'payment_initiated',
      'institution_selected',
      'awaiting_authorisation',
    ]);
  });

  it('replaces an id the generator gets wrong with a random one, and says so in development, as the session does', async () => {
    await open();
    const src = server.recording('Service-bad-id.min.js');
    await inPage((w, p) => {
      w.harness.mount({ ...p, generateMerchantPaymentId: () => '  ' });
    }, props(src));
    await ready();
    const [, , args] = (await recorded()).find(([, name]) => name == 'createPayment')!;
    expect((args as { merchantPaymentId: string }).merchantPaymentId).toMatch(UUID);
    expect(warnings).toContain(
      'servicepay: generateMerchantPaymentId gave "  ", which must be a non-blank string of at most 200 characters without control characters: a random id is used',
    );
    expect((await log()).filter(([kind]) => kind == 'error')).toEqual([]);
  });

  it('holds the Pay step’s place while the script loads', async () => {
    await open();
    await mount(props(`${server.url}/hang/Service-1.0.0.min.js`, { title: 'Pay for order 1042' }));
    await expect(page.getByText('Pay for order 1042').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Pay securely with your banking app').isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole('button', { name: 'Pay £12.50' }).isDisabled()).resolves.toBe(true);
  });

  it('says it could not load, with Try again that loads once more (one request per attempt)', async () => {
    await open();
    const src = `${server.url}/flaky/Service-1.0.0.min.js`;
    await mount(props(src));
    await page
      .getByText('We couldn’t load the payment options.')
      .or(page.getByText("We couldn't load the payment options."))
      .waitFor();
    expect(await log()).toEqual([
      [
        'error',
        0,
        1,
        'fetchInstitutions',
        `servicepay: could not load the service's script from ${src}: the script host answered 503: check the address (the versioned Service-<version>.min.js from the service's onboarding)`,
      ],
    ]);
    expect(server.requests('/flaky/Service-1.0.0.min.js')).toBe(1);
    attempts = 2;
    await page.getByRole('button', { name: 'Try again' }).click();
    await ready();
    expect(server.requests('/flaky/Service-1.0.0.min.js')).toBe(2);
    expect(await scriptTags(src)).toBe(1);
  });

  it('gives its loading state to the hook, with a retry', async () => {
    await open();
    const src = `${server.url}/flaky/Service-hook.min.js`;
    await inPage((w, s) => w.harness.status(s), src);
    await page.getByText('script: error').waitFor();
    attempts = 2;
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByText('script: ready').waitFor();
    expect(server.requests('/flaky/Service-hook.min.js')).toBe(2);
  });

  it('renders the placeholder on the server and hydrates it without a mismatch', async () => {
    const src = server.recording('Service-ssr.min.js');
    const p = props(src);
    const markup = renderToString(createElement(ServicePay, p as never));
    expect(markup).toContain('Pay with your banking app');
    // The service's element gets its id in the browser (issue 46): none the page could copy.
    expect(markup).not.toContain(' id=');
    await open({ markup });
    await inPage((w, q) => w.harness.hydrate(q), p);
    await ready();
    expect((await log()).filter(([kind]) => kind == 'hydration')).toEqual([]);
    expect(failures).toEqual([]);
  });
});
