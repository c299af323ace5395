import { describe, expect, it, vi } from 'vitest';
import { ServiceEvent } from '../../src/core';
import { defaultInitiatedPayment, reply } from '../helpers/fake-transport';
import {
  APP_ID,
  BANK,
  VALID_PAYMENT,
  mountReady,
  setup,
  statusTrail,
  until,
} from './support/harness';
import { OPENED_IDS } from '../helpers/opened-ids';

const FIRST_URL = defaultInitiatedPayment(1).authorisationUrl;

describe('a whole payment', () => {
  it('emits the spec 6.2 events in order and opens the authorisation URL once', async () => {
    const { session, transport, log } = setup();
    const trail = statusTrail(session);

    session.mount();
    await until(session, (s) => s.institutionsState === 'ready');
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    await session.payWithInstitution(BANK);

    expect(log.entries).toEqual([
      'event:mounted',
      'event:institutions_fetched',
      'event:bank_selection_opened',
      'event:payment_initiated',
      'event:institution_selected',
      `openUrl:${FIRST_URL}`,
      'event:awaiting_authorisation',
    ]);
    expect(log.openUrl).toHaveBeenCalledTimes(1);
    expect(log.openUrl).toHaveBeenCalledWith(FIRST_URL, OPENED_IDS);
    expect(trail).toEqual(['idle', 'selecting', 'initiating', 'awaiting-authorisation']);
    expect(transport.methods).toEqual(['fetchInstitutions', 'initiatePayment']);
    expect(transport.paymentRequests[0]).toEqual({
      environment: 'SANDBOX',
      applicationId: APP_ID,
      institutionId: BANK,
      paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
      merchantPaymentId: expect.any(String),
      agentType: 'WEB_BROWSER',
    });
    expect(session.getState()).toMatchObject({
      status: 'awaiting-authorisation',
      listState: 'closed',
      selectedInstitution: { id: BANK, name: 'Monzo' },
      error: null,
    });
  });

  it('is ready for another payment after awaiting_authorisation', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    await session.payWithInstitution(BANK);
    log.clear();

    session.createPayment({ amount: 30, paymentReference: 'ORDER-1043' });
    session.openInstitutionSelection();
    await session.payWithInstitution('ob-barclays');

    expect(log.entries).toEqual([
      'event:bank_selection_opened',
      'event:payment_initiated',
      'event:institution_selected',
      `openUrl:${defaultInitiatedPayment(2).authorisationUrl}`,
      'event:awaiting_authorisation',
    ]);
    expect(transport.paymentRequests.map((r) => [r.institutionId, r.paymentRequest])).toEqual([
      [BANK, { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' }],
      ['ob-barclays', { amount: 30, currency: 'GBP', reference: 'ORDER-1043' }],
    ]);
  });

  it('can pay again with the same prepared payment without opening the list', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    await session.payWithInstitution(BANK);
    expect(transport.paymentCalls).toHaveLength(2);
  });

  it('exports the eight event names of spec 6.2 and the two error locations', async () => {
    expect(ServiceEvent).toEqual({
      MOUNTED: 'mounted',
      INSTITUTIONS_FETCHED: 'institutions_fetched',
      PAY_BUTTON_ENABLED: 'pay_button_enabled',
      PAY_BUTTON_DISABLED: 'pay_button_disabled',
      BANK_SELECTION_OPENED: 'bank_selection_opened',
      INSTITUTION_SELECTED: 'institution_selected',
      PAYMENT_INITIATED: 'payment_initiated',
      AWAITING_AUTHORISATION: 'awaiting_authorisation',
    });
    const { ErrorLocation } = await import('../../src/core');
    expect(ErrorLocation).toEqual({
      PAY_WITH_BANK_INSTITUTION: 'payWithBankInstitution',
      FETCH_INSTITUTIONS: 'fetchInstitutions',
    });
  });
});

