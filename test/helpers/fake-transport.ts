import type {
  Environment,
  InitiatedPayment,
  Institution,
  PaymentInitiation,
  ServiceTransport,
} from '../../src/core';
import { deferred } from './deferred';

/**
 * The one ServiceTransport double (core, React and vanilla tests, and the stories' fake
 * backend): it records every call in order, with exactly the request and signal it received,
 * and answers each call as the test says.
 *
 *   const fake = createFakeTransport();                       // answers at once
 *   fake.replyTo('initiatePayment', reply.defer());          // every payment waits ...
 *   fake.paymentCalls[0].resolve();                          // ... until the test answers
 *   fake.replyOnce('fetchInstitutions', reply.fail('Service unavailable'));
 *   fake.replyOnce('fetchInstitutions', reply.untyped([null, { id: 7 }]));  // hostile
 *   fake.replyTo('fetchInstitutions', (_request, n) =>       // decided per call (n from 1),
 *     reply.after(400, n == 1 ? reply.fail('HTTP 503') : reply.resolve()));  // after 400 ms
 *
 * It honours the AbortSignal like fetch does: a pending call whose signal aborts rejects
 * with an AbortError DOMException and is recorded as aborted (turn off with
 * `respectAbort: false` to simulate a backend answer that arrives anyway).
 */

export type FakeMethod = 'fetchInstitutions' | 'initiatePayment';

export interface InstitutionsRequest {
  environment: Environment;
  applicationId: string;
}

/** How the fake answers one call. */
export type FakeReply<T> =
  | { type: 'resolve'; value?: T }
  | { type: 'untyped'; value: unknown }
  | { type: 'fail'; error: string | Error }
  | { type: 'defer' }
  | { type: 'hang' }
  | { type: 'after'; ms: number; answer: FakeReply<T> };

/** How the fake answers every call of a method: one answer, or one decided per call (n from 1). */
export type FakeAnswer<Req, T> = FakeReply<T> | ((request: Req, n: number) => FakeReply<T>);

export const reply = {
  /** Answers at once, with `value` or the fake's realistic default. */
  resolve: <T>(value?: T): FakeReply<T> => ({ type: 'resolve', value }),
  /**
   * Answers at once with exactly `value`, whatever its type (null included): a broken or
   * hostile transport, whose answers the session must check.
   */
  untyped: (value: unknown): FakeReply<never> => ({ type: 'untyped', value }),
  /** Rejects at once with `new Error(message)`, or with the given Error as it is. */
  fail: (error: string | Error): FakeReply<never> => ({ type: 'fail', error }),
  /** Stays pending until the test calls `resolve()` / `fail()` on the recorded call. */
  defer: (): FakeReply<never> => ({ type: 'defer' }),
  /** Never answers (only an abort settles it). */
  hang: (): FakeReply<never> => ({ type: 'hang' }),
  /** Gives `answer` after `ms` of real time (the stories' latency); an abort still settles it at once. */
  after: <T>(ms: number, answer: FakeReply<T>): FakeReply<T> => ({ type: 'after', ms, answer }),
};

export type CallStatus = 'pending' | 'resolved' | 'failed' | 'aborted';

export interface FakeCall<Req, Res> {
  /** Position among all calls of this fake, from 0. */
  readonly index: number;
  readonly method: FakeMethod;
  /** Exactly the object the transport received. */
  readonly request: Req;
  readonly signal: AbortSignal | undefined;
  readonly status: CallStatus;
  /** Whether the caller aborted the call while it was pending. */
  readonly aborted: boolean;
  /** What the transport returned to its caller. */
  readonly result: Promise<Res>;
  /** Answers a deferred call with `value` or the default answer. */
  resolve(value?: Res): void;
  /** Rejects a deferred call with `new Error(message)`, or with the given Error as it is. */
  fail(error: string | Error): void;
}

export type InstitutionsCall = FakeCall<InstitutionsRequest, Institution[]>;
export type PaymentCall = FakeCall<PaymentInitiation, InitiatedPayment>;

