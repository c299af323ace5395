import { action } from 'storybook/actions';
import type { Institution } from 'servicepay';
import { createFakeTransport, reply } from '../../test/helpers/fake-transport';
import type { FakeReply, FakeTransport } from '../../test/helpers/fake-transport';
import { BANKS, MANY_BANKS } from './banks';

/**
 * The stories' backend: the tests' fake transport (test/helpers/fake-transport.ts) answering
 * as the story's controls say, after a realistic delay, never touching the network. It
 * honours the AbortSignal as fetch does, every request shows in the actions panel, and play
 * functions read what was sent from `transport` (`paymentRequests`, `methods`).
 */

/** How the bank-list request is answered. */
export type InstitutionsReply = 'ok' | 'fail-once' | 'fail' | 'never-answers';
/** How a payment request is answered. */
export type PaymentReply = 'ok' | 'fail' | 'never-answers' | 'unsafe-url';
/** Which banks the backend knows. */
export type BankList = 'six' | 'sixty-four' | 'none' | 'broken-logos' | 'one-unavailable';

export interface FakeBackendSettings {
  /** Milliseconds before each answer. */
  latencyMs: number;
  banks: BankList;
  institutions: InstitutionsReply;
  payment: PaymentReply;
}

export const DEFAULT_BACKEND: FakeBackendSettings = {
  latencyMs: 400,
  banks: 'six',
  institutions: 'ok',
  payment: 'ok',
};

/** The errors the fake answers with, as the HTTP transport words its failures. */
export const FETCH_FAILURE = 'HTTP 503 Service Unavailable';
export const PAYMENT_FAILURE = 'The bank is not accepting payments right now. Choose another bank.';

export interface FakeBackend {
  readonly transport: FakeTransport;
  /** Changes how later requests are answered. */
  configure(settings: Partial<FakeBackendSettings>): void;
}

const LISTS: Record<BankList, readonly Institution[]> = {
  six: BANKS,
  'sixty-four': MANY_BANKS,
  none: [],
  // Every logo fails to load (a CDN down, a bad URL): the initials take their place.
  'broken-logos': BANKS.map((bank) => ({ ...bank, iconUrl: 'data:image/png;base64,broken' })),
  // HSBC UK is down (`available: false`): shown, greyed out with its reason, not payable.
  'one-unavailable': BANKS.map((bank) =>
    bank.id === 'ob-hsbc' ? { ...bank, available: false } : bank,
  ),
};

/**
 * The longest the fake waits before answering, whatever the latency control says: set by the
 * story tests (.storybook/vitest.setup.ts), whose play functions wait for what arrives, not for
 * a person to see it arrive. Unset in Storybook itself.
 */
let latencyCapMs = Infinity;
export function capBackendLatency(ms: number): void {
  latencyCapMs = ms;
}

export function createFakeBackend(initial: Partial<FakeBackendSettings> = {}): FakeBackend {
  let settings: FakeBackendSettings = { ...DEFAULT_BACKEND, ...initial };
  const logFetch = action('backend: fetchInstitutions');
  const logPayment = action('backend: initiatePayment');
  const transport = createFakeTransport({
    onCall: (call) => (call.method === 'fetchInstitutions' ? logFetch : logPayment)(call.request),
  });
  // Read when each request arrives: a control changed meanwhile applies to the next one.
  const later = <T>(answer: FakeReply<T>) =>
    reply.after(Math.min(settings.latencyMs, latencyCapMs), answer);
  transport.replyTo('fetchInstitutions', (_request, n) => {
    const { institutions, banks } = settings;
    if (institutions === 'never-answers') return reply.hang();
    if (institutions === 'fail' || (institutions === 'fail-once' && n === 1)) {
      return later(reply.fail(FETCH_FAILURE));
    }
    return later(reply.resolve(LISTS[banks].map((bank) => ({ ...bank }))));
  });
  transport.replyTo('initiatePayment', (request, n) => {
    const { payment } = settings;
    if (payment === 'never-answers') return reply.hang();
    if (payment === 'fail') return later(reply.fail(PAYMENT_FAILURE));
    const paymentId = `pay_${String(n).padStart(6, '0')}`;
    return later(
      reply.resolve({
        paymentId,
        authorisationUrl:
          payment === 'unsafe-url'
            ? 'javascript:alert(document.domain)'
            : `https://bank.example/${request.institutionId}/authorise?payment_id=${paymentId}`,
      }),
    );
  });

  return {
    transport,
    configure(next) {
      settings = { ...settings, ...next };
    },
  };
}
