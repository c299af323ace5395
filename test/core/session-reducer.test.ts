import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../src/core/session-reducer';
import type { SessionEvent } from '../../src/core/session-reducer';
import * as on from '../../src/core/session-events';
import type { Handoff, Institution, PreparedPayment, SessionState } from '../../src/core/index';

// The session's transitions as data (issues 34 and 48): every event of the reducer, state +
// event -> next state, with no session, no transport and no timers. An event the state does not
// take leaves the very same state (nothing re-renders, no subscriber hears it, the shell's
// effect does not follow): those rows have no changes, and say "refused". The shell's effects
// (fetch, timers, storage, opening the bank, callbacks) are proved by the flow tests beside
// this one (session.*.test.ts).

const BANK: Institution = { id: 'ob-monzo', name: 'Monzo' };
const PREPARED: PreparedPayment = {
  amount: 12.5,
  reference: 'ORDER-1042',
  merchantPaymentId: undefined,
  metadata: undefined,
  agentType: undefined,
};
const HANDOFF: Handoff = {
  url: 'https://bank.example/authorise',
  paymentId: 'pay-1',
  merchantPaymentId: 'order-1',
  institution: BANK,
};
const PAY_ERROR = { location: 'payWithBankInstitution', error: 'servicepay: declined' } as const;
const LOAD_ERROR = { location: 'fetchInstitutions', error: 'servicepay: offline' } as const;

const idle = initialState('id-1', true, '');
const at = (changes: Partial<SessionState>): SessionState => ({ ...idle, ...changes });
const ready = at({ institutionsState: 'ready', institutions: [BANK], prepared: PREPARED });

/**
 * [what happens, state before, event, the fields that change (with the derived status); none:
 * refused]
 */
const table: [string, SessionState, SessionEvent, Partial<SessionState>?][] = [
  [
    'load: a fetch starts, earlier trouble cleared',
    at({ institutionsState: 'failed', error: LOAD_ERROR, problem: 'load-failed', slow: true }),
    [on.load],
    { institutionsState: 'loading', error: null, problem: null, slow: false, status: 'idle' },
  ],
  [
    'load while slow (a retry): the load starts again',
    at({ institutionsState: 'loading', slow: true }),
    [on.load],
    { slow: false },
  ],
  [
    'load while a load is under way, not slow: refused',
    at({ institutionsState: 'loading' }),
    [on.load],
  ],
  ['load with the banks here: refused', ready, [on.load]],
  ['slow', at({ institutionsState: 'loading' }), [on.slow], { slow: true }],
  ['slow when slow already: refused', at({ institutionsState: 'loading', slow: true }), [on.slow]],
  ['slow after the load ended: refused', ready, [on.slow]],
  [
    'loaded while the step waits for the banks: it opens',
    at({ institutionsState: 'loading', listState: 'pending', slow: true }),
    [on.loaded, [BANK]],
    {
      institutionsState: 'ready',
      institutions: [BANK],
      listState: 'open',
      slow: false,
      status: 'selecting',
    },
  ],
  [
    'loaded with the step closed: it stays closed',
    at({ institutionsState: 'loading' }),
    [on.loaded, [BANK]],
    { institutionsState: 'ready', institutions: [BANK], status: 'idle' },
  ],
  ['loaded with no load under way: refused', ready, [on.loaded, []]],
  [
    'loadFailed',
    at({ institutionsState: 'loading', slow: true }),
    [on.loadFailed],
    { institutionsState: 'failed', slow: false, status: 'error' },
  ],
  ['loadFailed with no load under way: refused', idle, [on.loadFailed]],
  [
    'report with a problem: the shopper is told',
    idle,
    [on.report, LOAD_ERROR, 'load-failed'],
    { error: LOAD_ERROR, problem: 'load-failed' },
  ],
  [
    'report without a problem: the shopper’s sentence stays',
    at({ problem: 'unavailable' }),
    [on.report, PAY_ERROR],
    { error: PAY_ERROR },
  ],
  [
    'report with problem null: the sentence is cleared',
    at({ problem: 'load-failed' }),
    [on.report, LOAD_ERROR, null],
    { error: LOAD_ERROR, problem: null },
  ],
  [
    'prepare: clears a wrong call’s error and the refusal',
    at({ paymentInvalid: true, error: PAY_ERROR }),
    [on.prepare, PREPARED, 'order-7'],
    { prepared: PREPARED, merchantPaymentId: 'order-7', paymentInvalid: false, error: null },
  ],
  [
    'prepare: a load error stays',
    at({ error: LOAD_ERROR }),
    [on.prepare, PREPARED, 'id-1'],
    { prepared: PREPARED },
  ],
  [
    'refuse: the stale payment is dropped',
    at({ prepared: PREPARED }),
    [on.refuse],
    { prepared: null, paymentInvalid: true },
  ],
  ['id', idle, [on.id, 'order-9'], { merchantPaymentId: 'order-9' }],
  ['toggle', idle, [on.toggle, false], { payButtonEnabled: false }],
  [
    'open with the banks here, leaving a handoff behind',
    {
      ...ready,
      paymentState: 'awaiting-authorisation',
      handoff: HANDOFF,
      status: 'awaiting-authorisation',
    },
    [on.open],
    { listState: 'open', handoff: null, status: 'selecting' },
  ],
  [
    'open before the banks: pending',
    at({ institutionsState: 'loading', prepared: PREPARED }),
    [on.open],
    { listState: 'pending', status: 'loading' },
  ],
  ['open without a payment to pay: refused', at({ institutionsState: 'ready' }), [on.open]],
  ['open when open: refused', { ...ready, listState: 'open', status: 'selecting' }, [on.open]],
  [
    'close: a failed payment’s sentence goes with the step',
    { ...ready, listState: 'open', problem: 'pay-failed', status: 'selecting' },
    [on.close],
    { listState: 'closed', problem: null, status: 'idle' },
  ],
  [
    'close: a load problem stays',
    at({ listState: 'pending', problem: 'load-failed' }),
    [on.close],
    { listState: 'closed' },
  ],
  ['close when closed: refused', ready, [on.close]],
  [
    'initiate: the bank chosen, the last failure cleared (the next id follows: id)',
    { ...ready, listState: 'open', problem: 'pay-failed', error: PAY_ERROR, status: 'selecting' },
    [on.initiate, BANK],
    {
      paymentState: 'initiating',
      selectedInstitution: BANK,
      error: null,
      problem: null,
      status: 'initiating',
    },
  ],
  [
    'initiate without a payment to pay: refused',
    at({ institutionsState: 'ready' }),
    [on.initiate, BANK],
  ],
  [
    'initiate while a payment is being started (one at a time): refused',
    { ...ready, paymentState: 'initiating', status: 'initiating' },
    [on.initiate, BANK],
  ],
  [
    'stop',
    { ...ready, listState: 'open', paymentState: 'initiating', status: 'initiating' },
    [on.stop],
    { paymentState: 'none', status: 'selecting' },
  ],
  ['stop with no payment being started: refused', ready, [on.stop]],
  [
    'opened here: the step closes',
    { ...ready, listState: 'open', paymentState: 'initiating', status: 'initiating' },
    [on.opened, null],
    {
      paymentState: 'awaiting-authorisation',
      listState: 'closed',
      status: 'awaiting-authorisation',
    },
  ],
  [
    'opened on the shopper’s phone: the handoff region is entered',
    { ...ready, listState: 'open', paymentState: 'initiating', status: 'initiating' },
    [on.opened, HANDOFF],
    {
      paymentState: 'awaiting-authorisation',
      listState: 'closed',
      handoff: HANDOFF,
      status: 'awaiting-authorisation',
    },
  ],
  [
    'opened with no payment being started: refused',
    { ...ready, paymentState: 'awaiting-authorisation', status: 'awaiting-authorisation' },
    [on.opened, null],
  ],
  [
    'continued here after a handoff: the handoff region is left',
    {
      ...ready,
      paymentState: 'awaiting-authorisation',
      handoff: HANDOFF,
      status: 'awaiting-authorisation',
    },
    [on.continued],
    { handoff: null },
  ],
  [
    'continued with no handoff shown: refused',
    { ...ready, paymentState: 'awaiting-authorisation', status: 'awaiting-authorisation' },
    [on.continued],
  ],
  [
    'teardown: work in flight is abandoned',
    at({
      institutionsState: 'loading',
      paymentState: 'initiating',
      slow: true,
      status: 'initiating',
    }),
    [on.teardown],
    { institutionsState: 'idle', paymentState: 'none', slow: false, status: 'idle' },
  ],
  [
    'teardown: what was settled stays',
    { ...ready, paymentState: 'awaiting-authorisation', status: 'awaiting-authorisation' },
    [on.teardown],
    {},
  ],
];