export interface FakeTransportOptions {
  /** The list `fetchInstitutions` answers with. @default DEFAULT_INSTITUTIONS */
  institutions?: Institution[];
  /** How every fetchInstitutions call is answered unless queued otherwise. @default reply.resolve() */
  fetchInstitutions?: FakeReply<Institution[]>;
  /** How every initiatePayment call is answered unless queued otherwise. @default reply.resolve() */
  initiatePayment?: FakeReply<InitiatedPayment>;
  /** Reject pending calls with an AbortError when their signal aborts. @default true */
  respectAbort?: boolean;
  /** Told of every call as it arrives (the stories show them in the actions panel). */
  onCall?: (call: InstitutionsCall | PaymentCall) => void;
}

export interface FakeTransport extends ServiceTransport {
  /** Every call, in the order the transport received them. */
  readonly calls: ReadonlyArray<InstitutionsCall | PaymentCall>;
  readonly fetchCalls: readonly InstitutionsCall[];
  readonly paymentCalls: readonly PaymentCall[];
  /** The PaymentInitiation objects sent, in order. */
  readonly paymentRequests: readonly PaymentInitiation[];
  /** The method names called, in order, e.g. ['fetchInstitutions', 'initiatePayment']. */
  readonly methods: readonly FakeMethod[];
  /** Changes how every later call of `method` is answered. */
  replyTo(
    method: 'fetchInstitutions',
    answer: FakeAnswer<InstitutionsRequest, Institution[]>,
  ): void;
  replyTo(method: 'initiatePayment', answer: FakeAnswer<PaymentInitiation, InitiatedPayment>): void;
  /** Queues answers for the next calls of `method` (before the default applies again). */
  replyOnce(method: 'fetchInstitutions', ...answers: FakeReply<Institution[]>[]): void;
  replyOnce(method: 'initiatePayment', ...answers: FakeReply<InitiatedPayment>[]): void;
}

/** Realistic UK banks: ids as an aggregator would give them, one without an icon. */
export const DEFAULT_INSTITUTIONS: readonly Institution[] = Object.freeze([
  {
    id: 'ob-barclays',
    name: 'Barclays',
    iconUrl: 'https://cdn.servicepay.test/institutions/barclays.svg',
  },
  { id: 'ob-hsbc', name: 'HSBC UK', iconUrl: 'https://cdn.servicepay.test/institutions/hsbc.svg' },
  {
    id: 'ob-lloyds',
    name: 'Lloyds Bank',
    iconUrl: 'https://cdn.servicepay.test/institutions/lloyds.svg',
  },
  { id: 'ob-monzo', name: 'Monzo', iconUrl: 'https://cdn.servicepay.test/institutions/monzo.svg' },
  {
    id: 'ob-natwest',
    name: 'NatWest',
    iconUrl: 'https://cdn.servicepay.test/institutions/natwest.svg',
  },
  { id: 'ob-nationwide', name: 'Nationwide' },
]);

/** The default answer to the n-th initiatePayment call (n from 1). */
export function defaultInitiatedPayment(n: number): InitiatedPayment {
  const paymentId = `7c9e6679-7425-40de-944b-${String(n).padStart(12, '0')}`;
  return {
    paymentId,
    authorisationUrl: `https://auth.examplebank.test/oauth2/authorize?payment_id=${paymentId}`,
  };
}

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

/** The queued answer, else the method's answer (decided for this request if it is a function). */
function pick<Req, Res>(
  queue: FakeReply<Res>[],
  answer: FakeAnswer<Req, Res>,
  request: Req,
  earlier: readonly unknown[],
): FakeReply<Res> {
  const queued = queue.shift();
  if (queued) return queued;
  return typeof answer == 'function' ? answer(request, earlier.length + 1) : answer;
}

