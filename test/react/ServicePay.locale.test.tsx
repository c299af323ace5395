// The shopper's language (issue 49) on the Pay component: `locale={cy}` shows no English word in
// any state, on both renderers (React's <ServicePay> and the Preact build of window.Service),
// the root carries `lang`; the handoff panel follows it; and a language changed while the bank
// step is open changes every word in place: the step stays open, focus stays on its control,
// and no live region speaks again.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { extras } from 'servicepay/extras';
import cy from 'servicepay/locales/cy';
import en from 'servicepay/locales/en';
import { HANDOFF_MEDIA, SLOW_LOAD_MS } from '../../src/core/index';
import type { PaymentStatus } from '../../src/core/index';
import { createFakeTransport, defaultInitiatedPayment } from '../helpers/fake-transport';
import { RENDERERS } from '../helpers/renderers';
import type { MountOptions, Renderer } from '../helpers/renderers';
import { preactEffectsRun } from '../helpers/preact-effects';
import { englishWordsIn } from '../helpers/shopper-text';
import { renderServicePay } from './render';
import { BANKS, SEARCHABLE_BANKS, fakeTransport, reply } from './support';

const W = cy.pay;
const MANY = Array.from({ length: 250 }, (_, i) => ({ id: `b${i}`, name: `Bank ${i}` }));
const NAMES = [...SEARCHABLE_BANKS, ...MANY].map((bank) => bank.name);
/** Polling asks at once, then after 1 s, 2 s, 4 s: room for a round or two on a busy machine. */
const WAIT = { timeout: 10_000 };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const rootOf = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-state]')!;

