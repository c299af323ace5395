// @vitest-environment node
// End to end in a real headless Chromium: the plain page of examples/script-tag, which loads
// the standalone script from the sandbox acting as the script host (spec 4.3) and uses
// window.Service as spec 4.4 shows, beside the React checkout on the same sandbox.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeMarkup } from '../helpers/markup';
import { approveAndReturn, axeViolations, shopPerTest, shot } from './support';
import type { Checkout, Sandbox } from './support';
import { WHOLE_PAYMENT } from '../helpers/events';

// The script is named by the component's version (package.json componentVersion).
const { componentVersion: version } = JSON.parse(
  await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
) as { componentVersion: string };
const dist = (file: string) => readFile(new URL(`../../dist/${file}`, import.meta.url), 'utf8');

const shop = shopPerTest();
let checkout: Checkout;
let sandbox: Sandbox;
let page: Page;
let failures: string[];
beforeEach(() => void ({ checkout, sandbox, page, failures } = shop));

const texts = (testId: string) => page.getByTestId(testId).locator('li').allTextContents();
const payButton = () => page.getByRole('button', { name: 'Pay £12.50' });

/**
 * Keeps the page where it is when the component sends the shopper to the bank: the bank page
 * answers 204, and a navigation answered 204 leaves the current document in place.
 */
const stayOffTheBank = (target: Page) =>
  target.route(
    (url) => url.href.startsWith(`${sandbox.url}/bank/`),
    (route) => route.fulfill({ status: 204 }),
  );

/**
 * Checks that `extended` is `plain` with one run of lines inserted, the rest the same line for
 * line, and returns that run. The React checkout turns on the component's extras (featured
 * banks, the remembered bank, the desktop handoff) and the plain page does not: the extras add
 * their own elements to the markup and change none of the rest.
 */
function inserted(plain: string, extended: string): string[] {
  const a = plain.split('\n');
  const b = extended.split('\n');
  let start = 0;
  while (start < a.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a.at(-1 - end) === b.at(-1 - end)) {
    end++;
  }
  // Shown as a diff if anything but the inserted run differs.
  expect([...b.slice(0, start), ...b.slice(b.length - end)].join('\n')).toEqual(plain);
  return b.slice(start, b.length - end);
}

/**
 * The example checkout's own lines in its events list: it logs the extras' callbacks there
 * too (onHandoffShown, onResult). They are not the component's events; the plain page, which
 * does not use the extras, has none.
 */
const extrasCallback = (line: string) => /^(?:onHandoffShown|onResult): /.test(line);

