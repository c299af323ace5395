// The Service class (servicepay/vanilla, spec 4.4), run as the package ships it: the Preact
// build of the component (support.ts), in jsdom, beside React's <ServicePay> where they are
// compared.
import { createRef } from 'react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServicePay, ServiceEvent as ReactServiceEvent } from '../../src/react/index';
import type { ServicePayHandle } from '../../src/react/index';
import type { ServiceOptions } from '../../src/vanilla/index';
import { describeMarkup } from '../helpers/markup';
import { APP_ID, BANKS, fakeTransport, reply } from '../react/support';
import { createEventLog } from '../helpers/event-log';
import { defaultInitiatedPayment } from '../helpers/fake-transport';
import { loadVanilla } from './support';
import type { VanillaModule } from './support';
import { developerTextIn } from '../helpers/shopper-text';
import { DEFAULT_MESSAGES } from '../../src/core/index';
import { OPENED_IDS } from '../helpers/opened-ids';

let vanilla: VanillaModule;
beforeAll(async () => {
  vanilla = await loadVanilla();
});

/** A page element to inject into; removed after the test. */
function element(id = 'service-component'): HTMLElement {
  const div = document.createElement('div');
  div.id = id;
  document.body.append(div);
  return div;
}
afterEach(() => {
  document.body.replaceChildren();
});

const PAYMENT = { amount: 12.5, paymentReference: 'ORDER-1042' };

function setup(options: Partial<ServiceOptions> = {}, transport = fakeTransport()) {
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
  return { service, log, openUrl, transport, user: userEvent.setup() };
}

const root = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-state]')!;

