import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateOptions } from '../../src/core';
import type { SessionOptions } from '../../src/core';
import { APP_ID, BANK, VALID_PAYMENT, mountReady, setup } from './support/harness';

// Options arrive from plain-JS pages too, so each one is checked at run time (spec 2.2) and
// reported to errorConsumer at location fetchInstitutions when the component mounts.

afterEach(() => {
  vi.unstubAllGlobals();
});

const invalid: [string, Record<string, unknown>, string][] = [
  [
    'an unknown environment',
    { environment: 'PROD' },
    'Input validation error: field=[environment], value=[PROD], error=[must be SANDBOX or LIVE]',
  ],
  [
    'a lower-case environment',
    { environment: 'sandbox' },
    'Input validation error: field=[environment], value=[sandbox], error=[must be SANDBOX or LIVE]',
  ],
  [
    'a missing environment',
    { environment: undefined },
    'Input validation error: field=[environment], value=[undefined], error=[must be SANDBOX or LIVE]',
  ],
  [
    'an applicationId that is not a UUID',
    { applicationId: 'merchant-1042' },
    'Input validation error: field=[applicationId], value=[merchant-1042], error=[must be a UUID]',
  ],
  [
    'a UUID with a character too few',
    { applicationId: '3f2b8c1e-7d4a-4e2b-9c51-0a6d8e4f1b2' },
    'Input validation error: field=[applicationId], value=[3f2b8c1e-7d4a-4e2b-9c51-0a6d8e4f1b2], error=[must be a UUID]',
  ],
  [
    'a UUID wrapped in braces',
    { applicationId: `{${APP_ID}}` },
    `Input validation error: field=[applicationId], value=[{${APP_ID}}], error=[must be a UUID]`,
  ],
  [
    'a missing applicationId',
    { applicationId: undefined },
    'Input validation error: field=[applicationId], value=[undefined], error=[must be a UUID]',
  ],
  [
    'an unknown agentType',
    { agentType: 'TABLET' },
    'Input validation error: field=[agentType], value=[TABLET], error=[must be one of WEB_BROWSER, MOBILE_APPLICATION]',
  ],
  [
    'a non-boolean disablePayButton',
    { disablePayButton: 'yes' },
    'Input validation error: field=[disablePayButton], value=[yes], error=[must be a boolean]',
  ],
  [
    'a non-boolean isWebView',
    { isWebView: 1 },
    'Input validation error: field=[isWebView], value=[1], error=[must be a boolean]',
  ],
  [
    'a non-string title',
    { title: 42 },
    'Input validation error: field=[title], value=[42], error=[must be a string]',
  ],
  [
    'a baseUrl without a scheme',
    { baseUrl: 'localhost:4010' },
    'Input validation error: field=[baseUrl], value=[localhost:4010], error=[must be an absolute http(s) URL]',
  ],
  [
    'a transport without its methods',
    { transport: {} },
    'Input validation error: field=[transport], value=[{}], error=[must have fetchInstitutions and initiatePayment functions]',
  ],
];

describe('component options (spec 2.2)', () => {
  it.each(invalid)(
    'reports %s at fetchInstitutions on mount and fetches nothing',
    (_name, patch, expected) => {
      const network = vi.fn();
      vi.stubGlobal('fetch', network);
      const { session, transport, log } = setup(patch as Partial<SessionOptions>);

      // Creating a session has no side effects: the error is reported once mounted.
      expect(log.entries).toEqual([]);
      session.mount();

      expect(log.entries).toEqual(['event:mounted', `error:fetchInstitutions:${expected}`]);
      expect(transport.calls).toEqual([]);
      expect(network).not.toHaveBeenCalled();
      expect(session.getState()).toMatchObject({
        status: 'error',
        institutionsState: 'failed',
        error: { location: 'fetchInstitutions', error: expected },
      });
    },
  );

  it('keeps refusing to fetch when retry() is called with invalid options', () => {
    const { session, transport, log } = setup({ environment: 'PROD' as 'LIVE' });
    session.mount();
    log.clear();

    session.retry();

    expect(log.entries).toEqual([
      'error:fetchInstitutions:Input validation error: field=[environment], value=[PROD], error=[must be SANDBOX or LIVE]',
    ]);
    expect(transport.calls).toEqual([]);
  });

  it('accepts both environments and an upper-case UUID, and fetches with them', async () => {
    const upper = APP_ID.toUpperCase();
    for (const environment of ['SANDBOX', 'LIVE'] as const) {
      const { session, transport, log } = setup({ environment, applicationId: upper });
      session.mount();
      await vi.waitFor(() => expect(log.events()).toEqual(['mounted', 'institutions_fetched']));
      expect(log.errors()).toEqual([]);
      expect(transport.fetchCalls.map((c) => c.request)).toEqual([
        { environment, applicationId: upper },
      ]);
    }
  });

  it('starts with the Pay button enabled and no error', () => {
    const { session } = setup();
    expect(session.getState()).toMatchObject({
      status: 'idle',
      payButtonEnabled: true,
      prepared: null,
      error: null,
    });
  });

  it('validateOptions names the first invalid field and accepts valid options', () => {
    expect(validateOptions({ environment: 'SANDBOX', applicationId: APP_ID })).toBeUndefined();
    expect(validateOptions('SANDBOX')).toEqual({
      field: 'options',
      value: 'SANDBOX',
      reason: 'must be an object',
    });
    expect(validateOptions({ environment: 'LIVE', applicationId: 'x' })).toEqual({
      field: 'applicationId',
      value: 'x',
      reason: 'must be a UUID',
    });
  });

  it('setOptions with invalid options reports the error and keeps the previous options', async () => {
    const { session, transport, log, options } = setup();
    await mountReady(session);
    log.clear();

    session.setOptions({ ...options, environment: 'PROD' as 'LIVE' });
    expect(log.entries).toEqual([
      'error:fetchInstitutions:Input validation error: field=[environment], value=[PROD], error=[must be SANDBOX or LIVE]',
    ]);

    session.createPayment(VALID_PAYMENT);
    await session.payWithInstitution(BANK);
    expect(transport.paymentRequests).toHaveLength(1);
    expect(transport.paymentRequests[0]).toMatchObject({
      environment: 'SANDBOX',
      applicationId: APP_ID,
    });
  });
});