describe.each(RENDERERS)('$name in Welsh', (renderer: Renderer) => {
  beforeAll(() => renderer.prepare(), 60_000);
  const mount = (options: MountOptions = {}) => renderer.mount({ locale: cy, ...options });
  /** Mounted with `banks`, the step opened by the merchant's handle and its banks shown. */
  const opened = async (transport = fakeTransport(), options: MountOptions = {}) => {
    const view = await mount({ transport, ...options });
    await view.call((handle) => handle.openInstitutionSelection());
    return view;
  };

  type State = [name: string, reach: () => Promise<HTMLElement>];
  const STATES: State[] = [
    [
      'the Pay step',
      async () => {
        const { container } = await mount({ transport: fakeTransport() });
        expect(await screen.findByRole('button', { name: `${W.payLabel}12.50` })).toBeEnabled();
        expect(screen.getByText(W.title)).toBeInTheDocument();
        return container;
      },
    ],
    [
      'no payment yet',
      async () => {
        const view = await mount({ transport: fakeTransport(), payment: undefined });
        // The Preact driver gives a payment with createPayment: none here.
        if (renderer !== RENDERERS[0]) return view.container;
        expect(await screen.findByRole('button', { name: 'Talu' })).toBeDisabled();
        return view.container;
      },
    ],
    [
      'an invalid payment',
      async () => {
        vi.spyOn(console, 'warn').mockImplementation(() => undefined);
        const { container } = await mount({
          transport: fakeTransport(),
          payment: { amount: -1, paymentReference: 'R' },
        });
        expect(await screen.findByText(W.paymentInvalid)).toBeInTheDocument();
        return container;
      },
    ],
    [
      'the Pay button switched off by the merchant',
      async () => {
        const { container } = await mount({ transport: fakeTransport(), disablePayButton: true });
        expect(await screen.findByText(W.payUnavailable)).toBeInTheDocument();
        return container;
      },
    ],
    [
      'the bank step, with its search and its banks',
      async () => {
        const { container } = await opened(fakeTransport(SEARCHABLE_BANKS));
        expect(await screen.findByRole('region', { name: W.chooseBank })).toBeVisible();
        expect(screen.getByRole('searchbox', { name: W.search })).toBeInTheDocument();
        expect(screen.getByRole('button', { name: W.close })).toBeInTheDocument();
        return container;
      },
    ],
    [
      'a search that finds nothing',
      async () => {
        const { container } = await opened(fakeTransport(SEARCHABLE_BANKS));
        fireEvent.input(await screen.findByRole('searchbox'), { target: { value: 'zzz' } });
        expect(await screen.findByText(W.noMatch('zzz'))).toBeInTheDocument();
        return container;
      },
    ],
    [
      'more banks than the list shows, counted in Welsh',
      async () => {
        const { container } = await opened(fakeTransport(MANY));
        expect(
          await screen.findByText(
            'Yn dangos 200 o 250 banc. Teipiwch enw eich banc i ddod o hyd iddo.',
          ),
        ).toBeInTheDocument();
        return container;
      },
    ],
    [
      'loading, then slow',
      async () => {
        // The previous test's last render may have left Preact's effect flush pending on the
        // real clock (test/helpers/preact-effects.ts): this component's effects would join it,
        // and no advance of the fake clock would run them. Let it run first.
        await preactEffectsRun();
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const t = fakeTransport();
        t.replyTo('fetchInstitutions', reply.hang());
        const { container } = await opened(t);
        // Preact then runs effects (the shim's subscription) after a frame, at most 35 ms: on
        // the fake clock, well before the slow line's 5 s.
        await act(async () => void vi.advanceTimersByTime(150));
        expect(screen.getByRole('status')).toHaveTextContent(W.loading);
        await act(async () => void vi.advanceTimersByTime(SLOW_LOAD_MS));
        vi.useRealTimers();
        expect(screen.getByRole('status')).toHaveTextContent(W.slow);
        expect(screen.getByRole('button', { name: W.retry })).toBeInTheDocument();
        return container;
      },
    ],
    [
      'a failed load',
      async () => {
        const t = fakeTransport();
        t.replyTo('fetchInstitutions', reply.fail('HTTP 503'));
        const { container } = await mount({ transport: t });
        expect(await screen.findByText(W.loadFailed)).toBeInTheDocument();
        expect(screen.getByRole('button', { name: W.retry })).toBeInTheDocument();
        return container;
      },
    ],
    [
      'a shop set-up that stops payments',
      async () => {
        vi.spyOn(console, 'warn').mockImplementation(() => undefined);
        const { container } = await mount({ environment: 'LIVE', transport: undefined });
        expect(await screen.findByText(W.unavailable)).toBeInTheDocument();
        return container;
      },
    ],
    [
      'the opening of a bank',
      async () => {
        const t = fakeTransport();
        t.replyTo('initiatePayment', reply.hang());
        const { container } = await opened(t);
        fireEvent.click(await screen.findByRole('button', { name: 'Monzo' }));
        expect(await screen.findByRole('button', { name: W.opening('Monzo') })).toBeVisible();
        return container;
      },
    ],
    [
      'a payment that failed to start',
      async () => {
        const t = fakeTransport();
        t.replyTo('initiatePayment', reply.fail('servicepay: nope'));
        const { container } = await opened(t);
        await act(async () =>
          fireEvent.click(await screen.findByRole('button', { name: 'Monzo' })),
        );
        expect(await screen.findByRole('alert')).toHaveTextContent(W.payFailed('Monzo'));
        return container;
      },
    ],
    [
      'the bank’s page opened',
      async () => {
        const { container } = await opened();
        await act(async () =>
          fireEvent.click(await screen.findByRole('button', { name: 'Monzo' })),
        );
        expect(await screen.findByText(W.awaiting)).toBeInTheDocument();
        return container;
      },
    ],
  ];

  it.each(STATES)('no English word: %s', async (_name, reach) => {
    const container = await reach();
    expect(rootOf(container)).toHaveAttribute('lang', 'cy');
    expect(englishWordsIn(container, NAMES)).toEqual([]);
  });

  it('the same states in English carry English’s tag (the detector sees English)', async () => {
    const { container } = await renderer.mount({ transport: fakeTransport() });
    await screen.findByRole('button', { name: 'Pay £12.50' });
    expect(rootOf(container)).toHaveAttribute('lang', 'en-GB');
    expect(englishWordsIn(container, NAMES)).not.toEqual([]);
  });
});

/**
 * A desktop (a mouse, wide enough), where the handoff is offered: `HANDOFF_MEDIA` matches and
 * nothing else does. And the merchant's status endpoint, polled through a stubbed fetch.
 */
function desktopWithEndpoint() {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === HANDOFF_MEDIA }));
  let status: PaymentStatus = 'PENDING';
  const fetch = vi.fn(async () => new Response(JSON.stringify({ status })));
  vi.stubGlobal('fetch', fetch);
  return { fetch, set: (next: PaymentStatus) => void (status = next) };
}

