// servicepay/hosted's link to the service's component objects (src/hosted/link.ts), in jsdom,
// on a window.Service of the test's that records every call: the element it attaches to, the
// merchantPaymentId of each payment by core's rules (the session's), the calls made before
// the script is ready, and what reaches the merchant's callbacks. The same rules in a real
// Chromium, on the real script: test/e2e/hosted.test.ts and test/e2e/element-capture.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLink } from '../../src/hosted/link';
import type { LinkCallbacks } from '../../src/hosted/link';
import type { ServiceConstructor, ServiceInstance, ServiceOptions } from '../../src/hosted/index';
import type { PaymentArgs } from '../../src/core/index';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PAYMENT = { amount: 12.5, paymentReference: 'ORDER-1042' };
const OPTIONS: ServiceOptions = { environment: 'SANDBOX', applicationId: 'app' };

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

/** A window.Service that records its calls, and the instances it made (to emit from). */
function recordingService() {
  const calls: unknown[][] = [];
  const instances: { options: ServiceOptions; emit(event: string): void }[] = [];
  class Service implements ServiceInstance {
    readonly n: number;
    constructor(readonly options: ServiceOptions) {
      this.n = instances.push({
        options,
        emit: (event) => options.eventConsumer?.(event as never),
      });
      calls.push([this.n, 'new']);
    }
    createPayment(args: PaymentArgs) {
      calls.push([this.n, 'createPayment', args.merchantPaymentId]);
    }
    injectComponent(id: string) {
      const element = document.getElementById(id)!;
      calls.push([this.n, 'injectComponent', id, element.childNodes.length]);
      element.append(Object.assign(document.createElement('button'), { textContent: 'Pay' }));
    }
    toggleButton(enabled: boolean) {
      calls.push([this.n, 'toggleButton', enabled]);
    }
    payWithInstitution(institutionId: string) {
      calls.push([this.n, 'payWithInstitution', institutionId]);
    }
    openInstitutionSelection() {
      calls.push([this.n, 'openInstitutionSelection']);
    }
  }
  return { Service: Service as ServiceConstructor, calls, instances };
}

/** A link and its callbacks' log, as one mounted <ServicePay> holds them. */
function setup(callbacks: Partial<LinkCallbacks> = {}) {
  const log: unknown[][] = [];
  const link = createLink(() => ({
    eventConsumer: (event) => log.push(['event', event]),
    errorConsumer: (error) => log.push(['error', error.location, error.error]),
    onPaymentInitiated: ({ merchantPaymentId }) => log.push(['initiated', merchantPaymentId]),
    ...callbacks,
  }));
  return { link, log };
}

/** The component's own element, in the page. */
function element(): HTMLElement {
  const div = document.createElement('div');
  document.body.append(div);
  return div;
}

describe('the element the service injects into', () => {
  it('is its own: a random id set on it, kept for every attach, and emptied before each injection', () => {
    const { Service, calls } = recordingService();
    const { link } = setup();
    const own = element();
    own.textContent = 'left over';
    const detach = link.attach(Service, own, OPTIONS);
    expect(own.id).toMatch(/^servicepay-[0-9a-f-]{36}$/);
    const id = own.id;
    expect(calls).toEqual([
      [1, 'new'],
      [1, 'injectComponent', id, 0],
    ]);
    detach();
    expect(own.innerHTML).toBe('');
    link.attach(Service, own, OPTIONS);
    expect(own.id).toBe(id);
    expect(calls.at(-1)).toEqual([2, 'injectComponent', id, 0]);
  });

  it('is refused, and errorConsumer told, when its id finds another element first', () => {
    // A predictable id (a random source that is not), planted above it in a link.
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000000');
    const link$ = document.createElement('a');
    link$.href = '/phish';
    link$.innerHTML = '<div id="servicepay-00000000-0000-4000-8000-000000000000"></div>';
    document.body.append(link$);
    const { Service, calls } = recordingService();
    const { link, log } = setup();
    link.attach(Service, element(), OPTIONS);
    expect(calls).toEqual([]);
    expect(link$.querySelector('button')).toBeNull();
    expect(log).toEqual([
      [
        'error',
        'fetchInstitutions',
        "servicepay: another element in the page has the id of <ServicePay>'s own element (servicepay-00000000-0000-4000-8000-000000000000), or that element is not in the document: the service's component is not injected, so that it cannot be drawn inside content it does not own",
      ],
    ]);
  });

  it('is refused when it is not in the document', () => {
    const { Service, calls } = recordingService();
    const { link, log } = setup();
    link.attach(Service, document.createElement('div'), OPTIONS);
    expect(calls).toEqual([]);
    expect(log).toHaveLength(1);
    expect(log[0]?.[1]).toBe('fetchInstitutions');
  });
});

