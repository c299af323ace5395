import { describe, expect, it } from 'vitest';
import { initialResult, isFinal, reduceResult, resultText } from '../../src/core/result-machine';
import type {
  PaymentResultEvent,
  PaymentResultSnapshot,
  PaymentResultState,
} from '../../src/core/result-machine';
import { DEFAULT_RESULT_MESSAGES as M } from '../../src/core/index';

// The result page's transitions as data (issue 48: named events, guarded transitions): state +
// event -> next state, with no controller, no endpoint and no timers. An event a state does not
// take leaves the very same object (nothing re-renders, no effect follows): those rows say
// "refused". The timeline (when each event happens) is test/core/result.test.ts.

const PAYMENT = { paymentId: 'pay-1', merchantPaymentId: 'order-1' };
const unfound = initialResult(null);
const at = (state: PaymentResultState): PaymentResultSnapshot => ({
  state,
  payment: PAYMENT,
  paid: null,
});
const notFound: PaymentResultSnapshot = { state: 'not-found', payment: null, paid: null };

/** [what happens, state before, event, state after; undefined: refused] */
const table: [string, PaymentResultSnapshot, PaymentResultEvent, PaymentResultState?][] = [
  ['found: the payment to follow', unfound, { type: 'found', payment: PAYMENT }, 'waiting'],
  ['missing: no payment to follow', unfound, { type: 'missing' }, 'not-found'],
  ['found once the payment is known: refused', at('waiting'), { type: 'found', payment: PAYMENT }],
  ['missing once the payment is known: refused', at('still-confirming'), { type: 'missing' }],
  [
    'answered PENDING while waiting: refused',
    at('waiting'),
    { type: 'answered', status: 'PENDING' },
  ],
  [
    'answered COMPLETED while waiting',
    at('waiting'),
    { type: 'answered', status: 'COMPLETED' },
    'received',
  ],
  [
    'answered FAILED while waiting',
    at('waiting'),
    { type: 'answered', status: 'FAILED' },
    'not-completed',
  ],
  [
    'answered NEEDS_REVIEW while waiting',
    at('waiting'),
    { type: 'answered', status: 'NEEDS_REVIEW' },
    'needs-review',
  ],
  [
    'answered COMPLETED while the bank is still confirming',
    at('still-confirming'),
    { type: 'answered', status: 'COMPLETED' },
    'received',
  ],
  [
    'answered NEEDS_REVIEW while the bank is still confirming',
    at('still-confirming'),
    { type: 'answered', status: 'NEEDS_REVIEW' },
    'needs-review',
  ],
  [
    'answered COMPLETED after the horizon: the shopper who comes back sees it',
    at('not-heard'),
    { type: 'answered', status: 'COMPLETED' },
    'received',
  ],
  [
    'answered PENDING after the horizon: refused',
    at('not-heard'),
    { type: 'answered', status: 'PENDING' },
  ],
  [
    'answered FAILED after received: refused (an outcome stands)',
    at('received'),
    { type: 'answered', status: 'FAILED' },
  ],
  [
    'answered COMPLETED after needs-review: refused',
    at('needs-review'),
    { type: 'answered', status: 'COMPLETED' },
  ],
  [
    'answered COMPLETED with no payment: refused',
    unfound,
    { type: 'answered', status: 'COMPLETED' },
  ],
  [
    'answered COMPLETED when not found: refused',
    notFound,
    { type: 'answered', status: 'COMPLETED' },
  ],
  ['slow while waiting', at('waiting'), { type: 'slow' }, 'still-confirming'],
  ['slow before the payment is found: refused', unfound, { type: 'slow' }],
  ['slow when already still confirming: refused', at('still-confirming'), { type: 'slow' }],
  ['slow after an outcome: refused', at('received'), { type: 'slow' }],
  ['slow after the horizon: refused', at('not-heard'), { type: 'slow' }],
  ['horizon while still confirming', at('still-confirming'), { type: 'horizon' }, 'not-heard'],
  [
    'horizon while waiting (a frozen tab wakes past both bounds)',
    at('waiting'),
    { type: 'horizon' },
    'not-heard',
  ],
  ['horizon after an outcome: refused', at('not-completed'), { type: 'horizon' }],
  ['horizon with no payment: refused', notFound, { type: 'horizon' }],
  [
    'checkAgain after the horizon: waiting again',
    at('not-heard'),
    { type: 'checkAgain' },
    'waiting',
  ],
  ['checkAgain while waiting: refused', at('waiting'), { type: 'checkAgain' }],
  ['checkAgain while still confirming: refused', at('still-confirming'), { type: 'checkAgain' }],
  ['checkAgain after an outcome: refused', at('received'), { type: 'checkAgain' }],
];

