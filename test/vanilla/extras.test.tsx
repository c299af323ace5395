// The bank step's newer features in the Service class (servicepay/vanilla), run as the package
// ships it (the Preact build, ./support.ts): unavailable banks, and the extras, which the class
// loads itself when its options ask for them (`statusUrl`, `rememberBank`,
// `featuredInstitutions`); a page passes no `extras`. The React side, in more detail, is in
// test/react/extras.test.tsx.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_HANDOFF_MESSAGES as H,
  DEFAULT_MESSAGES,
  HANDOFF_MEDIA,
  REMEMBERED_BANK_KEY,
} from '../../src/core/index';
import type { Institution } from '../../src/core/index';
import type { ServiceOptions } from '../../src/vanilla/index';
import { WHOLE_PAYMENT } from '../helpers/events';
import { createEventLog } from '../helpers/event-log';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { OPENED_IDS } from '../helpers/opened-ids';
import { APP_ID, BANKS, SEARCHABLE_BANKS, fakeTransport } from '../react/support';
import { loadVanilla } from './support';
import type { VanillaModule } from './support';

let vanilla: VanillaModule;
beforeAll(async () => {
  vanilla = await loadVanilla();
});

const PAYMENT = { amount: 12.5, paymentReference: 'ORDER-1042' };
const FIRST_PAYMENT = defaultInitiatedPayment(1);
const WITH_DOWN: Institution[] = [
  BANKS[0]!,
  { id: 'hsbc', name: 'HSBC UK', available: false },
  BANKS[2]!,
];

beforeEach(() => localStorage.clear());
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** A Service with a payment prepared, injected into a fresh page element. */
function inject(options: Partial<ServiceOptions> = {}, transport = fakeTransport()) {
  const log = createEventLog();
  const openUrl = vi.fn();
  const service = new vanilla.Service({
    environment: 'SANDBOX',
    applicationId: APP_ID,
    transport,
    eventConsumer: log.eventConsumer,
    errorConsumer: log.errorConsumer,
    openUrl,
    ...options,
  });
  service.createPayment(PAYMENT);
  const page = document.createElement('div');
  page.id = 'service-component';
  document.body.append(page);
  service.injectComponent('service-component');
  return { service, log, openUrl, transport, page, user: userEvent.setup() };
}

async function openStep(user: ReturnType<typeof inject>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
  return screen.findByRole('list', { name: DEFAULT_MESSAGES.banks });
}

const namesIn = (element: HTMLElement) =>
  within(element)
    .getAllByRole('button')
    .map((bank) => bank.querySelector('[title]')?.textContent);

describe('Service: unavailable banks', () => {
  it('shows one disabled with its reason; a click does nothing', async () => {
    const { user, log, openUrl, transport } = inject({}, fakeTransport(WITH_DOWN));
    const banks = await openStep(user);
    const [barclays, hsbc] = within(banks).getAllByRole('button');
    expect(hsbc).toBeDisabled();
    expect(hsbc).toHaveTextContent(`HSBC UK${DEFAULT_MESSAGES.bankUnavailable}`);
    expect(hsbc).toHaveAttribute('tabindex', '-1');
    expect(barclays).toHaveAttribute('tabindex', '0');
    log.clear();
    await user.click(hsbc!);
    expect(transport.paymentRequests).toEqual([]);
    expect(openUrl).not.toHaveBeenCalled();
    expect(log.entries).toEqual([]);
  });

  it('payWithInstitution refuses one, reporting it, with nothing sent and nothing opened', async () => {
    const { service, log, openUrl, transport } = inject({}, fakeTransport(WITH_DOWN));
    await waitFor(() => expect(log.events()).toContain('institutions_fetched'));
    log.clear();
    await service.payWithInstitution('hsbc');
    expect(log.errors()).toEqual([
      { location: 'payWithBankInstitution', error: 'servicepay: unavailable institution "hsbc"' },
    ]);
    expect(log.events()).toEqual([]);
    expect(transport.paymentRequests).toEqual([]);
    expect(openUrl).not.toHaveBeenCalled();
  });
});