describe('Service', () => {
  // The names and values of spec 6.2 are pinned once, in test/core/session.payment-flow.test.ts.
  it('exports the same ServiceEvent as the other entries', () => {
    expect(vanilla.ServiceEvent).toEqual(ReactServiceEvent);
  });

  it('sends the same events in the same order as <ServicePay> for the same steps', async () => {
    const react = createEventLog();
    const ref = createRef<ServicePayHandle>();
    const reactOpen = vi.fn();
    render(
      <ServicePay
        ref={ref}
        environment="SANDBOX"
        applicationId={APP_ID}
        transport={fakeTransport()}
        payment={PAYMENT}
        openUrl={reactOpen}
        eventConsumer={react.eventConsumer}
        errorConsumer={react.errorConsumer}
      />,
    );
    const { service, log, openUrl } = setup();
    service.createPayment(PAYMENT);
    element();
    service.injectComponent('service-component');
    await waitFor(() =>
      expect(react.entries).toEqual(['event:mounted', 'event:institutions_fetched']),
    );
    await waitFor(() => expect(log.entries).toEqual(react.entries));
    // The same calls on the ref handle and on the instance: the same operations.
    const steps: ((h: ServicePayHandle) => unknown)[] = [
      (h) => h.toggleButton(false),
      (h) => h.toggleButton(true),
      (h) => h.openInstitutionSelection(),
      (h) => h.createPayment({ amount: 0 } as never),
      (h) => h.createPayment(PAYMENT),
      (h) => h.payWithInstitution('nope'),
      (h) => h.payWithInstitution('monzo'),
    ];
    for (const step of steps) {
      await act(async () => step(ref.current!));
      await step(service);
    }
    await waitFor(() => expect(reactOpen).toHaveBeenCalled());
    await waitFor(() => expect(openUrl).toHaveBeenCalled());
    expect(log.entries).toEqual(react.entries);
    expect(log.entries).toContain('event:pay_button_disabled');
    expect(log.entries).toContain(
      'error:payWithBankInstitution:servicepay: unknown institution "nope"',
    );
  });

  describe('renders the same markup as <ServicePay> with the same options', () => {
    const scenarios: [string, Partial<Omit<ServiceOptions, 'locale'>>][] = [
      ['the defaults', {}],
      [
        'its own texts, a class and no service styling',
        {
          title: 'Pay by bank',
          label: 'No card needed',
          payLabel: 'Pay now £',
          className: 'checkout-pay',
          disableVolumeStyling: true,
          disableTailwindStyling: true,
        },
      ],
      ['a disabled Pay button', { disablePayButton: true, disabledReason: 'Accept the terms.' }],
    ];

    it.each(scenarios)(
      '%s: idle, bank list open, paying, awaiting authorisation',
      async (_, props) => {
        const ref = createRef<ServicePayHandle>();
        const reactTransport = fakeTransport();
        reactTransport.replyOnce('initiatePayment', reply.defer());
        const vanillaTransport = fakeTransport();
        vanillaTransport.replyOnce('initiatePayment', reply.defer());
        const common = {
          environment: 'SANDBOX' as const,
          applicationId: APP_ID,
          openUrl: () => {},
          ...props,
        };
        const { container } = render(
          <ServicePay ref={ref} {...common} transport={reactTransport} payment={PAYMENT} />,
        );
        const { service } = setup(common, vanillaTransport);
        service.createPayment(PAYMENT);
        const page = element();
        service.injectComponent('service-component');

        const same = async (state: string) => {
          await waitFor(() => expect(root(container)).toHaveAttribute('data-state', state));
          const expected = describeMarkup(root(container));
          await waitFor(() => expect(describeMarkup(root(page))).toBe(expected));
        };
        await waitFor(() => expect(reactTransport.fetchCalls).not.toHaveLength(0));
        await same('idle');
        await act(async () => ref.current!.openInstitutionSelection());
        service.openInstitutionSelection();
        await same('selecting');
        await act(async () => void ref.current!.payWithInstitution('hsbc'));
        void service.payWithInstitution('hsbc');
        await same('initiating');
        const answer = { paymentId: 'p', authorisationUrl: 'https://bank.test/a' };
        await act(async () => reactTransport.paymentCalls[0]!.resolve(answer));
        vanillaTransport.paymentCalls[0]!.resolve(answer);
        await same('awaiting-authorisation');
      },
    );

    it('a failed bank list, with Try again', async () => {
      const failing = () => {
        const t = fakeTransport();
        t.replyTo('fetchInstitutions', reply.fail('Service unavailable'));
        return t;
      };
      const { container } = render(
        <ServicePay environment="SANDBOX" applicationId={APP_ID} transport={failing()} />,
      );
      const { service } = setup({}, failing());
      const page = element();
      service.injectComponent('service-component');
      await waitFor(() => expect(root(container)).toHaveAttribute('data-state', 'error'));
      await waitFor(() => expect(describeMarkup(root(page))).toBe(describeMarkup(root(container))));
      expect(within(page).getByRole('alert')).toHaveTextContent(DEFAULT_MESSAGES.loadFailed);
      expect(within(page).getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(developerTextIn(page)).toBeUndefined();
    });
  });

  describe('createPayment', () => {
    it('may come before injectComponent: the Pay button shows the amount once injected', async () => {
      const { service, log } = setup();
      expect(service.createPayment({ amount: 7, paymentReference: 'R-1' })).toBe(true);
      expect(log.entries).toEqual([]);
      element();
      service.injectComponent('service-component');
      expect(await screen.findByRole('button', { name: 'Pay £7.00' })).toBeEnabled();
    });
  });

  describe('injectComponent', () => {
    it('throws a ServiceInjectionError for an id the page does not have, and renders nothing', () => {
      const { service, log, transport } = setup();
      const call = () => service.injectComponent('no-such-element');
      expect(call).toThrow(vanilla.ServiceInjectionError);
      expect(call).toThrow(
        /^servicepay: injectComponent found no element with id "no-such-element"/,
      );
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ name: 'ServiceInjectionError', elementId: 'no-such-element' });
      // Not mounted: nothing emitted, nothing fetched, and the id is still free to use later.
      expect(log.entries).toEqual([]);
      expect(transport.fetchCalls).toEqual([]);
      element('no-such-element');
      service.injectComponent('no-such-element');
      expect(log.entries).toEqual(['event:mounted']);
    });

    it('refuses an id that two elements carry (the first may be the page’s content): thrown, reported at fetchInstitutions, nothing rendered or fetched', () => {
      // Issue 46: content above the page's element (a review: sanitisers keep ids), in a link.
      const link = document.createElement('a');
      link.href = '/phish';
      link.append(element('pay'));
      document.body.prepend(link);
      const own = element('pay');
      const { service, log, transport } = setup();
      let thrown: unknown;
      try {
        service.injectComponent('pay');
      } catch (error) {
        thrown = error;
      }
      const message =
        'servicepay: injectComponent found more than one element with id "pay": give your element an id that nothing else in the page has';
      expect(thrown).toBeInstanceOf(vanilla.ServiceInjectionError);
      expect(thrown).toMatchObject({ message, elementId: 'pay' });
      expect(log.entries).toEqual([`error:fetchInstitutions:${message}`]);
      expect(link.innerHTML).toBe('<div id="pay"></div>');
      expect(own.innerHTML).toBe('');
      expect(transport.fetchCalls).toEqual([]);
      // Once the id is the page's own alone, it is injected there.
      link.remove();
      service.injectComponent('pay');
      expect(within(own).getByRole('button', { name: /^Pay/ })).toBeInTheDocument();
    });

    it.each([undefined, '', 42, null])('throws for %j as the id', (id) => {
      const { service } = setup();
      expect(() => service.injectComponent(id as string)).toThrow(vanilla.ServiceInjectionError);
    });

    it('renders into the element, replacing its content, and emits mounted with the markup in place', async () => {
      const page = element();
      page.innerHTML = '<p class="placeholder">Loading the payment options…</p>';
      const seen: string[] = [];
      const { service } = setup({
        eventConsumer: (event) => {
          seen.push(
            `${event}, markup ${page.querySelector('[role="group"]') ? 'in' : 'not in'} the page`,
          );
        },
      });
      service.injectComponent('service-component');
      // Synchronously, as the call returns: the markup, and mounted after it.
      expect(seen).toEqual(['mounted, markup in the page']);
      expect(page.querySelector('.placeholder')).toBeNull();
      expect(
        within(page).getByRole('group', { name: 'Pay with your banking app' }),
      ).toHaveAttribute('data-state', 'idle');
      expect(await within(page).findByRole('button', { name: 'Pay' })).toBeInTheDocument();
    });

    it('moves the component when called again; state stays, mounted and the fetch happen once', async () => {
      const { service, log, transport, user } = setup();
      const first = element('first');
      const second = element('second');
      service.createPayment(PAYMENT);
      service.injectComponent('first');
      await waitFor(() =>
        expect(log.entries).toEqual(['event:mounted', 'event:institutions_fetched']),
      );
      service.toggleButton(false);
      service.injectComponent('second');
      expect(first).toBeEmptyDOMElement();
      const pay = await within(second).findByRole('button', { name: 'Pay £12.50' });
      expect(pay).toBeDisabled();
      service.toggleButton(true);
      await waitFor(() => expect(pay).toBeEnabled());
      await user.click(pay);
      expect(await within(second).findByRole('button', { name: 'Monzo' })).toBeInTheDocument();
      // The same element again re-renders in place.
      service.injectComponent('second');
      expect(await within(second).findAllByRole('group')).toHaveLength(1);
      expect(log.entries).toEqual([
        'event:mounted',
        'event:institutions_fetched',
        'event:pay_button_disabled',
        'event:pay_button_enabled',
        'event:bank_selection_opened',
      ]);
      expect(transport.fetchCalls).toHaveLength(1);
    });
  });

  it('gives two components on one page their own element ids', async () => {
    const first = setup();
    const second = setup();
    first.service.createPayment(PAYMENT);
    second.service.createPayment(PAYMENT);
    element('first');
    element('second');
    first.service.injectComponent('first');
    second.service.injectComponent('second');
    first.service.openInstitutionSelection();
    second.service.openInstitutionSelection();
    const hosts = await Promise.all(
      ['first', 'second'].map((id) =>
        waitFor(() => {
          const host = document.getElementById(id)!;
          expect(within(host).getAllByRole('button', { name: 'Barclays' })).toHaveLength(1);
          return host;
        }),
      ),
    );
    const ids = Array.from(document.querySelectorAll('[id]'), (e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Each Pay button controls its own list, and each component is named by its own title.
    for (const host of hosts) {
      const pay = within(host).getByRole('button', { name: 'Pay £12.50' });
      const step = document.getElementById(pay.getAttribute('aria-controls')!);
      expect(host).toContainElement(step);
      expect(step).toContainElement(within(host).getByRole('list', { name: 'Banks' }));
      const group = within(host).getByRole('group', { name: 'Pay with your banking app' });
      expect(host).toContainElement(
        document.getElementById(group.getAttribute('aria-labelledby')!),
      );
    }
  });

  describe('payWithInstitution', () => {
    it('starts a payment from page script right after injectComponent, before the banks arrive', async () => {
      const t = fakeTransport();
      t.replyOnce('fetchInstitutions', reply.defer());
      const { service, log, openUrl } = setup({}, t);
      service.createPayment(PAYMENT);
      element();
      service.injectComponent('service-component');
      await service.payWithInstitution('monzo');
      expect(t.paymentRequests).toEqual([expect.objectContaining({ institutionId: 'monzo' })]);
      expect(openUrl).toHaveBeenCalledWith(defaultInitiatedPayment(1).authorisationUrl, OPENED_IDS);
      expect(log.entries).toEqual([
        'event:mounted',
        'event:payment_initiated',
        'event:institution_selected',
        'event:awaiting_authorisation',
      ]);
      t.fetchCalls[0]!.resolve(BANKS);
    });

    it('works while the Pay button is disabled: the page asked for it, not the shopper', async () => {
      const { service, openUrl } = setup({ disablePayButton: true });
      service.createPayment(PAYMENT);
      element();
      service.injectComponent('service-component');
      await service.payWithInstitution('barclays');
      expect(openUrl).toHaveBeenCalledTimes(1);
    });

    it('before injectComponent: reports why, sends nothing, and never rejects', async () => {
      const { service, log, transport } = setup();
      service.createPayment(PAYMENT);
      await expect(service.payWithInstitution('monzo')).resolves.toBeUndefined();
      expect(log.entries).toEqual([
        'error:payWithBankInstitution:servicepay: payWithInstitution needs the component in the page (rendered, or injectComponent called): its redirect would be lost',
      ]);
      expect(transport.paymentRequests).toEqual([]);
    });

    it('before createPayment: reports it at payWithBankInstitution', async () => {
      const { service, log, transport } = setup();
      element();
      service.injectComponent('service-component');
      await service.payWithInstitution('monzo');
      expect(log.entries).toContain(
        'error:payWithBankInstitution:servicepay: payWithInstitution needs a valid payment: call createPayment({ amount, paymentReference }) first',
      );
      expect(transport.paymentRequests).toEqual([]);
    });

    it('a throwing errorConsumer is logged, never thrown into the page', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { service } = setup({
        errorConsumer: () => {
          throw new Error('merchant bug');
        },
      });
      await expect(service.payWithInstitution('monzo')).resolves.toBeUndefined();
      expect(error).toHaveBeenCalledWith('servicepay: errorConsumer threw', expect.any(Error));
      error.mockRestore();
    });
  });

  describe('openInstitutionSelection', () => {
    it('called before injectComponent, opens the list once the banks arrive', async () => {
      const { service, log } = setup();
      service.createPayment(PAYMENT);
      service.openInstitutionSelection();
      element();
      service.injectComponent('service-component');
      expect(await screen.findByRole('button', { name: 'Barclays' })).toBeInTheDocument();
      expect(log.entries).toEqual([
        'event:mounted',
        'event:institutions_fetched',
        'event:bank_selection_opened',
      ]);
    });

    it('needs createPayment first', () => {
      const { service, log } = setup();
      service.openInstitutionSelection();
      expect(log.entries).toEqual([
        'error:payWithBankInstitution:servicepay: openInstitutionSelection needs a valid payment: call createPayment({ amount, paymentReference }) first',
      ]);
    });
  });

  describe('merchantPaymentId (spec 4.4 rule 4)', () => {
    it('is the id the next payment sends, renewed on every payment_initiated', async () => {
      const used: string[] = [];
      const nextAtEvent: string[] = [];
      const t = fakeTransport();
      const { service } = setup(
        {
          eventConsumer: (event) => {
            if (event === 'payment_initiated') nextAtEvent.push(service.merchantPaymentId);
          },
          onPaymentInitiated: ({ merchantPaymentId }) => used.push(merchantPaymentId),
        },
        t,
      );
      service.createPayment(PAYMENT);
      element();
      service.injectComponent('service-component');
      const first = service.merchantPaymentId;
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      await service.payWithInstitution('monzo');
      const second = service.merchantPaymentId;
      await service.payWithInstitution('hsbc');
      expect(t.paymentRequests.map((p) => p.merchantPaymentId)).toEqual([first, second]);
      expect(used).toEqual([first, second]);
      expect(second).not.toBe(first);
      // Already renewed when payment_initiated reaches the page.
      expect(nextAtEvent).toEqual([second, service.merchantPaymentId]);
      expect(new Set([first, second, service.merchantPaymentId]).size).toBe(3);
    });

    it('with generateMerchantPaymentId, is the generated id already before injectComponent, and that id is sent', async () => {
      let n = 0;
      const t = fakeTransport();
      const { service } = setup({ generateMerchantPaymentId: () => `order-7-${++n}` }, t);
      expect(service.merchantPaymentId).toBe('order-7-1');
      service.createPayment(PAYMENT);
      element();
      service.injectComponent('service-component');
      expect(service.merchantPaymentId).toBe('order-7-1');
      await service.payWithInstitution('monzo');
      expect(t.paymentRequests.map((p) => p.merchantPaymentId)).toEqual(['order-7-1']);
      expect(service.merchantPaymentId).toBe('order-7-2');
    });

    it('takes the merchant’s own id from createPayment, and is read-only', () => {
      const { service } = setup();
      service.createPayment({ ...PAYMENT, merchantPaymentId: 'order-1042-attempt-1' });
      expect(service.merchantPaymentId).toBe('order-1042-attempt-1');
      expect(() => {
        (service as { merchantPaymentId: string }).merchantPaymentId = 'x';
      }).toThrow(TypeError);
    });
  });

  describe('options', () => {
    it('never throws from the constructor: invalid options are reported once injected', () => {
      const { service, log } = setup({ environment: 'PROD' as 'LIVE' });
      expect(log.entries).toEqual([]);
      element();
      service.injectComponent('service-component');
      expect(log.entries).toEqual([
        'event:mounted',
        'error:fetchInstitutions:Input validation error: field=[environment], value=[PROD], error=[must be SANDBOX or LIVE]',
      ]);
    });

    it('without any options, the shopper is told plainly and errorConsumer-less pages get the console', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const service = new vanilla.Service(undefined as unknown as ServiceOptions);
      const page = element();
      service.injectComponent('service-component');
      expect(await within(page).findByText(DEFAULT_MESSAGES.unavailable)).toBeInTheDocument();
      expect(within(page).getByRole('button', { name: 'Pay' })).toBeDisabled();
      expect(developerTextIn(page)).toBeUndefined();
      expect(warn).toHaveBeenCalledWith(
        'servicepay: [fetchInstitutions] Input validation error: field=[environment], value=[undefined], error=[must be SANDBOX or LIVE]',
      );
      await expect(service.payWithInstitution('monzo')).resolves.toBeUndefined();
    });

    it('an options object whose getters throw is refused the same way, not thrown', () => {
      const hostile = new Proxy({} as ServiceOptions, {
        ownKeys() {
          throw new Error('no keys for you');
        },
      });
      const service = new vanilla.Service(hostile);
      const page = element();
      expect(() => service.injectComponent('service-component')).not.toThrow();
      expect(within(page).getByRole('group')).toHaveAttribute('data-state', 'error');
    });
  });

  it('has methods that work detached from the instance (button.onclick = service.toggleButton)', () => {
    const { service, log } = setup();
    const { toggleButton, createPayment, openInstitutionSelection } = service;
    toggleButton(false);
    expect(createPayment(PAYMENT)).toBe(true);
    openInstitutionSelection();
    expect(log.entries).toEqual(['event:pay_button_disabled']);
  });
});