describe('the session reducer', () => {
  it('starts idle, or failed for good with invalid options', () => {
    expect(idle).toEqual({
      status: 'idle',
      institutionsState: 'idle',
      listState: 'closed',
      paymentState: 'none',
      institutions: [],
      payButtonEnabled: true,
      prepared: null,
      merchantPaymentId: 'id-1',
      selectedInstitution: null,
      error: null,
      problem: null,
      paymentInvalid: false,
      slow: false,
      handoff: null,
    });
    expect(initialState('id-1', false, 'servicepay: bad')).toMatchObject({
      status: 'error',
      institutionsState: 'failed',
      payButtonEnabled: false,
      error: { location: 'fetchInstitutions', error: 'servicepay: bad' },
      problem: 'unavailable',
    });
  });

  it.each(table)('%s', (_, before, event, changes) => {
    const copy = structuredClone(before);
    const next = reduce(before, event);
    // Pure: the state before is untouched.
    expect(before).toEqual(copy);
    if (changes) {
      expect(next).toEqual({ ...before, ...changes });
      // A new object (useSyncExternalStore compares them).
      expect(next).not.toBe(before);
    } else {
      // Refused: the very same object.
      expect(next).toBe(before);
    }
  });

  /** Every event, by the name it is exported under (an event is its function). */
  const EVENTS = [
    'close',
    'continued',
    'id',
    'initiate',
    'load',
    'loadFailed',
    'loaded',
    'open',
    'opened',
    'prepare',
    'refuse',
    'report',
    'slow',
    'stop',
    'teardown',
    'toggle',
  ];
  /** The events whose state does not always take them: the rest are taken in any state. */
  const UNGUARDED = ['id', 'prepare', 'refuse', 'report', 'teardown', 'toggle'];
  const nameOf = (event: unknown) =>
    Object.keys(on).find((key) => on[key as keyof typeof on] === event);

  it('refuses some of every guarded event, and takes every event somewhere', () => {
    const refused = new Set(table.flatMap(([, , [event], changes]) => (changes ? [] : [event])));
    const taken = new Set(table.flatMap(([, , [event], changes]) => (changes ? [event] : [])));
    expect([...refused].map(nameOf).sort()).toEqual(
      EVENTS.filter((name) => !UNGUARDED.includes(name)).sort(),
    );
    expect(taken.size).toBe(Object.keys(on).length);
  });

  it('covers every event', () => {
    // An event is its function (./session-events): every one exported is in the table.
    const names = [...new Set(table.map(([, , [event]]) => nameOf(event)))];
    expect(names.sort()).toEqual(Object.keys(on).sort());
    expect(names).toEqual(EVENTS.sort());
  });
});
