// The bank step's newer features in jsdom, with React: unavailable banks (always on), and the
// opt-in extras of `servicepay/extras`: the remembered bank, the featured banks and the desktop
// handoff ("Scan with your phone"). The handoff panel itself (its code, its states, its words)
// is in ./handoff.test.tsx; here it is seen as a shopper meets it, through <ServicePay>.
// jsdom has no matchMedia and no EventSource: a test that needs a desktop says so (`desktop()`),
// and the panel polls the status endpoint through a stubbed global fetch.
import { StrictMode } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { extras } from 'servicepay/extras';
import {
  DEFAULT_HANDOFF_MESSAGES as H,
  DEFAULT_MESSAGES,
  DEFAULT_RESULT_MESSAGES as R,
  HANDOFF_MEDIA,
  REMEMBERED_BANK_KEY,
} from '../../src/core/index';
import type { Institution, PaymentStatus } from '../../src/core/index';
import { ServicePay } from '../../src/react/index';
import type { ServicePayProps } from '../../src/react/index';
import { WHOLE_PAYMENT } from '../helpers/events';
import { createEventLog } from '../helpers/event-log';
import { createFakeTransport, defaultInitiatedPayment } from '../helpers/fake-transport';
import { OPENED_IDS } from '../helpers/opened-ids';
import { renderServicePay } from './render';
import { RENDERERS } from '../helpers/renderers';
import type { MountOptions } from '../helpers/renderers';
import { APP_ID, BANKS, SEARCHABLE_BANKS, fakeTransport, reply } from './support';

const FIRST_PAYMENT = defaultInitiatedPayment(1);
const STATUS_URL = '/api/payments/status';
/** Polling asks at once, then after 1 s, 2 s, 4 s: room for a round or two on a busy machine. */
const WAIT = { timeout: 10_000 };

function setup(props: Partial<ServicePayProps> = {}, transport = fakeTransport()) {
  return { ...renderServicePay({ transport, ...props }), transport };
}

const payButton = () => screen.getByRole('button', { name: /^Pay\b/ });
const list = (name: string) => screen.getByRole('list', { name });
const namesIn = (element: HTMLElement) =>
  within(element)
    .getAllByRole('button')
    .map((bank) => bank.querySelector('[title]')?.textContent);
/** The accessible names of the step's lists, top to bottom. */
const lists = () =>
  screen.getAllByRole('list').map((l) => l.getAttribute('aria-label') ?? l.textContent);

/** Opens the step with Pay and waits for its banks. */
async function openStep(user: ReturnType<typeof setup>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
  return screen.findByRole('list', { name: DEFAULT_MESSAGES.banks });
}

/**
 * A desktop (a mouse, wide enough): `HANDOFF_MEDIA` matches, and nothing else does (so the
 * step is not a touch screen's either). jsdom has no matchMedia of its own.
 */
function desktop(matching: (query: string) => boolean = (query) => query === HANDOFF_MEDIA) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: matching(query), media: query }));
}

/**
 * The merchant's status endpoint, as the handoff panel polls it (jsdom has no EventSource):
 * a stubbed global fetch answering `status` for the status URL, nothing else.
 */
function statusEndpoint(initial: PaymentStatus = 'PENDING') {
  let status = initial;
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input));
    if (url.pathname !== STATUS_URL) return new Response('not here', { status: 404 });
    return new Response(JSON.stringify({ status }));
  });
  vi.stubGlobal('fetch', fetch);
  return {
    fetch,
    set: (next: PaymentStatus) => void (status = next),
    asked: () => fetch.mock.calls.map(([input]) => new URL(String(input))),
  };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** HSBC is down: the first bank of the list is, in `DOWN_FIRST`. */
const WITH_DOWN: Institution[] = [
  BANKS[0]!,
  { id: 'hsbc', name: 'HSBC UK', available: false },
  BANKS[2]!,
  { id: 'starling', name: 'Starling' },
];
const DOWN_FIRST: Institution[] = [{ id: 'tsb', name: 'TSB', available: false }, ...BANKS];