describe('one payment in flight at a time', () => {
  it('a double click sends one initiatePayment', async () => {
    const { session, transport, log } = setup({}, { initiatePayment: reply.defer() });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    log.clear();

    const first = session.payWithInstitution(BANK);
    const second = session.payWithInstitution(BANK);
    const third = session.payWithInstitution('ob-hsbc');
    await second;
    await third;
    expect(transport.paymentCalls).toHaveLength(1);
    expect(session.getState().status).toBe('initiating');

    transport.paymentCalls[0]!.resolve();
    await first;

    expect(transport.paymentCalls).toHaveLength(1);
    expect(log.entries).toEqual([
      'event:payment_initiated',
      'event:institution_selected',
      `openUrl:${FIRST_URL}`,
      'event:awaiting_authorisation',
    ]);
  });

  it('a repeated payWithInstitution while initiating sends nothing and reports nothing', async () => {
    const { session, transport, log } = setup({}, { initiatePayment: reply.defer() });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    const first = session.payWithInstitution(BANK);
    log.clear();

    for (let i = 0; i < 5; i++) await session.payWithInstitution(BANK);

    expect(transport.paymentCalls).toHaveLength(1);
    expect(log.entries).toEqual([]);
    transport.paymentCalls[0]!.resolve();
    await first;
    expect(session.getState().status).toBe('awaiting-authorisation');
  });
});

describe('openInstitutionSelection before the institutions arrive', () => {
  it('marks the list pending and opens it when the fetch completes', async () => {
    const { session, transport, log } = setup({}, { fetchInstitutions: reply.defer() });
    session.mount();
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();

    expect(session.getState()).toMatchObject({ listState: 'pending', status: 'loading' });
    expect(log.events()).toEqual(['mounted']);

    transport.fetchCalls[0]!.resolve();
    await until(session, (s) => s.institutionsState === 'ready');

    expect(log.events()).toEqual(['mounted', 'institutions_fetched', 'bank_selection_opened']);
    expect(session.getState()).toMatchObject({ listState: 'open', status: 'selecting' });
    expect(session.getState().institutions.map((i) => i.name)).toEqual([
      'Barclays',
      'HSBC UK',
      'Lloyds Bank',
      'Monzo',
      'NatWest',
      'Nationwide',
    ]);
    expect(transport.fetchCalls).toHaveLength(1);
  });

  it('opening twice before the fetch completes emits bank_selection_opened once', async () => {
    const { session, transport, log } = setup({}, { fetchInstitutions: reply.defer() });
    session.mount();
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    session.openInstitutionSelection();
    transport.fetchCalls[0]!.resolve();
    await until(session, (s) => s.listState === 'open');
    session.openInstitutionSelection();
    expect(log.events()).toEqual(['mounted', 'institutions_fetched', 'bank_selection_opened']);
  });

  it('closeInstitutionSelection closes the list without an event', async () => {
    const { session, log } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    session.closeInstitutionSelection();
    expect(session.getState()).toMatchObject({ listState: 'closed', status: 'idle' });
    expect(log.events()).toEqual(['mounted', 'institutions_fetched', 'bank_selection_opened']);
  });
});