describe('Service: the extras, loaded by the class itself', () => {
  it('featuredInstitutions: “Popular banks” above the full list, and they pay', async () => {
    const { user, openUrl, transport, log } = inject(
      { featuredInstitutions: ['hsbc', 'monzo', 'nope'] },
      fakeTransport(SEARCHABLE_BANKS),
    );
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const featured = await screen.findByRole('list', { name: H.featured });
    expect(namesIn(featured)).toEqual(['HSBC UK', 'Monzo']);
    expect(namesIn(screen.getByRole('list', { name: DEFAULT_MESSAGES.banks }))).toEqual(
      SEARCHABLE_BANKS.map((b) => b.name),
    );
    await user.click(within(featured).getByRole('button', { name: 'Monzo' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS),
    );
    expect(transport.paymentRequests).toEqual([
      expect.objectContaining({ institutionId: 'monzo' }),
    ]);
    expect(log.events()).toEqual(WHOLE_PAYMENT);
  });

  it('rememberBank: stores the bank paid with; the next Service offers it, and forgets it', async () => {
    const first = inject({ rememberBank: true });
    await openStep(first.user);
    await first.user.click(screen.getByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(first.openUrl).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBe('monzo'));
    first.service.destroy();
    document.body.replaceChildren();

    const { user } = inject({ rememberBank: true });
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const last = await screen.findByRole('list', { name: H.lastUsed });
    expect(namesIn(last)).toEqual(['Monzo']);
    await user.click(screen.getByRole('button', { name: H.forgetBank }));
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBeNull();
    await waitFor(() => expect(screen.queryByRole('list', { name: H.lastUsed })).toBeNull());
    expect(
      screen.getAllByRole('status').filter((s) => s.textContent === H.bankForgotten),
    ).toHaveLength(1);
    expect(screen.getByRole('heading', { name: DEFAULT_MESSAGES.chooseBank })).toHaveFocus();
  });

  it('statusUrl on a desktop: the handoff panel instead of opening the bank here', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
    const fetch = vi.fn(async () => new Response(JSON.stringify({ status: 'PENDING' })));
    vi.stubGlobal('fetch', fetch);
    const onHandoffShown = vi.fn();
    const { user, openUrl, log, transport } = inject({
      statusUrl: '/api/payments/status',
      onHandoffShown,
    });
    const banks = await openStep(user);
    await user.click(within(banks).getByRole('button', { name: 'Barclays' }));
    const region = await screen.findByRole('region', { name: H.handoffHeading });
    expect(await within(region).findByRole('img', { name: H.qrAlt('Barclays') })).toBeVisible();
    expect(within(region).getByText(FIRST_PAYMENT.authorisationUrl)).toBeVisible();
    expect(openUrl).not.toHaveBeenCalled();
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    const { merchantPaymentId } = transport.paymentRequests[0]!;
    await waitFor(() => expect(onHandoffShown).toHaveBeenCalled());
    expect(onHandoffShown.mock.calls).toEqual([
      [
        {
          url: FIRST_PAYMENT.authorisationUrl,
          paymentId: FIRST_PAYMENT.paymentId,
          merchantPaymentId,
          institution: expect.objectContaining({ id: 'barclays' }),
        },
      ],
    ]);
    await waitFor(() => expect(fetch).toHaveBeenCalled());

    await user.click(within(region).getByRole('button', { name: H.continueHere }));
    expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: H.handoffHeading })).toBeNull(),
    );
  });

  it('without those options, no extras: the bank opens here even on a desktop', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
    const { user, openUrl } = inject();
    const banks = await openStep(user);
    expect(screen.getAllByRole('list')).toEqual([banks]);
    await user.click(within(banks).getByRole('button', { name: 'Barclays' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS),
    );
    expect(localStorage.length).toBe(0);
  });
});