describe('the result page’s machine', () => {
  it.each(table)('%s', (_, before, event, after) => {
    const next = reduceResult(before, event);
    if (after === undefined) {
      expect(next).toBe(before);
    } else {
      expect(next).not.toBe(before);
      expect(next).toEqual({
        state: after,
        payment: event.type === 'missing' ? null : PAYMENT,
        paid: null,
      });
    }
  });

  it('has a row for every event, taken and refused', () => {
    const types: PaymentResultEvent['type'][] = [
      'found',
      'missing',
      'answered',
      'slow',
      'horizon',
      'checkAgain',
    ];
    for (const type of types) {
      const rows = table.filter(([, , event]) => event.type === type);
      expect(
        rows.some(([, , , after]) => after !== undefined),
        `${type} taken`,
      ).toBe(true);
      expect(
        rows.some(([, , , after]) => after === undefined),
        `${type} refused`,
      ).toBe(true);
    }
  });

  it('carries what was paid with received and needs-review, never with not-completed', () => {
    const paid = { amount: 12.5, payee: 'Example Coffee Co.', reference: 'ORDER-1042' };
    const answered = (status: 'COMPLETED' | 'FAILED' | 'NEEDS_REVIEW', from = at('waiting')) =>
      reduceResult(from, { type: 'answered', status, paid });
    expect(answered('COMPLETED')).toEqual({ state: 'received', payment: PAYMENT, paid });
    expect(answered('NEEDS_REVIEW', at('not-heard'))).toEqual({
      state: 'needs-review',
      payment: PAYMENT,
      paid,
    });
    // A payment that was not completed paid nothing, whatever the answer says.
    expect(answered('FAILED')).toEqual({ state: 'not-completed', payment: PAYMENT, paid: null });
    // A later answer changes nothing once an outcome is shown (its receipt stands).
    const shown = answered('COMPLETED');
    expect(reduceResult(shown, { type: 'answered', status: 'COMPLETED' })).toBe(shown);
  });

  it('no event leaves an outcome', () => {
    const events: PaymentResultEvent[] = [
      { type: 'found', payment: PAYMENT },
      { type: 'missing' },
      { type: 'answered', status: 'FAILED' },
      { type: 'slow' },
      { type: 'horizon' },
      { type: 'checkAgain' },
    ];
    for (const state of ['received', 'not-completed', 'needs-review'] as const) {
      expect(isFinal(state)).toBe(true);
      const before = at(state);
      for (const event of events) expect(reduceResult(before, event)).toBe(before);
    }
    expect(
      ['waiting', 'still-confirming', 'not-heard', 'not-found'].some((s) =>
        isFinal(s as PaymentResultState),
      ),
    ).toBe(false);
  });

  it('every state has a heading and a sentence in the words’ table', () => {
    const states: PaymentResultState[] = [
      'waiting',
      'still-confirming',
      'received',
      'not-completed',
      'needs-review',
      'not-heard',
      'not-found',
    ];
    for (const state of states) {
      const { heading, text } = resultText(state, M);
      expect(heading, state).toMatch(/\w/);
      expect(text, state).toMatch(/\w/);
    }
    expect(resultText('still-confirming', M)).toEqual({
      heading: M.stillConfirming,
      text: M.stillConfirmingText,
    });
  });
});
