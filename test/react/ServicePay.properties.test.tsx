// Property-based test of <ServicePay> under random interleavings (issue 7): clicks on Pay and on
// bank tiles (single and double), the handle's createPayment / payWithInstitution /
// openInstitutionSelection / toggleButton, re-renders with new props (a new payment, a new
// session, new inline callbacks), unmounts, and a transport whose payments answer late, in any
// order, fail, or answer with a URL that must not be opened. Whatever the order:
//
// - an initiatePayment call only ever comes from one pay action (a tile click or the handle)
//   that was accepted: a valid payment prepared, the component mounted, no payment in flight;
//   and every such action makes exactly one call, a double click included;
// - each call carries the payment prepared at that moment;
// - openUrl is called once for each call answered with an http(s) URL while the component that
//   made it is still mounted with the same session, and never otherwise (after unmount, after
//   the session was replaced, for a javascript: URL).
import { fc, test } from '@fast-check/vitest';
import { StrictMode, createRef } from 'react';
import type { ReactElement } from 'react';
import { act, fireEvent, render } from '@testing-library/react';
import { describe, expect, vi } from 'vitest';
import { ServicePay } from '../../src/react/index';
import type { PaymentArgs, ServicePayHandle, ServicePayProps } from '../../src/react/index';
import { createFakeTransport, reply } from '../helpers/fake-transport';
import type { PaymentCall } from '../helpers/fake-transport';
import { BANKS } from './support';

const BANK_IDS = BANKS.map((b) => b.id);

/** The payments the merchant may prepare, by index: two valid, two refused. */
const PAYMENTS: { args: PaymentArgs; valid: boolean }[] = [
  { args: { amount: 12.5, paymentReference: 'ORDER-1' }, valid: true },
  {
    args: { amount: 3, paymentReference: 'ORDER-2', agentType: 'MOBILE_APPLICATION' },
    valid: true,
  },
  { args: { amount: -1, paymentReference: 'ORDER-3' }, valid: false },
  { args: { amount: 1, paymentReference: 'ABCDEFGHIJKLMNOPQRS' }, valid: false },
];

type Outcome = 'ok' | 'fail' | 'unsafe';

type Action =
  | { kind: 'clickPay' }
  | { kind: 'clickTile'; bank: number; times: number; openFirst: boolean }
  | { kind: 'handlePay'; id: unknown; times: number }
  | { kind: 'handleCreate'; payment: number }
  | { kind: 'handleOpen' }
  | { kind: 'toggle'; value: unknown }
  | {
      kind: 'rerender';
      payment: number | null;
      disablePayButton: boolean;
      title: string;
      newSession: boolean;
    }
  | { kind: 'settle'; pick: number; outcome: Outcome }
  | { kind: 'unmount' };

/** Mostly a valid payment, so that most runs get to pay. */
const paymentIndex: fc.Arbitrary<number> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(0, 1) },
  fc.constantFrom(2, 3),
);
const outcome = fc.constantFrom<Outcome>('ok', 'fail', 'unsafe');

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'clickPay' as const }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('clickTile' as const),
      bank: fc.nat({ max: BANKS.length - 1 }),
      times: fc.constantFrom(1, 1, 2),
      // Most tile clicks come right after the shopper opened the list with Pay.
      openFirst: fc.constantFrom(true, true, true, false),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('handlePay' as const),
      id: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...BANK_IDS) },
        fc.constantFrom('', 'unknown-bank', null, undefined, 42),
      ),
      times: fc.constantFrom(1, 1, 2),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('handleCreate' as const), payment: paymentIndex }),
  },
  fc.constant({ kind: 'handleOpen' as const }),
  fc.record({
    kind: fc.constant('toggle' as const),
    value: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, fc.constantFrom('yes', 0, null)),
  }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rerender' as const),
      payment: fc.option(paymentIndex, { nil: null }),
      disablePayButton: fc.boolean(),
      title: fc.constantFrom('Pay with your banking app', 'Checkout'),
      newSession: fc.boolean(),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), outcome }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'unmount' as const }) },
);

