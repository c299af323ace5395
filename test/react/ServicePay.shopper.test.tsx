// The shopper's side (issue 12): every failure in plain words (the developer's text only to
// errorConsumer), no dead buttons, the bank step with its heading and close control, the slow
// load, logos that fail, the keyboard model, and the messages table with a pseudo-locale that
// proves no built-in English escapes it. Layout and real keyboard geometry are checked in
// Chromium (stories/Shopper.stories.tsx).
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_MESSAGES, SLOW_LOAD_MS } from '../../src/core/index';
import type { ServicePayProps } from '../../src/react/index';
import { PSEUDO_MESSAGES, developerTextIn, englishLeftIn } from '../helpers/shopper-text';
import { renderServicePay } from './render';
import { BANKS, fakeTransport, reply } from './support';

const MANY = Array.from({ length: 12 }, (_, i) => ({ id: `b${i}`, name: `Bank ${i}` }));

function setup(props: Partial<ServicePayProps> = {}, transport = fakeTransport()) {
  return { ...renderServicePay({ transport, ...props }), transport };
}

const pay = () => screen.getByRole('button', { name: /^Pay\b/ });

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the bank step', () => {
  it('is a titled region with a close control that gives focus back to Pay', async () => {
    const user = userEvent.setup();
    setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const step = await screen.findByRole('region', { name: 'Choose your bank' });
    expect(pay()).toHaveAttribute('aria-expanded', 'true');
    expect(pay()).toHaveAttribute('aria-controls', step.id);
    expect(screen.getByRole('heading', { name: 'Choose your bank' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(pay()).toHaveFocus();
    expect(pay()).toHaveAttribute('aria-expanded', 'false');
  });

  it('on a coarse pointer focuses its heading, not the search field', async () => {
    // jsdom has no matchMedia: a touch screen's answer.
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => ({ matches: query === '(pointer: coarse)' }),
    });
    onTestFinished(() => void delete (window as { matchMedia?: unknown }).matchMedia);
    const user = userEvent.setup();
    setup({}, fakeTransport(MANY));
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    expect(await screen.findByRole('heading', { name: 'Choose your bank' })).toHaveFocus();
    expect(screen.getByRole('searchbox')).not.toHaveFocus();
  });

  it('is one Tab stop (roving tabindex), with Home, End, and the search field leading in', async () => {
    const user = userEvent.setup();
    setup({}, fakeTransport(MANY));
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const search = await screen.findByRole('searchbox', { name: 'Search for your bank' });
    expect(search).toHaveFocus();
    const banks = screen.getAllByRole('button', { name: /^Bank / });
    expect(banks.filter((b) => b.tabIndex === 0)).toEqual([banks[0]]);
    await user.keyboard('{ArrowDown}');
    expect(banks[0]).toHaveFocus();
    await user.keyboard('{End}');
    expect(banks[11]).toHaveFocus();
    expect(banks.filter((b) => b.tabIndex === 0)).toEqual([banks[11]]);
    await user.keyboard('{Home}');
    expect(banks[0]).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(banks[1]).toHaveFocus();
    // Tab leaves the set of banks: one stop for all twelve.
    await user.tab();
    expect(document.activeElement?.textContent).not.toMatch(/^Bank /);
    await user.tab({ shift: true });
    expect(banks[1]).toHaveFocus();
    await user.click(search);
    await user.type(search, '1{Enter}');
    expect(screen.getByRole('button', { name: 'Bank 1' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(pay()).toHaveFocus();
  });

  it('shows the chosen bank and Pay in progress while the payment opens', async () => {
    const user = userEvent.setup();
    const t = fakeTransport();
    t.replyOnce('initiatePayment', reply.hang());
    setup({}, t);
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await user.click(await screen.findByRole('button', { name: 'HSBC UK' }));
    expect(screen.getByRole('button', { name: 'Opening HSBC UK…' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('button', { name: 'HSBC UK' })).toHaveAttribute(
      'data-state',
      'initiating',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Opening HSBC UK…');
  });
});

describe('failures, in the shopper’s words', () => {
  it('a failed payment: what happened and what to do, the backend’s text to errorConsumer only', async () => {
    const user = userEvent.setup();
    const t = fakeTransport();
    t.replyOnce('initiatePayment', reply.fail('The service did not answer within 30000 ms'));
    const { container, log } = setup({}, t);
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    await user.click(await screen.findByRole('button', { name: 'Barclays' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      DEFAULT_MESSAGES.payFailed('Barclays'),
    );
    expect(log.entries).toContain(
      'error:payWithBankInstitution:The service did not answer within 30000 ms',
    );
    expect(developerTextIn(container)).toBeUndefined();
    // The step stays, to try again or choose another bank; closing it clears the sentence.
    expect(screen.getByRole('button', { name: 'Barclays' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  });

  it('a shop set-up the shopper cannot fix (LIVE without a backend): Pay disabled, said plainly', async () => {
    const { container, log } = setup({ environment: 'LIVE', transport: undefined });
    expect(await screen.findByText(DEFAULT_MESSAGES.unavailable)).toBeInTheDocument();
    expect(pay()).toBeDisabled();
    expect(pay()).toHaveAccessibleDescription(DEFAULT_MESSAGES.unavailable);
    expect(
      log.entries.some((line) => line.startsWith('error:fetchInstitutions:servicepay: ')),
    ).toBe(true);
    expect(developerTextIn(container)).toBeUndefined();
  });

  it('without a payment yet, Pay is disabled and says why', async () => {
    const { ref } = setup({ payment: undefined });
    const button = await screen.findByRole('button', { name: 'Pay' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(DEFAULT_MESSAGES.paymentNotReady);
    act(() => void ref.current!.createPayment({ amount: 3, paymentReference: 'R' }));
    expect(screen.getByRole('button', { name: 'Pay £3.00' })).toBeEnabled();
  });

  it('a slow load says so and offers a retry, before the transport gives up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = fakeTransport();
    t.replyOnce('fetchInstitutions', reply.hang(), reply.defer());
    const { ref } = setup({}, t);
    act(() => ref.current!.openInstitutionSelection());
    expect(screen.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.loading);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(SLOW_LOAD_MS));
    expect(screen.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.slow);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    // The first request is abandoned (aborted) and a second one made.
    expect(t.fetchCalls).toHaveLength(2);
    expect(t.fetchCalls[0]!.signal?.aborted).toBe(true);
    expect(screen.getByRole('status')).toHaveTextContent(DEFAULT_MESSAGES.loading);
    await act(async () => t.fetchCalls[1]!.resolve(BANKS));
    expect(screen.getByRole('button', { name: 'Barclays' })).toBeInTheDocument();
  });
});

describe('logos', () => {
  it('a logo that fails to load gives way to the initials, and the name stays the name', async () => {
    const user = userEvent.setup();
    setup();
    await user.click(await screen.findByRole('button', { name: 'Pay £12.50' }));
    const barclays = await screen.findByRole('button', { name: 'Barclays' });
    fireEvent.error(barclays.querySelector('img')!);
    expect(barclays.querySelector('img')).toBeNull();
    expect(barclays.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'B');
    expect(barclays).toHaveAccessibleName('Barclays');
  });
});

// --- the messages table ----------------------------------------------------------------------

describe('messages', () => {
  it('a partial override rewords only what it names', async () => {
    setup({ messages: { payLabel: 'Payer £', chooseBank: 'Choisissez votre banque' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Payer £12.50' }));
    expect(await screen.findByRole('region', { name: 'Choisissez votre banque' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('ignores what is not a message (a plain-JS typo, a wrong type): never a blank UI', async () => {
    setup({ messages: { payLabel: 42, nope: 'x' } as never });
    expect(await screen.findByRole('button', { name: 'Pay £12.50' })).toBeInTheDocument();
  });

  type State = [name: string, reach: () => Promise<HTMLElement>];
  const names = [...BANKS, ...MANY].map((b) => b.name);
  const pseudo = (props: Partial<ServicePayProps> = {}, t = fakeTransport()) =>
    setup({ messages: PSEUDO_MESSAGES, ...props }, t);
  const openWith = async (t = fakeTransport(), props: Partial<ServicePayProps> = {}) => {
    const view = pseudo(props, t);
    await act(async () => view.ref.current!.openInstitutionSelection());
    return view;
  };
  const STATES: State[] = [
    ['idle', async () => pseudo().container],
    ['disabled by the merchant', async () => pseudo({ disablePayButton: true }).container],
    ['no payment yet', async () => pseudo({ payment: undefined }).container],
    [
      'invalid payment',
      async () => pseudo({ payment: { amount: -1, paymentReference: 'R' } }).container,
    ],
    ['unavailable', async () => pseudo({ environment: 'LIVE', transport: undefined }).container],
    [
      'loading, then slow',
      async () => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const t = fakeTransport();
        t.replyTo('fetchInstitutions', reply.hang());
        const view = await openWith(t);
        expect(englishLeftIn(view.container, names)).toBe('');
        act(() => void vi.advanceTimersByTime(SLOW_LOAD_MS));
        vi.useRealTimers();
        expect(screen.getByRole('status')).toHaveTextContent('⟦slow⟧');
        return view.container;
      },
    ],
    [
      'load failed',
      async () => {
        const t = fakeTransport();
        t.replyTo('fetchInstitutions', reply.fail('HTTP 503'));
        const view = pseudo({}, t);
        await screen.findByText('⟦loadFailed⟧');
        return view.container;
      },
    ],
    ['open, with search', async () => (await openWith(fakeTransport(MANY))).container],
    [
      'no match',
      async () => {
        const { container } = await openWith(fakeTransport(MANY));
        // An input event, as typing fires (the field filters on onInput).
        fireEvent.input(screen.getByRole('searchbox'), { target: { value: 'zzz' } });
        expect(await screen.findByText('⟦noMatch:zzz⟧')).toBeInTheDocument();
        return container;
      },
    ],
    ['no banks', async () => (await openWith(fakeTransport([]))).container],
    [
      'opening a bank',
      async () => {
        const t = fakeTransport();
        t.replyTo('initiatePayment', reply.hang());
        const { container } = await openWith(t);
        fireEvent.click(screen.getByRole('button', { name: 'Monzo' }));
        return container;
      },
    ],
    [
      'payment failed',
      async () => {
        const t = fakeTransport();
        t.replyTo('initiatePayment', reply.fail('servicepay: nope'));
        const { container } = await openWith(t);
        await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Monzo' })));
        await screen.findByText('⟦payFailed:Monzo⟧');
        return container;
      },
    ],
    [
      'awaiting authorisation',
      async () => {
        const { container } = await openWith();
        await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Monzo' })));
        await screen.findByText('⟦awaiting⟧');
        return container;
      },
    ],
  ];

  it.each(STATES)('pseudo-locale: no built-in English when %s', async (_name, reach) => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const container = await reach();
    await waitFor(() => expect(container.querySelector('[data-state]')).not.toBeNull());
    // Not one letter outside the tokens and the data.
    expect(englishLeftIn(container, names)).toBe('');
  });
});