export function createFakeTransport(options: FakeTransportOptions = {}): FakeTransport {
  const respectAbort = options.respectAbort ?? true;
  const institutions = options.institutions ?? [...DEFAULT_INSTITUTIONS];
  const defaults: {
    fetchInstitutions: FakeAnswer<InstitutionsRequest, Institution[]>;
    initiatePayment: FakeAnswer<PaymentInitiation, InitiatedPayment>;
  } = {
    fetchInstitutions: options.fetchInstitutions ?? reply.resolve(),
    initiatePayment: options.initiatePayment ?? reply.resolve(),
  };
  const queues: {
    fetchInstitutions: FakeReply<Institution[]>[];
    initiatePayment: FakeReply<InitiatedPayment>[];
  } = { fetchInstitutions: [], initiatePayment: [] };

  const calls: (InstitutionsCall | PaymentCall)[] = [];
  const fetchCalls: InstitutionsCall[] = [];
  const paymentCalls: PaymentCall[] = [];

  function record<Req, Res>(
    method: FakeMethod,
    request: Req,
    signal: AbortSignal | undefined,
    answer: FakeReply<Res>,
    fallback: () => Res,
  ): FakeCall<Req, Res> {
    let status: CallStatus = 'pending';
    let aborted = false;
    const settle = deferred<Res>();
    const result = settle.promise;
    // The caller always awaits it; this only keeps a test that drops a failed call quiet.
    result.catch(() => undefined);
    const name = `${method} call #${calls.length}`;

    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      if (status !== 'pending' || !respectAbort) return;
      clearTimeout(timer);
      status = 'aborted';
      aborted = true;
      settle.reject(abortError());
    };
    const finish = (next: CallStatus, run: () => void) => {
      if (status !== 'pending') {
        throw new Error(`fake transport: ${name} was already ${status}`);
      }
      status = next;
      signal?.removeEventListener('abort', onAbort);
      run();
    };

    const call: FakeCall<Req, Res> = {
      index: calls.length,
      method,
      request,
      signal,
      get status() {
        return status;
      },
      get aborted() {
        return aborted;
      },
      result,
      resolve(value) {
        if (answer.type === 'hang') throw new Error(`fake transport: ${name} is set to hang`);
        finish('resolved', () => settle.resolve(value ?? fallback()));
      },
      fail(error) {
        if (answer.type === 'hang') throw new Error(`fake transport: ${name} is set to hang`);
        finish('failed', () => settle.reject(typeof error === 'string' ? new Error(error) : error));
      },
    };

    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort);

    const give = (given: FakeReply<Res>): void => {
      if (status !== 'pending') return;
      if (given.type === 'resolve') call.resolve(given.value);
      else if (given.type === 'untyped')
        finish('resolved', () => settle.resolve(given.value as Res));
      else if (given.type === 'fail') call.fail(given.error);
      else if (given.type === 'after') timer = setTimeout(() => give(given.answer), given.ms);
    };
    give(answer);
    return call;
  }

  const fake: FakeTransport = {
    calls,
    fetchCalls,
    paymentCalls,
    get paymentRequests() {
      return paymentCalls.map((c) => c.request);
    },
    get methods() {
      return calls.map((c) => c.method);
    },

    fetchInstitutions(request, signal) {
      const answer = pick(
        queues.fetchInstitutions,
        defaults.fetchInstitutions,
        request,
        fetchCalls,
      );
      const call = record<InstitutionsRequest, Institution[]>(
        'fetchInstitutions',
        request,
        signal,
        answer,
        () => institutions.map((i) => ({ ...i })),
      );
      calls.push(call);
      fetchCalls.push(call);
      options.onCall?.(call);
      return call.result;
    },

    initiatePayment(request, signal) {
      const answer = pick(queues.initiatePayment, defaults.initiatePayment, request, paymentCalls);
      const n = paymentCalls.length + 1;
      const call = record<PaymentInitiation, InitiatedPayment>(
        'initiatePayment',
        request,
        signal,
        answer,
        () => defaultInitiatedPayment(n),
      );
      calls.push(call);
      paymentCalls.push(call);
      options.onCall?.(call);
      return call.result;
    },

    replyTo(method: FakeMethod, answer: unknown) {
      // The overloads pair each method with its own answer type.
      (defaults as Record<FakeMethod, unknown>)[method] = answer;
    },

    replyOnce(method: FakeMethod, ...answers: FakeReply<never>[]) {
      queues[method].push(...answers);
    },
  };
  return fake;
}