const run = fc.record({
  actions: fc.array(action, { minLength: 4, maxLength: 30, size: 'medium' }),
  /** How each payment call answers by itself (the n-th call, the n-th entry); later ones wait. */
  autoReplies: fc.array(fc.constantFrom<'defer' | Outcome>('defer', 'defer', 'ok', 'fail'), {
    maxLength: 8,
  }),
  /** Whether pending calls reject when their signal aborts (fetch does; a sloppy transport may not). */
  respectAbort: fc.boolean(),
  strict: fc.boolean(),
  payment: fc.oneof({ weight: 4, arbitrary: paymentIndex }, fc.constant(null)),
  disablePayButton: fc.constantFrom(false, false, false, true),
});

const urlOf = (call: PaymentCall) => `https://bank.test/authorise/${call.index}`;

/** Lets every promise chain of the session run to its end (no assertion depends on time). */
const drain = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('<ServicePay> under random interleavings', () => {
  type Run = typeof run extends fc.Arbitrary<infer R> ? R : never;
  const base = {
    autoReplies: [],
    respectAbort: false,
    strict: false,
    payment: 0,
    disablePayButton: false,
  };
  const pay = (id: string, times = 1): Action => ({ kind: 'handlePay', id, times });
  const click = (bank: number, times = 1): Action => ({
    kind: 'clickTile',
    bank,
    times,
    openFirst: true,
  });
  const settle = (pick: number, how: Outcome): Action => ({ kind: 'settle', pick, outcome: how });
  const newSession: Action = {
    kind: 'rerender',
    payment: 0,
    disablePayButton: false,
    title: 'Checkout',
    newSession: true,
  };
  /** The scenarios that matter most, run every time before the random ones. */
  const examples: [Run][] = [
    // A late answer after unmount, from a transport that ignores the abort.
    [{ ...base, actions: [click(0), { kind: 'unmount' }, settle(0, 'ok')] }],
    // A late answer to a session that was replaced, while the new one pays; answered out of order.
    [
      {
        ...base,
        actions: [pay('monzo'), newSession, pay('hsbc'), settle(1, 'ok'), settle(0, 'ok')],
      },
    ],
    // Double clicks and double calls while a payment is in flight, then a failure and a retry.
    [
      {
        ...base,
        actions: [click(1, 2), pay('monzo', 2), settle(0, 'fail'), click(2, 2), settle(0, 'ok')],
      },
    ],
    // StrictMode, a javascript: URL refused, then a good one.
    [
      {
        ...base,
        strict: true,
        actions: [pay('barclays'), settle(0, 'unsafe'), click(0), settle(0, 'ok')],
      },
    ],
    // Answers that arrive at once, good and failed.
    [
      {
        ...base,
        autoReplies: ['ok', 'fail'],
        respectAbort: true,
        actions: [click(0), click(1), pay('hsbc')],
      },
    ],
  ];

  test.prop([run], { numRuns: 100, examples })(
    'never two payments for one action, none while one is in flight, and no redirect after unmount or for a replaced session',
    async ({ actions, autoReplies, respectAbort, strict, payment, disablePayButton }) => {
      const fake = createFakeTransport({
        institutions: BANKS,
        initiatePayment: reply.defer(),
        respectAbort,
      });
      /** Calls answered with an http(s) URL during the current step, by index. */
      let answeredOk: PaymentCall[] = [];
      const answer = (call: PaymentCall, how: Outcome) => {
        if (how === 'fail') return call.fail('Service unavailable');
        if (how === 'ok') answeredOk.push(call);
        call.resolve({
          paymentId: `p-${call.index}`,
          authorisationUrl: how === 'ok' ? urlOf(call) : `javascript:alert(${call.index})`,
        });
      };
      const transport = {
        fetchInstitutions: fake.fetchInstitutions,
        initiatePayment: vi.fn((...args: Parameters<typeof fake.initiatePayment>) => {
          const result = fake.initiatePayment(...args);
          const call = fake.paymentCalls.at(-1)!;
          const auto = autoReplies[call.index] ?? 'defer';
          if (auto !== 'defer') answer(call, auto);
          return result;
        }),
      };

      let app = 0;
      const nextAppId = () => `3f2a1d4e-5b6c-4d7e-8f90-${String(++app).padStart(12, '0')}`;
      let mounted = true;
      let currentApp = nextAppId();
      const opened: { url: string; mounted: boolean; app: string }[] = [];
      const openUrl = vi.fn((url: string) => {
        opened.push({ url, mounted, app: currentApp });
      });
      const events: string[] = [];

      const ref = createRef<ServicePayHandle>();
      let props: ServicePayProps = {
        environment: 'SANDBOX',
        applicationId: currentApp,
        transport,
        openUrl,
        disablePayButton,
        eventConsumer: (event) => events.push(event),
        ...(payment === null ? {} : { payment: { ...PAYMENTS[payment]!.args } }),
      };
      const element = (): ReactElement => {
        const component = <ServicePay ref={ref} {...props} />;
        return strict ? <StrictMode>{component}</StrictMode> : component;
      };

      // The model: which payment the current session has prepared, and the last `payment` prop
      // value it applied (a new object with the same value is not re-applied).
      let prepared: number | null = payment !== null && PAYMENTS[payment]!.valid ? payment : null;
      let appliedKey = payment === null ? undefined : JSON.stringify(PAYMENTS[payment]!.args);
      const inFlight = () =>
        fake.paymentCalls.some(
          (c) => c.status === 'pending' && c.request.applicationId === currentApp,
        );

      let view: ReturnType<typeof render> | undefined;
      await act(async () => {
        view = render(element());
        await drain();
      });
      let handle = ref.current!;
      expect(handle).not.toBeNull();

      const tile = (bank: number) =>
        view!.container.querySelectorAll<HTMLButtonElement>('ul[aria-label="Banks"] button')[bank];
      const payButton = () =>
        view!.container.querySelector<HTMLButtonElement>('button[aria-expanded]');

      const step = async (a: Action) => {
        const callsBefore = fake.paymentCalls.length;
        const openedBefore = opened.length;
        answeredOk = [];
        let expectCall = false;
        let bankId: string | undefined;
        let clicked = false;

        await act(async () => {
          switch (a.kind) {
            case 'clickPay': {
              const button = mounted ? payButton() : null;
              if (button) fireEvent.click(button);
              break;
            }
            case 'clickTile': {
              if (a.openFirst && mounted && !tile(a.bank)) {
                const button = payButton();
                if (button) fireEvent.click(button);
                // The list renders once this act is over: the tile is clicked in the next one.
                break;
              }
              const target = mounted ? tile(a.bank) : undefined;
              if (!target) break;
              const choosable = target.getAttribute('aria-disabled') !== 'true';
              // The UI agrees with the model: no tile can be chosen while a payment is in flight.
              if (inFlight()) expect(choosable).toBe(false);
              expectCall = choosable && prepared !== null && !inFlight();
              bankId = BANKS[a.bank]!.id;
              clicked = true;
              for (let i = 0; i < a.times; i++) fireEvent.click(target);
              break;
            }
            case 'handlePay':
              expectCall =
                typeof a.id === 'string' &&
                BANK_IDS.includes(a.id) &&
                mounted &&
                prepared !== null &&
                !inFlight();
              bankId = a.id as string;
              for (let i = 0; i < a.times; i++) void handle.payWithInstitution(a.id as string);
              break;
            case 'handleCreate':
              handle.createPayment(PAYMENTS[a.payment]!.args);
              prepared = PAYMENTS[a.payment]!.valid ? a.payment : null;
              break;
            case 'handleOpen':
              handle.openInstitutionSelection();
              break;
            case 'toggle':
              handle.toggleButton(a.value as boolean);
              break;
            case 'rerender': {
              if (!mounted) break;
              const next = a.payment === null ? undefined : PAYMENTS[a.payment]!;
              const key = next && JSON.stringify(next.args);
              const rest: ServicePayProps = { ...props };
              delete rest.payment;
              props = {
                ...rest,
                ...(next ? { payment: { ...next.args } } : {}),
                disablePayButton: a.disablePayButton,
                title: a.title,
                // New inline callbacks on every render.
                eventConsumer: (event) => events.push(event),
                errorConsumer: () => undefined,
              };
              if (a.newSession) {
                currentApp = nextAppId();
                props.applicationId = currentApp;
                prepared = next?.valid ? a.payment : null;
                appliedKey = key;
              } else if (key !== undefined && key !== appliedKey) {
                prepared = next!.valid ? a.payment : null;
                appliedKey = key;
              }
              view!.rerender(element());
              break;
            }
            case 'settle': {
              const pending = fake.paymentCalls.filter((c) => c.status === 'pending');
              const call = pending[a.pick % Math.max(1, pending.length)];
              if (call) answer(call, a.outcome);
              break;
            }
            case 'unmount':
              if (!mounted) break;
              mounted = false;
              view!.unmount();
              break;
          }
          await drain();
        });
        if (a.kind === 'clickTile' && a.openFirst && mounted && tile(a.bank) && !clicked) {
          // The list the Pay click opened is now shown: the shopper picks the bank.
          await act(async () => {
            const target = tile(a.bank)!;
            const choosable = target.getAttribute('aria-disabled') !== 'true';
            if (inFlight()) expect(choosable).toBe(false);
            expectCall = choosable && prepared !== null && !inFlight();
            bankId = BANKS[a.bank]!.id;
            for (let i = 0; i < a.times; i++) fireEvent.click(target);
            await drain();
          });
        }
        if (mounted) handle = ref.current!;

        // At most one call, and exactly one when the action was an accepted pay action.
        const made = fake.paymentCalls.slice(callsBefore);
        expect(made.length, `calls made by ${JSON.stringify(a)}`).toBe(expectCall ? 1 : 0);
        for (const call of made) {
          const args = PAYMENTS[prepared!]!.args;
          expect(call.request).toMatchObject({
            environment: 'SANDBOX',
            applicationId: currentApp,
            institutionId: bankId,
            paymentRequest: {
              amount: args.amount,
              currency: 'GBP',
              reference: args.paymentReference,
            },
            agentType: args.agentType ?? 'WEB_BROWSER',
          });
        }
        // A redirect for each http(s) answer to a call of the live session, and no other.
        const expectedUrls = answeredOk
          .filter((c) => mounted && c.request.applicationId === currentApp)
          .map(urlOf);
        expect(
          opened.slice(openedBefore).map((o) => o.url),
          `redirects after ${JSON.stringify(a)}`,
        ).toEqual(expectedUrls);
      };

      for (const a of actions) await step(a);
      // Every call still waiting now answers; only those of a live session may redirect.
      for (let pending = fake.paymentCalls.filter((c) => c.status === 'pending'); pending.length;) {
        await step({ kind: 'settle', pick: 0, outcome: 'ok' });
        pending = fake.paymentCalls.filter((c) => c.status === 'pending');
      }

      expect(opened.every((o) => o.mounted && /^https:/.test(o.url))).toBe(true);
      expect(new Set(opened.map((o) => o.url)).size).toBe(opened.length);
      const ids = fake.paymentRequests.map((r) => r.merchantPaymentId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(events.filter((e) => e === 'payment_initiated')).toHaveLength(ids.length);
      if (mounted) view!.unmount();
    },
    // 100 renders of up to 30 steps: a few seconds, more on a loaded machine.
    60_000,
  );
});
