// The plain page's languages (issue 49, src/vanilla/locales.ts): `window.Service` and
// `ServiceResult` take `locale: 'cy'` (and 'en'), whose words the scripts carry themselves, or a
// catalogue object; the extras (the handoff panel) speak the component's language too. Run as
// the package ships them (the Preact build, ./support.ts).
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';
import { HANDOFF_MEDIA } from '../../src/core/index';
import type { PaymentStatus } from '../../src/core/index';
import type { ServiceOptions, ServiceResultOptions } from '../../src/vanilla/index';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { englishWordsIn } from '../helpers/shopper-text';
import { APP_ID, BANKS, fakeTransport } from '../react/support';
import { loadVanilla } from './support';
import type { VanillaModule } from './support';

const WAIT = { timeout: 10_000 };
const IDS = { paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', merchantPaymentId: 'order-1042' };
const NAMES = BANKS.map((bank) => bank.name);

let vanilla: VanillaModule;
beforeAll(async () => {
  vanilla = await loadVanilla();
}, 60_000);
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A page element to inject into. */
function element(id: string): HTMLElement {
  const div = document.createElement('div');
  div.id = id;
  document.body.append(div);
  return div;
}

function service(options: Partial<ServiceOptions>) {
  const instance = new vanilla.Service({
    environment: 'SANDBOX',
    applicationId: APP_ID,
    transport: fakeTransport(),
    openUrl: vi.fn(),
    ...options,
  });
  instance.createPayment({ amount: 1234.5, paymentReference: 'ORDER-1042' });
  const page = element('service-component');
  instance.injectComponent('service-component');
  return { instance, page };
}

describe('new Service({ locale })', () => {
  it.each(['cy', 'CY', 'cy-GB'])(
    '%s: the Pay step and the bank step in Welsh, marked',
    async (tag) => {
      const { page } = service({ locale: tag as 'cy' });
      const pay = await screen.findByRole('button', { name: 'Talu £1,234.50' });
      expect(page.querySelector('[data-state]')).toHaveAttribute('lang', 'cy');
      await userEvent.setup().click(pay);
      expect(await screen.findByRole('region', { name: cy.pay.chooseBank })).toBeVisible();
      await screen.findByRole('button', { name: 'Barclays' });
      expect(englishWordsIn(page, NAMES)).toEqual([]);
    },
  );

  it("'en' and no locale: English, marked en-GB", async () => {
    const { page } = service({ locale: 'en' });
    expect(await screen.findByRole('button', { name: 'Pay £1,234.50' })).toBeVisible();
    expect(page.querySelector('[data-state]')).toHaveAttribute('lang', 'en-GB');
  });

  it('a catalogue object, any language, taken whole', async () => {
    const fr = { ...en, lang: 'fr', pay: { ...en.pay, payLabel: 'Payer £' } };
    const { page } = service({ locale: fr });
    // French writes the amount its own way: a space between thousands, a decimal comma.
    const pay = await screen.findByRole('button', { name: /^Payer £1\s234,50$/ });
    expect(pay).toBeVisible();
    expect(page.querySelector('[data-state]')).toHaveAttribute('lang', 'fr');
  });

  it('a language it does not carry: English, and the console says what to pass', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    service({ locale: 'fr' as 'cy' });
    expect(await screen.findByRole('button', { name: 'Pay £1,234.50' })).toBeVisible();
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^servicepay: locale "fr" is not one this script carries/),
    );
  });

  it("the handoff panel, loaded with the extras, in the component's language", async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
    let status: PaymentStatus = 'PENDING';
    const fetch = vi.fn(async () => new Response(JSON.stringify({ status })));
    vi.stubGlobal('fetch', fetch);
    const { page } = service({ locale: 'cy', statusUrl: '/api/payments/status' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Talu £1,234.50' }));
    await user.click(await screen.findByRole('button', { name: 'Barclays' }));
    const panel = await screen.findByRole('region', { name: cy.handoff.handoffHeading }, WAIT);
    expect(panel).toHaveAttribute('lang', 'cy');
    expect(within(panel).getByRole('status')).toHaveTextContent(cy.handoff.handoffWaiting);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    status = 'COMPLETED';
    await screen.findByRole('heading', { name: cy.result.received }, WAIT);
    const url = defaultInitiatedPayment(1).authorisationUrl;
    expect(englishWordsIn(page, [...NAMES, url])).toEqual([]);
  });
});

describe('new ServiceResult({ locale })', { timeout: 30_000 }, () => {
  const result = (options: Partial<ServiceResultOptions>) => {
    const page = element('payment-result');
    const instance = new vanilla.ServiceResult({
      statusUrl: '/api/payments/status',
      payment: IDS,
      eventSource: false,
      ...options,
    });
    instance.injectComponent('payment-result');
    return page;
  };

  it("'cy': the result page in Welsh, marked", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ status: 'FAILED' })));
    const page = result({ locale: 'cy', fetch, onTryAgain: () => undefined });
    await screen.findByRole('heading', { name: cy.result.notCompleted }, WAIT);
    expect(screen.getByRole('button', { name: cy.result.tryAgain })).toBeVisible();
    expect(page.querySelector('[data-state]')).toHaveAttribute('lang', 'cy');
    expect(englishWordsIn(page)).toEqual([]);
  });

  it('a catalogue object, taken whole', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ status: 'COMPLETED' })));
    result({ locale: cy, fetch });
    expect(await screen.findByRole('heading', { name: cy.result.received }, WAIT)).toBeVisible();
  });
});