describe('unavailable banks', () => {
  it('only `available: false` is unavailable: any other value keeps the bank payable', async () => {
    const t = createFakeTransport();
    t.replyOnce(
      'fetchInstitutions',
      reply.untyped([
        { id: 'a', name: 'Bank A', available: true },
        { id: 'b', name: 'Bank B', available: 'false' },
        { id: 'c', name: 'Bank C', available: 0 },
        { id: 'd', name: 'Bank D', available: null },
        { id: 'e', name: 'Bank E', available: false },
      ]),
    );
    const { user } = setup({}, t);
    const banks = await openStep(user);
    expect(
      within(banks)
        .getAllByRole('button')
        .map((b) => [b.querySelector('[title]')?.textContent, (b as HTMLButtonElement).disabled]),
    ).toEqual([
      ['Bank A', false],
      ['Bank B', false],
      ['Bank C', false],
      ['Bank D', false],
      ['Bank E', true],
    ]);
  });

  it('the Tab stop is on the first bank that can be paid, which takes focus when the step opens', async () => {
    const { user } = setup({}, fakeTransport(DOWN_FIRST));
    const banks = await openStep(user);
    const [tsb, barclays] = within(banks).getAllByRole('button');
    expect(tsb).toBeDisabled();
    expect(tsb).toHaveAttribute('tabindex', '-1');
    expect(barclays).toHaveAttribute('tabindex', '0');
    await waitFor(() => expect(barclays).toHaveFocus());
    expect(
      within(banks)
        .getAllByRole('button')
        .filter((b) => b.tabIndex === 0),
    ).toEqual([barclays]);
  });

  it('arrow keys, Home and End skip them', async () => {
    const { user } = setup(
      {},
      fakeTransport([...DOWN_FIRST, { id: 'metro', name: 'Metro Bank', available: false }]),
    );
    await openStep(user);
    const bank = (name: string) => screen.getByRole('button', { name });
    await waitFor(() => expect(bank('Barclays')).toHaveFocus());
    // Left of the first payable bank is an unavailable one: focus stays.
    await user.keyboard('{ArrowLeft}');
    expect(bank('Barclays')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(bank('HSBC UK')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(bank('Monzo')).toHaveFocus();
    // Right of the last payable bank is an unavailable one: focus stays.
    await user.keyboard('{ArrowRight}');
    expect(bank('Monzo')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(bank('Barclays')).toHaveFocus();
    await user.keyboard('{End}');
    expect(bank('Monzo')).toHaveFocus();
    // The Tab stop followed focus, and never rested on an unavailable bank.
    expect(bank('Monzo')).toHaveAttribute('tabindex', '0');
    for (const down of screen
      .getAllByRole('button')
      .filter((b) => (b as HTMLButtonElement).disabled)) {
      expect(down).toHaveAttribute('tabindex', '-1');
    }
  });

  it('their reason is the merchant’s words when given (messages.bankUnavailable)', async () => {
    const { user } = setup(
      { messages: { bankUnavailable: 'Indisponible pour le moment' } },
      fakeTransport(WITH_DOWN),
    );
    const banks = await openStep(user);
    const hsbc = within(banks).getAllByRole('button')[1]!;
    expect(hsbc).toHaveTextContent('Indisponible pour le moment');
    expect(hsbc).not.toHaveTextContent(DEFAULT_MESSAGES.bankUnavailable);
  });
});

describe('extras: rememberBank', () => {
  it('a payment that was never opened is not remembered', async () => {
    const t = fakeTransport();
    t.replyOnce('initiatePayment', reply.fail('HTTP 502'));
    const { user, openUrl, log } = setup({ extras, rememberBank: true }, t);
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(log.errors()).toHaveLength(1));
    expect(openUrl).not.toHaveBeenCalled();
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBeNull();
  });

  it('pays with the remembered bank from its own list', async () => {
    localStorage.setItem(REMEMBERED_BANK_KEY, 'hsbc');
    const { user, transport, openUrl, log } = setup({ extras, rememberBank: true });
    await openStep(user);
    await user.click(within(list(H.lastUsed)).getByRole('button', { name: 'HSBC UK' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(transport.paymentRequests).toEqual([expect.objectContaining({ institutionId: 'hsbc' })]);
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBe('hsbc');
  });

  it('sits above the featured banks, which then leave it out', async () => {
    localStorage.setItem(REMEMBERED_BANK_KEY, 'hsbc');
    const { user } = setup({
      extras,
      rememberBank: true,
      featuredInstitutions: ['hsbc', 'monzo'],
    });
    await openStep(user);
    expect(lists()).toEqual([H.lastUsed, H.featured, DEFAULT_MESSAGES.banks]);
    expect(namesIn(list(H.lastUsed))).toEqual(['HSBC UK']);
    expect(namesIn(list(H.featured))).toEqual(['Monzo']);
  });

  it('a remembered bank that is no longer listed is quietly forgotten', async () => {
    localStorage.setItem(REMEMBERED_BANK_KEY, 'gone-bank');
    const { user, log, container } = setup({ extras, rememberBank: true });
    await openStep(user);
    await waitFor(() => expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBeNull());
    expect(lists()).toEqual([DEFAULT_MESSAGES.banks]);
    expect(screen.queryByRole('button', { name: H.forgetBank })).toBeNull();
    // Quietly: nothing said to the shopper, nothing reported to the merchant.
    expect(container).not.toHaveTextContent(H.bankForgotten);
    expect(log.errors()).toEqual([]);
  });

  it('without rememberBank nothing is stored, and nothing stored is shown', async () => {
    const { user, openUrl } = setup({ extras });
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(localStorage.length).toBe(0);

    // A bank stored by another page of the shop that does remember: left alone, not shown.
    localStorage.setItem(REMEMBERED_BANK_KEY, 'hsbc');
    const { user: again } = renderServicePay({ extras, transport: fakeTransport() });
    await again.click(screen.getAllByRole('button', { name: 'Pay £12.50' })[1]!);
    await screen.findAllByRole('list', { name: DEFAULT_MESSAGES.banks });
    expect(screen.queryByRole('list', { name: H.lastUsed })).toBeNull();
    expect(screen.queryByRole('button', { name: H.forgetBank })).toBeNull();
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBe('hsbc');
  });

  it('without the extras rememberBank does nothing', async () => {
    localStorage.setItem(REMEMBERED_BANK_KEY, 'hsbc');
    const { user, openUrl } = setup({ rememberBank: true });
    await openStep(user);
    expect(lists()).toEqual([DEFAULT_MESSAGES.banks]);
    await user.click(screen.getByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBe('hsbc');
  });
});

describe('extras: featuredInstitutions', () => {
  const FEATURED = ['hsbc', 'monzo', 'nope'];

  it('the search filters the full list only', async () => {
    const { user } = setup(
      { extras, featuredInstitutions: FEATURED },
      fakeTransport(SEARCHABLE_BANKS),
    );
    await openStep(user);
    // One search field, for the full list.
    const search = screen.getByRole('searchbox', { name: DEFAULT_MESSAGES.search });
    await user.click(search);
    await user.keyboard('natw');
    expect(namesIn(list(DEFAULT_MESSAGES.banks))).toEqual(['NatWest']);
    expect(namesIn(list(H.featured))).toEqual(['HSBC UK', 'Monzo']);
  });

  it('an unavailable featured bank is shown disabled there too', async () => {
    const { user } = setup(
      { extras, featuredInstitutions: ['hsbc', 'monzo'] },
      fakeTransport(WITH_DOWN),
    );
    await openStep(user);
    const [hsbc, monzo] = within(list(H.featured)).getAllByRole('button');
    expect(hsbc).toBeDisabled();
    expect(hsbc).toHaveTextContent(DEFAULT_MESSAGES.bankUnavailable);
    expect(monzo).toHaveAttribute('tabindex', '0');
  });

  it('without the extras, or with only unknown ids, there is no featured list', async () => {
    const { user } = setup({ featuredInstitutions: FEATURED });
    await openStep(user);
    expect(lists()).toEqual([DEFAULT_MESSAGES.banks]);
    await user.keyboard('{Escape}');

    const { user: again } = renderServicePay({
      extras,
      featuredInstitutions: ['nope', 'none'],
      transport: fakeTransport(),
    });
    await again.click(screen.getAllByRole('button', { name: 'Pay £12.50' })[1]!);
    await screen.findAllByRole('list', { name: DEFAULT_MESSAGES.banks });
    expect(screen.queryByRole('list', { name: H.featured })).toBeNull();
    expect(screen.queryByText(H.allBanks)).toBeNull();
  });
});

describe('extras: the desktop handoff', { timeout: 20_000 }, () => {
  const handoffProps = (more: Partial<ServicePayProps> = {}) => ({
    extras,
    statusUrl: STATUS_URL,
    ...more,
  });
  const panel = () => screen.queryByRole('region', { name: H.handoffHeading });

  // The panel, with the button that had focus, goes; the bank may open elsewhere (a new tab,
  // a WebView), so focus must not be left on nothing.
  it('after “Continue on this computer”, focus is on Pay, not on nothing', async () => {
    desktop();
    statusEndpoint();
    const { user, openUrl } = setup(handoffProps());
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'HSBC UK' }));
    await screen.findByRole('region', { name: H.handoffHeading });
    await user.click(screen.getByRole('button', { name: H.continueHere }));
    expect(openUrl).toHaveBeenCalledTimes(1);
    expect(payButton()).toHaveFocus();
  });

  it('Pay while the panel is shown opens the step again and leaves the handoff behind', async () => {
    desktop();
    const endpoint = statusEndpoint();
    const { user, transport, openUrl } = setup(handoffProps());
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'HSBC UK' }));
    await screen.findByRole('region', { name: H.handoffHeading });
    await user.click(payButton());
    const banks = await screen.findByRole('list', { name: DEFAULT_MESSAGES.banks });
    expect(panel()).toBeNull();
    await waitFor(() =>
      expect(within(banks).getByRole('button', { name: 'Barclays' })).toHaveFocus(),
    );
    // Another bank: another payment, handed off in its turn.
    await user.click(within(banks).getByRole('button', { name: 'Monzo' }));
    const region = await screen.findByRole('region', { name: H.handoffHeading });
    expect(within(region).getByText(defaultInitiatedPayment(2).authorisationUrl)).toBeVisible();
    expect(await within(region).findByRole('img', { name: H.qrAlt('Monzo') })).toBeVisible();
    expect(transport.paymentRequests.map((r) => r.institutionId)).toEqual(['hsbc', 'monzo']);
    expect(openUrl).not.toHaveBeenCalled();
    // The payment on screen is the one followed now.
    await waitFor(() =>
      expect(endpoint.asked().at(-1)!.searchParams.get('paymentId')).toBe(
        defaultInitiatedPayment(2).paymentId,
      ),
    );
  });

  it('COMPLETED at the status endpoint: “Payment received”, onResult once with the ids', async () => {
    desktop();
    const endpoint = statusEndpoint('PENDING');
    const onResult = vi.fn();
    const { user, transport } = setup(handoffProps({ onResult }));
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Barclays' }));
    await screen.findByRole('region', { name: H.handoffHeading });
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    expect(onResult).not.toHaveBeenCalled();
    endpoint.set('COMPLETED');
    const heading = await screen.findByRole('heading', { name: R.received }, WAIT);
    await waitFor(() => expect(heading).toHaveFocus());
    // The code is spent: gone, with the address and Continue on this computer.
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByText(FIRST_PAYMENT.authorisationUrl)).toBeNull();
    expect(screen.queryByRole('button', { name: H.continueHere })).toBeNull();
    const { merchantPaymentId } = transport.paymentRequests[0]!;
    expect(onResult.mock.calls).toEqual([
      [{ paymentId: FIRST_PAYMENT.paymentId, merchantPaymentId, status: 'COMPLETED' }],
    ]);
  });

  it('FAILED: Try again opens the bank step again, for another payment', async () => {
    desktop();
    statusEndpoint('FAILED');
    const onResult = vi.fn();
    const { user, transport, openUrl, log } = setup(handoffProps({ onResult }));
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Barclays' }));
    await screen.findByRole('heading', { name: R.notCompleted }, WAIT);
    const { merchantPaymentId } = transport.paymentRequests[0]!;
    expect(onResult.mock.calls).toEqual([
      [{ paymentId: FIRST_PAYMENT.paymentId, merchantPaymentId, status: 'FAILED' }],
    ]);
    log.clear();
    await user.click(screen.getByRole('button', { name: R.tryAgain }));
    const banks = await screen.findByRole('list', { name: DEFAULT_MESSAGES.banks });
    expect(namesIn(banks)).toEqual(['Barclays', 'HSBC UK', 'Monzo']);
    await waitFor(() =>
      expect(within(banks).getByRole('button', { name: 'Barclays' })).toHaveFocus(),
    );
    expect(panel()).toBeNull();
    expect(screen.queryByRole('heading', { name: R.notCompleted })).toBeNull();
    expect(payButton()).toHaveAttribute('aria-expanded', 'true');
    expect(log.events()).toEqual(['bank_selection_opened']);
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('with handoff={false}, the bank opens here as before', async () => {
    desktop();
    const endpoint = statusEndpoint();
    const onHandoffShown = vi.fn();
    const { user, openUrl, log } = setup(handoffProps({ handoff: false, onHandoffShown }));
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Barclays' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS),
    );
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    expect(panel()).toBeNull();
    expect(onHandoffShown).not.toHaveBeenCalled();
    expect(endpoint.fetch).not.toHaveBeenCalled();
  });

  it('on a phone (the desktop query does not match), the bank opens here', async () => {
    // A touch screen: coarse pointer, no hover.
    desktop((query) => query === '(pointer: coarse)');
    const endpoint = statusEndpoint();
    const { user, openUrl, log } = setup(handoffProps());
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await user.click(await screen.findByRole('button', { name: 'Barclays' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS),
    );
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    expect(panel()).toBeNull();
    expect(endpoint.fetch).not.toHaveBeenCalled();
  });

  it('without matchMedia at all (jsdom, old browsers), the bank opens here', async () => {
    const { user, openUrl } = setup(handoffProps());
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Barclays' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    expect(panel()).toBeNull();
  });

  it('without statusUrl, or without the extras, the bank opens here', async () => {
    desktop();
    const endpoint = statusEndpoint();
    const first = setup({ extras });
    await openStep(first.user);
    await first.user.click(screen.getByRole('button', { name: 'Barclays' }));
    await waitFor(() => expect(first.openUrl).toHaveBeenCalledTimes(1));
    expect(panel()).toBeNull();
    first.unmount();

    const second = setup({ statusUrl: STATUS_URL });
    await openStep(second.user);
    await second.user.click(screen.getByRole('button', { name: 'Barclays' }));
    await waitFor(() => expect(second.openUrl).toHaveBeenCalledTimes(1));
    expect(panel()).toBeNull();
    expect(endpoint.fetch).not.toHaveBeenCalled();
  });

  it('a handed-off payment is remembered too (rememberBank)', async () => {
    desktop();
    statusEndpoint();
    const { user, openUrl } = setup(handoffProps({ rememberBank: true }));
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Monzo' }));
    await screen.findByRole('region', { name: H.handoffHeading });
    expect(openUrl).not.toHaveBeenCalled();
    await waitFor(() => expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBe('monzo'));
  });

  /** <ServicePay> in StrictMode (effects run twice, as in a React app's development build). */
  async function handOffInStrictMode() {
    desktop();
    statusEndpoint();
    const log = createEventLog();
    const onHandoffShown = vi.fn();
    const openUrl = vi.fn();
    render(
      <StrictMode>
        <ServicePay
          environment="SANDBOX"
          applicationId={APP_ID}
          transport={fakeTransport()}
          payment={{ amount: 12.5, paymentReference: 'ORDER-1042' }}
          eventConsumer={log.eventConsumer}
          errorConsumer={log.errorConsumer}
          openUrl={openUrl}
          extras={extras}
          statusUrl={STATUS_URL}
          onHandoffShown={onHandoffShown}
        />
      </StrictMode>,
    );
    const user = userEvent.setup();
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Barclays' }));
    await screen.findByRole('region', { name: H.handoffHeading });
    await act(async () => {});
    return { log, onHandoffShown, openUrl };
  }

  it('under StrictMode: the handoff still replaces opening, awaiting_authorisation once', async () => {
    const { log, onHandoffShown, openUrl } = await handOffInStrictMode();
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    expect(openUrl).not.toHaveBeenCalled();
    expect(onHandoffShown).toHaveBeenCalledWith(
      expect.objectContaining({ url: FIRST_PAYMENT.authorisationUrl }),
    );
  });

  // StrictMode runs effects twice; the merchant hears of one handoff once (as of `mounted`
  // and onResult).
  it('under StrictMode: onHandoffShown once', async () => {
    const { onHandoffShown } = await handOffInStrictMode();
    expect(onHandoffShown).toHaveBeenCalledTimes(1);
  });
});

/**
 * What a shopper meets on both renderers (test/helpers/renderers.tsx): React's <ServicePay>,
 * given `extras`, and the Preact build window.Service ships, which loads the extras itself when
 * its options ask for them (the driver leaves `extras` out).
 */
describe.each(RENDERERS)('$name: unavailable banks and the extras', (renderer) => {
  beforeAll(() => renderer.prepare(), 60_000);
  async function setup(options: MountOptions = {}, transport = fakeTransport()) {
    return { ...(await renderer.mount({ transport, ...options })), transport };
  }
  const FEATURED = ['hsbc', 'monzo', 'nope'];
  const handoffProps = (more: MountOptions = {}) => ({ extras, statusUrl: STATUS_URL, ...more });
  const panel = () => screen.queryByRole('region', { name: H.handoffHeading });

  it('are shown as disabled buttons with their reason, the others as before', async () => {
    const { user } = await setup({}, fakeTransport(WITH_DOWN));
    const banks = await openStep(user);
    const buttons = within(banks).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Barclays',
      `HSBC UK${DEFAULT_MESSAGES.bankUnavailable}`,
      'Monzo',
      'Starling',
    ]);
    const hsbc = buttons[1]!;
    expect(hsbc).toBeDisabled();
    // The reason is part of its name, so a screen reader says why.
    expect(hsbc).toHaveAccessibleName(expect.stringContaining('HSBC UK'));
    expect(hsbc).toHaveAccessibleName(expect.stringContaining(DEFAULT_MESSAGES.bankUnavailable));
    expect(buttons.filter((b) => b !== hsbc).every((b) => !(b as HTMLButtonElement).disabled)).toBe(
      true,
    );
    // Out of the Tab order; the first bank that can be paid is the list's Tab stop.
    expect(hsbc).toHaveAttribute('tabindex', '-1');
    expect(buttons[0]).toHaveAttribute('tabindex', '0');
  });

  it('a click on one does nothing: nothing sent, nothing opened, nothing reported', async () => {
    const { user, log, openUrl, transport } = await setup({}, fakeTransport(WITH_DOWN));
    const banks = await openStep(user);
    log.clear();
    await user.click(within(banks).getAllByRole('button')[1]!);
    await act(async () => {});
    expect(transport.paymentRequests).toEqual([]);
    expect(openUrl).not.toHaveBeenCalled();
    expect(log.entries).toEqual([]);
    // The step stays open, for another bank.
    expect(list(DEFAULT_MESSAGES.banks)).toBeInTheDocument();
  });

  it('the handle refuses one, reporting it, with nothing sent and nothing opened', async () => {
    const { call, log, errorConsumer, openUrl, transport } = await setup(
      {},
      fakeTransport(WITH_DOWN),
    );
    await screen.findByRole('button', { name: 'Pay £12.50' });
    await waitFor(() => expect(log.events()).toContain('institutions_fetched'));
    log.clear();
    await call((h) => h.payWithInstitution('hsbc'));
    expect(errorConsumer).toHaveBeenLastCalledWith({
      location: 'payWithBankInstitution',
      error: 'servicepay: unavailable institution "hsbc"',
    });
    expect(log.errors()).toEqual([
      { location: 'payWithBankInstitution', error: 'servicepay: unavailable institution "hsbc"' },
    ]);
    // No payment started: no payment_initiated, no institution_selected.
    expect(log.events()).toEqual([]);
    expect(transport.paymentRequests).toEqual([]);
    expect(openUrl).not.toHaveBeenCalled();
    // The payable banks still pay from the handle.
    await call((h) => h.payWithInstitution('monzo'));
    expect(transport.paymentRequests).toEqual([
      expect.objectContaining({ institutionId: 'monzo' }),
    ]);
    expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS);
  });

  it('remembers the bank of a payment sent to the bank: its id, nothing else', async () => {
    const { user, openUrl } = await setup({ extras, rememberBank: true });
    await openStep(user);
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Monzo' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBe('monzo'));
    expect(Object.keys(localStorage)).toEqual([REMEMBERED_BANK_KEY]);
  });

  it('next time: “Last used” first, with a button that forgets it', async () => {
    localStorage.setItem(REMEMBERED_BANK_KEY, 'monzo');
    const { user } = await setup({ extras, rememberBank: true });
    const banks = await openStep(user);
    expect(lists()).toEqual([H.lastUsed, DEFAULT_MESSAGES.banks]);
    const last = list(H.lastUsed);
    expect(namesIn(last)).toEqual(['Monzo']);
    // The full list still has every bank, Monzo included.
    expect(namesIn(banks)).toEqual(['Barclays', 'HSBC UK', 'Monzo']);
    // Above everything in the step, so it is where focus lands.
    await waitFor(() => expect(within(last).getByRole('button', { name: 'Monzo' })).toHaveFocus());
    expect(screen.getByRole('button', { name: H.forgetBank })).toBeVisible();

    await user.click(screen.getByRole('button', { name: H.forgetBank }));
    expect(localStorage.getItem(REMEMBERED_BANK_KEY)).toBeNull();
    expect(screen.queryByRole('list', { name: H.lastUsed })).toBeNull();
    expect(screen.queryByRole('button', { name: H.forgetBank })).toBeNull();
    expect(lists()).toEqual([DEFAULT_MESSAGES.banks]);
    const said = screen.getAllByRole('status').filter((s) => s.textContent === H.bankForgotten);
    expect(said).toHaveLength(1);
    // The button went with the bank: focus is on the step's heading, not on nothing.
    expect(screen.getByRole('heading', { name: DEFAULT_MESSAGES.chooseBank })).toHaveFocus();
  });

  it('“Popular banks” above the full list, in the merchant’s order, unknown ids skipped', async () => {
    const { user } = await setup(
      { extras, featuredInstitutions: FEATURED },
      fakeTransport(SEARCHABLE_BANKS),
    );
    const banks = await openStep(user);
    expect(lists()).toEqual([H.featured, DEFAULT_MESSAGES.banks]);
    expect(namesIn(list(H.featured))).toEqual(['HSBC UK', 'Monzo']);
    // The full list has every bank, the featured ones too.
    expect(namesIn(banks)).toEqual(SEARCHABLE_BANKS.map((b) => b.name));
    // Each list is one Tab stop.
    expect(
      within(list(H.featured))
        .getAllByRole('button')
        .map((b) => b.tabIndex),
    ).toEqual([0, -1]);
  });

  it('a click on a featured bank pays with it', async () => {
    const { user, transport, openUrl, log } = await setup(
      { extras, featuredInstitutions: FEATURED },
      fakeTransport(SEARCHABLE_BANKS),
    );
    await openStep(user);
    await user.click(within(list(H.featured)).getByRole('button', { name: 'Monzo' }));
    await waitFor(() =>
      expect(openUrl).toHaveBeenCalledWith(FIRST_PAYMENT.authorisationUrl, OPENED_IDS),
    );
    expect(transport.paymentRequests).toEqual([
      expect.objectContaining({ institutionId: 'monzo' }),
    ]);
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('on a desktop, a chosen bank is shown as a QR code to scan, not opened here', async () => {
    desktop();
    const endpoint = statusEndpoint();
    const onHandoffShown = vi.fn();
    const { user, openUrl, log, transport } = await setup(handoffProps({ onHandoffShown }));
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'Barclays' }));
    const region = await screen.findByRole('region', { name: H.handoffHeading });
    expect(
      within(region).getByRole('heading', { level: 2, name: H.handoffHeading }),
    ).toBeInTheDocument();
    // The code loads with its encoder (a chunk of its own).
    const qr = await within(region).findByRole('img', { name: H.qrAlt('Barclays') });
    expect(qr).toHaveAccessibleName(expect.stringContaining('Barclays'));
    expect(within(region).getByText(FIRST_PAYMENT.authorisationUrl)).toBeInTheDocument();
    // The shopper moves on to the panel: its heading has focus, not the bank that went.
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: H.handoffHeading })).toHaveFocus(),
    );
    expect(screen.queryByRole('list', { name: DEFAULT_MESSAGES.banks })).toBeNull();

    expect(openUrl).not.toHaveBeenCalled();
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    const { merchantPaymentId } = transport.paymentRequests[0]!;
    expect(onHandoffShown.mock.calls).toEqual([
      [
        {
          url: FIRST_PAYMENT.authorisationUrl,
          paymentId: FIRST_PAYMENT.paymentId,
          merchantPaymentId,
          institution: expect.objectContaining({ id: 'barclays', name: 'Barclays' }),
        },
      ],
    ]);
    // It follows exactly this payment at the merchant's status endpoint.
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    expect(Object.fromEntries(endpoint.asked()[0]!.searchParams)).toEqual({
      paymentId: FIRST_PAYMENT.paymentId,
      merchantPaymentId,
    });
  });

  it('“Continue on this computer” opens the bank here, and the panel goes', async () => {
    desktop();
    statusEndpoint();
    const { user, openUrl, log, transport } = await setup(handoffProps());
    await openStep(user);
    await user.click(screen.getByRole('button', { name: 'HSBC UK' }));
    await screen.findByRole('region', { name: H.handoffHeading });
    await user.click(screen.getByRole('button', { name: H.continueHere }));
    const { merchantPaymentId } = transport.paymentRequests[0]!;
    expect(openUrl).toHaveBeenCalledTimes(1);
    expect(openUrl).toHaveBeenCalledWith(
      FIRST_PAYMENT.authorisationUrl,
      expect.objectContaining({ paymentId: FIRST_PAYMENT.paymentId, merchantPaymentId }),
    );
    expect(panel()).toBeNull();
    // The payment was already on its way to the bank: no second awaiting_authorisation.
    expect(log.events()).toEqual(WHOLE_PAYMENT);
    expect(transport.paymentRequests).toHaveLength(1);
  });
});