describe('the plain page with the script tag (examples/script-tag)', () => {
  it('loads the script from the sandbox as the script host, versioned and at the bare address', async () => {
    const versioned = `${sandbox.url}/js/Service-${version}.min.js`;
    await page.goto(checkout.scriptTagUrl);
    await payButton().waitFor();
    // The page's <script src> is the versioned address of spec 4.3, on the sandbox.
    const src = await page.evaluate(
      () => document.querySelector<HTMLScriptElement>('script[src*="/js/Service-"]')?.src,
    );
    expect(src).toBe(versioned);
    expect(await page.evaluate(() => typeof window.Service)).toBe('function');

    const built = await dist(`standalone/Service-${version}.min.js`);
    const response = await fetch(versioned);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toBe(built);
    for (const bare of [`${sandbox.url}/js`, `${sandbox.url}/js/`]) {
      const latest = await fetch(bare);
      expect(latest.headers.get('content-location')).toBe(`/js/Service-${version}.min.js`);
      expect(await latest.text()).toBe(built);
    }
    for (const css of ['Service-0.4.css', 'Service-tailwind-0.1.css']) {
      expect(await (await fetch(`${sandbox.url}/js/${css}`)).text()).toBe(await dist(`css/${css}`));
    }

    // The bare address in a browser: a page with only that script tag gets window.Service.
    const bare = await shop.browser.newPage();
    try {
      await bare.setContent(`<!doctype html><script src="${sandbox.url}/js"></script>`);
      expect(
        await bare.evaluate(() => [typeof window.Service, window.ServiceEvent.PAYMENT_INITIATED]),
      ).toEqual(['function', 'payment_initiated']);
    } finally {
      await bare.close();
    }
    expect(failures).toEqual([]);
  });

  it('takes a whole payment: COMPLETED, confirmed by the verified webhook, with the id the page showed', async () => {
    await page.goto(checkout.scriptTagUrl);
    await payButton().waitFor();
    await expect.poll(() => texts('events')).toEqual(['mounted', 'institutions_fetched']);
    const shownId = await page.getByTestId('merchant-payment-id').textContent();
    await shot(page, 'script-tag-1-page');
    await payButton().click();
    await page.getByRole('button', { name: 'Barclays' }).waitFor();
    await shot(page, 'script-tag-2-bank-list');
    await page.getByRole('button', { name: 'Barclays' }).click();
    await page.waitForURL(/\/bank\//);
    await expect.poll(() => page.getByText('ORDER-1042').count()).toBeGreaterThan(0);
    // The checkout's own result page: the status from the verified webhook only.
    await approveAndReturn(page);
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
    await shot(page, 'script-tag-3-result-completed');

    const stored = [...checkout.payments.values()];
    expect(stored).toEqual([
      expect.objectContaining({
        paymentStatus: 'COMPLETED',
        amount: 12.5,
        reference: 'ORDER-1042',
        merchantPaymentId: shownId,
        timesProcessed: 1,
      }),
    ]);
    // The payment names the order the shop's server made, which is now paid.
    const [order] = [...checkout.orders.values()];
    expect(order).toMatchObject({ amount: 12.5, reference: 'ORDER-1042', status: 'paid' });
    expect([...sandbox.payments.values()][0]).toMatchObject({
      institutionId: 'barclays',
      metadata: { orderId: order!.orderId },
      merchantPaymentId: shownId,
    });
    expect(failures).toEqual([]);
  });

  it('sends the same events in the same order, with the same markup, as the React checkout', async () => {
    const react = await shop.browser.newPage();
    try {
      const markups: Record<string, string[]> = {};
      const events: Record<string, string[]> = {};
      for (const [name, target, url] of [
        ['react', react, checkout.url],
        ['script-tag', page, checkout.scriptTagUrl],
      ] as const) {
        await stayOffTheBank(target);
        await target.goto(url);
        const root = target.locator('[role="group"][data-state]');
        const describe = async (state: string) => {
          await expect.poll(() => root.getAttribute('data-state')).toBe(state);
          return root.evaluate(describeMarkup);
        };
        const seen = () => target.getByTestId('events').locator('li').allTextContents();
        await expect.poll(seen).toEqual(['mounted', 'institutions_fetched']);
        markups[name] = [await describe('idle')];
        await target.getByRole('button', { name: 'Pay £12.50' }).click();
        // The full list: the React checkout lists its popular banks above it too.
        const barclays = target
          .getByRole('list', { name: 'Banks', exact: true })
          .getByRole('button', { name: 'Barclays' });
        await barclays.waitFor();
        markups[name].push(await describe('selecting'));
        await barclays.click();
        await expect.poll(seen).toContain('awaiting_authorisation');
        if (name === 'react') {
          // A desktop page: the React checkout hands off to the phone, the bank page unopened.
          await target.getByRole('region', { name: 'Scan with your phone' }).waitFor();
          await expect.poll(seen).toContain('onHandoffShown: Barclays');
        }
        markups[name].push(await describe('awaiting-authorisation'));
        events[name] = await seen();
      }
      expect(events['script-tag']).toEqual(WHOLE_PAYMENT);
      expect(events.react!.filter(extrasCallback)).toEqual(['onHandoffShown: Barclays']);
      expect(events.react!.filter((line) => !extrasCallback(line))).toEqual(events['script-tag']);
      // React 19 and Preact render the one component alike (generated ids aside), but for what
      // the React checkout's extras add: the same idle markup, and in the later states the
      // plain page's markup with one block inserted, the extras' own.
      const [idle, selecting, awaiting] = markups.react!;
      const plain = markups['script-tag']!;
      expect(idle).toEqual(plain[0]);
      const featured = inserted(plain[1]!, selecting!).join('\n');
      expect(featured).toContain('<ul aria-label="Popular banks"');
      expect(featured).toContain('"All banks"');
      expect(inserted(plain[2]!, awaiting!)[0]).toMatch(/^ *<section .*class="service-handoff /);
      expect(plain[1]).toContain('"Barclays"');
      expect(sandbox.payments.size).toBe(2);
    } finally {
      await react.close();
    }
  });

  it('toggleButton and payWithInstitution from page script; merchantPaymentId renewed on every payment_initiated', async () => {
    await page.goto(checkout.scriptTagUrl);
    await payButton().waitFor();
    const nextId = () => page.getByTestId('merchant-payment-id').textContent();

    await page.getByRole('button', { name: 'toggleButton(false)' }).click();
    await expect.poll(() => payButton().isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'toggleButton(true)' }).click();
    await expect.poll(() => payButton().isEnabled()).toBe(true);
    await expect
      .poll(() => texts('events'))
      .toEqual(['mounted', 'institutions_fetched', 'pay_button_disabled', 'pay_button_enabled']);

    // The first attempt fails at the service (503), so the page stays and shows its state.
    const first = await nextId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await page.route(`${sandbox.url}/v1/payments`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            headers: { 'Access-Control-Allow-Origin': new URL(checkout.url).origin },
            body: JSON.stringify({ error: 'The service is unavailable (test)' }),
          })
        : route.continue(),
    );
    await page.getByRole('button', { name: "payWithInstitution('monzo')" }).click();
    await expect
      .poll(() => texts('errors'))
      .toEqual(['payWithBankInstitution: The service is unavailable (test)']);
    const second = await nextId();
    expect(second).not.toBe(first);
    expect(await texts('used-ids')).toEqual([`${first} (monzo)`]);
    await shot(page, 'script-tag-4-page-script');
    await page.unroute(`${sandbox.url}/v1/payments`);

    // The second attempt goes through, with the renewed id, to Monzo's page.
    await page.getByRole('button', { name: "payWithInstitution('monzo')" }).click();
    await page.waitForURL(/\/bank\//);
    await approveAndReturn(page);
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
    expect([...sandbox.payments.values()]).toEqual([
      expect.objectContaining({ institutionId: 'monzo', merchantPaymentId: second }),
    ]);
    expect([...checkout.payments.values()]).toEqual([
      expect.objectContaining({ merchantPaymentId: second, paymentStatus: 'COMPLETED' }),
    ]);
    // The 503 was the test's own; nothing else went wrong.
    expect(failures.filter((f) => !/\b503\b|status of 503/.test(f))).toEqual([]);
  });

  it('the plain return page: window.ServiceResult from the script host finds the payment with no query string, under the strict CSP', async () => {
    await page.goto(checkout.scriptTagUrl);
    await payButton().click();
    await page.getByRole('button', { name: 'Barclays' }).click();
    await page.waitForURL(/\/bank\//);
    await approveAndReturn(page);
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();

    // The plain return page, as a bank app that returns with nothing appended would open it:
    // the ids window.Service saved in this tab find the payment.
    const streams: string[] = [];
    page.on('request', (r) => r.resourceType() === 'eventsource' && streams.push(r.url()));
    await page.goto(checkout.scriptTagReturnUrl);
    await page.getByRole('heading', { level: 1, name: 'Payment received' }).waitFor();
    expect(
      await page.evaluate(
        () => document.querySelector<HTMLScriptElement>('script[src*="Service-result-"]')?.src,
      ),
    ).toBe(`${sandbox.url}/js/Service-result-${version}.min.js`);
    expect(await page.locator('#payment-result').innerText()).toContain(
      'Your bank has confirmed your payment.',
    );
    const paymentId = [...checkout.payments.keys()][0]!;
    expect(streams.map((url) => new URL(url).searchParams.get('paymentId'))).toEqual([paymentId]);
    await shot(page, 'script-tag-5-return-page');
    // The injected stylesheet carried the page's nonce: no CSP report in the console.
    expect(failures).toEqual([]);

    const context = await shop.browser.newContext({ bypassCSP: true });
    try {
      const axePage = await context.newPage();
      await axePage.goto(checkout.scriptTagReturnUrl);
      await axePage
        .getByRole('heading', { level: 1, name: 'We can’t find your payment' })
        .waitFor();
      expect(await axeViolations(axePage)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has no axe violations, colour contrast included, idle and with the bank list open', async () => {
    // axe is injected by the test, so this context lets it past the page's strict CSP.
    const context = await shop.browser.newContext({ bypassCSP: true });
    const axePage = await context.newPage();
    const violations = () => axeViolations(axePage);
    try {
      await axePage.goto(checkout.scriptTagUrl);
      await axePage.getByRole('button', { name: 'Pay £12.50' }).waitFor();
      expect(await violations()).toEqual([]);
      await axePage.getByRole('button', { name: 'Pay £12.50' }).click();
      await axePage.getByRole('button', { name: 'Barclays' }).waitFor();
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