describe('the handoff panel, in the component’s language', { timeout: 30_000 }, () => {
  const H = cy.handoff;
  const R = cy.result;
  const URL_ = defaultInitiatedPayment(1).authorisationUrl;

  it.each([
    ['waiting for the phone', 'PENDING', H.handoffHeading, H.handoffWaiting],
    ['received', 'COMPLETED', R.received, R.receivedText],
    ['not completed', 'FAILED', R.notCompleted, R.notCompletedText],
    ['to be checked', 'NEEDS_REVIEW', R.needsReview, R.needsReviewText],
  ] as const)('no English word: %s', async (_name, status, heading, text) => {
    const endpoint = desktopWithEndpoint();
    const { user, container } = renderServicePay({
      locale: cy,
      extras,
      statusUrl: '/api/payments/status',
      reviewContact: 'Ffoniwch ni.',
      transport: fakeTransport(),
    });
    await user.click(await screen.findByRole('button', { name: `${W.payLabel}12.50` }));
    await user.click(await screen.findByRole('button', { name: 'Barclays' }));
    const panel = await screen.findByRole('region', { name: H.handoffHeading });
    expect(panel).toHaveAttribute('lang', 'cy');
    expect(await within(panel).findByRole('img', { name: H.qrAlt('Barclays') })).toBeVisible();
    await waitFor(() => expect(endpoint.fetch).toHaveBeenCalled());
    endpoint.set(status);
    await screen.findByRole('heading', { name: heading }, WAIT);
    expect(within(panel).getByRole('status')).toHaveTextContent(text);
    expect(englishWordsIn(container, [...NAMES, URL_, 'Ffoniwch ni.'])).toEqual([]);
  });
});

describe('changing the language of a mounted component', () => {
  it('English → Welsh → English with the bank step open: every word in place, the step open, focus on the same control', async () => {
    const view = renderServicePay({ transport: fakeTransport(SEARCHABLE_BANKS) });
    await view.user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const step = await screen.findByRole('region', { name: en.pay.chooseBank });
    const search = await screen.findByRole('searchbox', { name: en.pay.search });
    await waitFor(() => expect(search).toHaveFocus());
    // Into the list: focus on a bank, the list's Tab stop.
    await view.user.keyboard('{ArrowDown}');
    const bank = screen.getByRole('button', { name: 'Barclays' });
    expect(bank).toHaveFocus();

    view.rerender({ locale: cy });
    expect(screen.getByRole('region', { name: W.chooseBank })).toBe(step);
    expect(screen.getByRole('searchbox', { name: W.search })).toBe(search);
    expect(screen.getByRole('button', { name: W.close })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `${W.payLabel}12.50` })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(bank).toHaveFocus();
    expect(rootOf(view.container)).toHaveAttribute('lang', 'cy');
    expect(englishWordsIn(view.container, NAMES)).toEqual([]);

    view.rerender({ locale: en });
    expect(screen.getByRole('region', { name: en.pay.chooseBank })).toBe(step);
    expect(screen.getByRole('button', { name: 'Pay £12.50' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(bank).toHaveFocus();
    expect(rootOf(view.container)).toHaveAttribute('lang', 'en-GB');
    // Nothing was fetched again: the same session, its banks and its open step.
    expect(view.log.entries.filter((line) => line === 'event:mounted')).toHaveLength(1);
  });

  it('no live region speaks again: its words change while it is aria-live="off", then it is live again', async () => {
    const t = fakeTransport();
    t.replyTo('initiatePayment', reply.fail('servicepay: nope'));
    const view = renderServicePay({ transport: t });
    await view.user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Monzo' })));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(en.pay.payFailed('Monzo'));

    // What a screen reader is told: each change of a live region's words, with its aria-live
    // as it was when the change was made.
    const heard: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const node = record.target instanceof Element ? record.target : record.target.parentElement;
        const region = node?.closest('[role=status],[role=alert]');
        if (region && region.getAttribute('aria-live') !== 'off') heard.push(region.textContent!);
      }
    });
    observer.observe(view.container, { subtree: true, childList: true, characterData: true });
    view.rerender({ locale: cy });
    await act(async () => undefined);
    observer.disconnect();

    expect(screen.getByRole('alert')).toBe(alert);
    expect(alert).toHaveTextContent(W.payFailed('Monzo'));
    expect(heard).toEqual([]);
    // Then live again, as its role has it, for what happens next.
    await waitFor(() => expect(alert).not.toHaveAttribute('aria-live'));
  });
});

describe('locale with messages', () => {
  it('messages reword over the catalogue; the props that name a word over both', async () => {
    renderServicePay({
      locale: cy,
      messages: { chooseBank: 'Pa fanc?' },
      payLabel: 'Talwch £',
      transport: createFakeTransport({ institutions: BANKS }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Talwch £12.50' }));
    expect(await screen.findByRole('region', { name: 'Pa fanc?' })).toBeVisible();
    expect(screen.getByRole('button', { name: W.close })).toBeInTheDocument();
  });
});