describe('the merchantPaymentId of each payment (spec 4.4 rule 4, by the session’s rules)', () => {
  it('renews it once per initiation (the deprecated alias is the same one) and never reuses one a payment used', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { Service, calls, instances } = recordingService();
    const { link, log } = setup();
    link.handle.createPayment({ ...PAYMENT, merchantPaymentId: 'order-1042' });
    link.attach(Service, element(), OPTIONS);
    instances[0]!.emit('payment_initiated');
    instances[0]!.emit('institution_selected');
    // The merchant gives the used id again: replaced, with a development warning.
    link.handle.createPayment({ ...PAYMENT, merchantPaymentId: 'order-1042' });
    const ids = calls.filter(([, name]) => name == 'createPayment').map(([, , id]) => id);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe('order-1042');
    expect(ids[1]).toMatch(UUID);
    expect(ids[2]).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
    expect(log.filter(([kind]) => kind == 'initiated')).toEqual([['initiated', 'order-1042']]);
    expect(warn).toHaveBeenCalledExactlyOnceWith(
      'servicepay: merchantPaymentId "order-1042" was already used by a payment; a new one is generated (spec 4.4 rule 4).',
    );
  });

  it('takes the generator’s ids; one outside the rule or used already is replaced (a development warning), one that throws is logged', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const given = ['shop-1', '  ', 'shop-1', 'throw', 'shop-2'];
    const generateMerchantPaymentId = () => {
      const next = given.shift()!;
      if (next == 'throw') throw new Error('generator broke');
      return next;
    };
    const { Service, calls, instances } = recordingService();
    const { link, log } = setup({ generateMerchantPaymentId });
    link.handle.createPayment(PAYMENT);
    link.attach(Service, element(), OPTIONS);
    for (let i = 0; i < 4; i++) instances[0]!.emit('payment_initiated');
    const ids = calls.filter(([, name]) => name == 'createPayment').map(([, , id]) => id);
    expect(ids[0]).toBe('shop-1');
    expect(ids[1]).toMatch(UUID); // '  '
    expect(ids[2]).toMatch(UUID); // shop-1 again
    expect(ids[3]).toMatch(UUID); // threw
    expect(ids[4]).toBe('shop-2');
    expect(new Set(ids).size).toBe(5);
    expect(warn.mock.calls).toEqual([
      [
        'servicepay: generateMerchantPaymentId gave "  ", which must be a non-blank string of at most 200 characters without control characters: a random id is used',
      ],
      [
        'servicepay: merchantPaymentId "shop-1" was already used by a payment; a new one is generated (spec 4.4 rule 4).',
      ],
    ]);
    expect(error).toHaveBeenCalledExactlyOnceWith(
      'servicepay: generateMerchantPaymentId threw',
      expect.any(Error),
    );
    // None of it is the shopper's or the service's business.
    expect(log.filter(([kind]) => kind == 'error')).toEqual([]);
  });
});

describe('calls and callbacks', () => {
  it('applies the handle’s calls made before the script is ready, in order, once it is; drops them if it fails', () => {
    const { Service, calls } = recordingService();
    const { link } = setup();
    link.handle.createPayment(PAYMENT);
    link.handle.toggleButton(false);
    link.handle.openInstitutionSelection();
    link.handle.payWithInstitution('ob-monzo');
    link.attach(Service, element(), OPTIONS);
    expect(calls.map(([, name, arg]) => (typeof arg == 'string' ? name : [name, arg]))).toEqual([
      ['new', undefined],
      'createPayment',
      'injectComponent',
      ['toggleButton', false],
      ['openInstitutionSelection', undefined],
      'payWithInstitution',
    ]);

    const dropped = recordingService();
    const other = setup();
    other.link.handle.openInstitutionSelection();
    other.link.drop();
    other.link.attach(dropped.Service, element(), OPTIONS);
    expect(dropped.calls.map(([, name]) => name)).toEqual(['new', 'injectComponent']);
  });

  it('keeps a removed instance’s events from every callback, and reports what the service’s component throws', () => {
    const { Service, instances } = recordingService();
    const { link, log } = setup();
    const own = element();
    const detach = link.attach(Service, own, OPTIONS);
    instances[0]!.emit('mounted');
    detach();
    instances[0]!.emit('institutions_fetched');
    instances[0]!.options.errorConsumer?.({ location: 'fetchInstitutions', error: 'late' });
    expect(log).toEqual([['event', 'mounted']]);

    class Throwing {
      constructor() {
        throw new Error('no applicationId');
      }
    }
    link.attach(Throwing as unknown as ServiceConstructor, own, OPTIONS);
    expect(log.at(-1)).toEqual([
      'error',
      'fetchInstitutions',
      'servicepay: new Service(options) threw: no applicationId',
    ]);
  });
});