describe('a failed institutions fetch', () => {
  it('reports the transport message at fetchInstitutions and can be retried', async () => {
    const { session, transport, log } = setup();
    transport.replyOnce('fetchInstitutions', reply.fail('Service temporarily unavailable'));
    session.mount();
    await until(session, (s) => s.institutionsState === 'failed');

    expect(log.entries).toEqual([
      'event:mounted',
      'error:fetchInstitutions:Service temporarily unavailable',
    ]);
    expect(session.getState()).toMatchObject({
      status: 'error',
      error: { location: 'fetchInstitutions', error: 'Service temporarily unavailable' },
    });

    session.retry();
    expect(session.getState().institutionsState).toBe('loading');
    await until(session, (s) => s.institutionsState === 'ready');

    expect(transport.fetchCalls).toHaveLength(2);
    expect(log.events()).toEqual(['mounted', 'institutions_fetched']);
    expect(session.getState()).toMatchObject({ status: 'idle', error: null });

    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    await session.payWithInstitution(BANK);
    expect(log.events().slice(-4)).toEqual([
      'bank_selection_opened',
      'payment_initiated',
      'institution_selected',
      'awaiting_authorisation',
    ]);
  });

  it('retry() does nothing unless the fetch failed', async () => {
    const { session, transport } = setup();
    await mountReady(session);
    session.retry();
    expect(transport.fetchCalls).toHaveLength(1);
  });

  it('openInstitutionSelection after a failure refetches and opens the list', async () => {
    const { session, transport, log } = setup();
    transport.replyOnce('fetchInstitutions', reply.fail('Bad gateway'));
    session.mount();
    await until(session, (s) => s.institutionsState === 'failed');
    session.createPayment(VALID_PAYMENT);

    session.openInstitutionSelection();
    await until(session, (s) => s.listState === 'open');

    expect(transport.fetchCalls).toHaveLength(2);
    expect(log.entries).toEqual([
      'event:mounted',
      'error:fetchInstitutions:Bad gateway',
      'event:institutions_fetched',
      'event:bank_selection_opened',
    ]);
  });
});

describe('agentType', () => {
  async function agentSent(option?: 'WEB_BROWSER' | 'MOBILE_APPLICATION', perPayment?: string) {
    const { session, transport } = setup(option ? { agentType: option } : {});
    await mountReady(session);
    session.createPayment(perPayment ? { ...VALID_PAYMENT, agentType: perPayment } : VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    return transport.paymentRequests.map((r) => r.agentType);
  }

  it('defaults to WEB_BROWSER', async () => {
    expect(await agentSent()).toEqual(['WEB_BROWSER']);
  });

  it('comes from the option', async () => {
    expect(await agentSent('MOBILE_APPLICATION')).toEqual(['MOBILE_APPLICATION']);
  });

  it('is overridden per payment, both ways', async () => {
    expect(await agentSent('WEB_BROWSER', 'MOBILE_APPLICATION')).toEqual(['MOBILE_APPLICATION']);
    expect(await agentSent('MOBILE_APPLICATION', 'WEB_BROWSER')).toEqual(['WEB_BROWSER']);
  });

  it('the override applies to its payment only', async () => {
    const { session, transport } = setup({ agentType: 'WEB_BROWSER' });
    await mountReady(session);
    session.createPayment({ ...VALID_PAYMENT, agentType: 'MOBILE_APPLICATION' });
    await session.payWithInstitution(BANK);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(transport.paymentRequests.map((r) => r.agentType)).toEqual([
      'MOBILE_APPLICATION',
      'WEB_BROWSER',
    ]);
  });
});

describe('the authorisation URL', () => {
  it.each([
    ['a javascript: URL', 'javascript:alert(document.cookie)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative URL', '/authorise?payment=1'],
    ['an empty URL', ''],
  ])('refuses %s: reported, never opened', async (_name, authorisationUrl) => {
    const { session, transport, log } = setup();
    transport.replyOnce('initiatePayment', reply.resolve({ paymentId: 'p-1', authorisationUrl }));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    log.clear();

    await session.payWithInstitution(BANK);

    expect(log.openUrl).not.toHaveBeenCalled();
    expect(log.entries).toEqual([
      'event:payment_initiated',
      'event:institution_selected',
      `error:payWithBankInstitution:servicepay: refused to open a non-http(s) authorisation URL: ${authorisationUrl}`,
    ]);
    expect(session.getState()).toMatchObject({ paymentState: 'none', status: 'selecting' });
  });

  it('opens plain http URLs too (the local sandbox)', async () => {
    const { session, transport, log } = setup();
    const url = 'http://localhost:4010/bank/authorise?payment=p-1';
    transport.replyOnce(
      'initiatePayment',
      reply.resolve({ paymentId: 'p-1', authorisationUrl: url }),
    );
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(log.openedUrls()).toEqual([url]);
  });

  it('reports an openUrl that throws, and stays usable', async () => {
    const openUrl = vi.fn((_url: string): void => {
      throw new Error('Navigation blocked by the page');
    });
    const { session, transport, log } = setup({ openUrl });
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    log.clear();

    await session.payWithInstitution(BANK);

    expect(openUrl).toHaveBeenCalledTimes(1);
    expect(log.entries).toEqual([
      'event:payment_initiated',
      'event:institution_selected',
      'error:payWithBankInstitution:servicepay: could not open the authorisation URL: Navigation blocked by the page',
    ]);
    expect(session.getState().paymentState).toBe('none');

    openUrl.mockImplementation(() => undefined);
    await session.payWithInstitution(BANK);
    expect(transport.paymentCalls).toHaveLength(2);
    expect(log.events().at(-1)).toBe('awaiting_authorisation');
  });

  it('reports a failed initiatePayment with the transport message', async () => {
    const { session, transport, log } = setup();
    transport.replyOnce('initiatePayment', reply.fail('Institution ob-monzo is unavailable'));
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    session.openInstitutionSelection();
    log.clear();

    await session.payWithInstitution(BANK);

    expect(log.entries).toEqual([
      'event:payment_initiated',
      'event:institution_selected',
      'error:payWithBankInstitution:Institution ob-monzo is unavailable',
    ]);
    expect(session.getState()).toMatchObject({
      paymentState: 'none',
      status: 'selecting',
      error: { location: 'payWithBankInstitution', error: 'Institution ob-monzo is unavailable' },
    });
    expect(log.openUrl).not.toHaveBeenCalled();
  });
});

describe('payWithInstitution arguments', () => {
  it('reports an unknown institution once the list is known, and sends nothing', async () => {
    const { session, transport, log } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    log.clear();
    await session.payWithInstitution('ob-unknown');
    expect(log.entries).toEqual([
      'error:payWithBankInstitution:servicepay: unknown institution "ob-unknown"',
    ]);
    expect(transport.paymentCalls).toEqual([]);
  });

  it.each([[undefined], [''], [42]])('reports a non-id %j and sends nothing', async (id) => {
    const { session, transport, log } = setup();
    await mountReady(session);
    session.createPayment(VALID_PAYMENT);
    log.clear();
    await session.payWithInstitution(id);
    expect(log.entries).toEqual([
      `error:payWithBankInstitution:servicepay: payWithInstitution expects an institution id, got ${String(id)}`,
    ]);
    expect(transport.paymentCalls).toEqual([]);
  });
});

describe('toggleButton', () => {
  it('emits pay_button_disabled / pay_button_enabled and sets payButtonEnabled', () => {
    const { session, log } = setup();
    session.mount();
    log.clear();

    session.toggleButton(false);
    expect(session.getState().payButtonEnabled).toBe(false);
    session.toggleButton(true);
    expect(session.getState().payButtonEnabled).toBe(true);

    expect(log.entries).toEqual(['event:pay_button_disabled', 'event:pay_button_enabled']);
  });

  it('starts disabled with disablePayButton, without an event, until toggleButton(true)', () => {
    const { session, log } = setup({ disablePayButton: true });
    session.mount();
    expect(session.getState().payButtonEnabled).toBe(false);
    expect(log.events()).toEqual(['mounted']);

    session.toggleButton(true);
    expect(session.getState().payButtonEnabled).toBe(true);
    expect(log.events()).toEqual(['mounted', 'pay_button_enabled']);
  });

  it.each([['true'], [1], [undefined], [null]])(
    'reports a non-boolean %j and changes nothing',
    (value) => {
      const { session, log } = setup();
      session.mount();
      log.clear();
      session.toggleButton(value);
      expect(session.getState().payButtonEnabled).toBe(true);
      expect(log.entries).toEqual([
        `error:payWithBankInstitution:servicepay: toggleButton expects true or false, got ${String(value)}`,
      ]);
    },
  );
});
