import { action } from 'storybook/actions';
import type {
  InitiatedPayment,
  Institution,
  PaymentInitiation,
  ServiceTransport,
} from 'servicepay';
import { BANKS, MANY_BANKS } from './banks';

/**
 * An in-browser stand-in for the service's backend: a `ServiceTransport` that answers after a
 * realistic delay, fails when told to, honours the AbortSignal as fetch does, and never
 * touches the network. Every request shows in the actions panel and is kept for play
 * functions to assert on.
 */

/** How the bank-list request is answered. */
export type InstitutionsReply = 'ok' | 'fail-once' | 'fail' | 'never-answers';
/** How a payment request is answered. */
export type PaymentReply = 'ok' | 'fail' | 'never-answers' | 'unsafe-url';
/** Which banks the backend knows. */
export type BankList = 'six' | 'sixty-four' | 'none' | 'broken-logos';

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

export type FakeRequest =
  | { method: 'fetchInstitutions'; request: { environment: string; applicationId: string } }
  | { method: 'initiatePayment'; request: PaymentInitiation };

export interface FakeBackend {
  readonly transport: ServiceTransport;
  /** Every request received, in order. */
  readonly requests: readonly FakeRequest[];
  /** The payment requests received, in order. */
  readonly payments: readonly PaymentInitiation[];
  /** Changes how later requests are answered. */
  configure(settings: Partial<FakeBackendSettings>): void;
}

const LISTS: Record<BankList, readonly Institution[]> = {
  six: BANKS,
  'sixty-four': MANY_BANKS,
  none: [],
  // Every logo fails to load (a CDN down, a bad URL): the initials take their place.
  'broken-logos': BANKS.map((bank) => ({ ...bank, iconUrl: 'data:image/png;base64,broken' })),
};

/** Resolves after `ms` (never, for Infinity); rejects with an AbortError when `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abort = () => {
      clearTimeout(timer);
      reject(new DOMException('The operation was aborted.', 'AbortError'));
    };
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    if (ms !== Infinity) {
      timer = setTimeout(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      }, ms);
    }
  });
}

export function createFakeBackend(initial: Partial<FakeBackendSettings> = {}): FakeBackend {
  let settings: FakeBackendSettings = { ...DEFAULT_BACKEND, ...initial };
  const requests: FakeRequest[] = [];
  const payments: PaymentInitiation[] = [];
  let fetches = 0;
  const logFetch = action('backend: fetchInstitutions');
  const logPayment = action('backend: initiatePayment');

  const transport: ServiceTransport = {
    async fetchInstitutions(request, signal) {
      requests.push({ method: 'fetchInstitutions', request });
      logFetch(request);
      const reply = settings.institutions;
      const first = fetches++ === 0;
      await wait(reply === 'never-answers' ? Infinity : settings.latencyMs, signal);
      if (reply === 'fail' || (reply === 'fail-once' && first)) throw new Error(FETCH_FAILURE);
      return LISTS[settings.banks].map((bank) => ({ ...bank }));
    },

    async initiatePayment(request, signal): Promise<InitiatedPayment> {
      requests.push({ method: 'initiatePayment', request });
      payments.push(request);
      logPayment(request);
      const reply = settings.payment;
      await wait(reply === 'never-answers' ? Infinity : settings.latencyMs, signal);
      if (reply === 'fail') throw new Error(PAYMENT_FAILURE);
      const paymentId = `pay_${String(payments.length).padStart(6, '0')}`;
      return {
        paymentId,
        authorisationUrl:
          reply === 'unsafe-url'
            ? 'javascript:alert(document.domain)'
            : `https://bank.example/${request.institutionId}/authorise?payment_id=${paymentId}`,
      };
    },
  };

  return {
    transport,
    requests,
    payments,
    configure(next) {
      settings = { ...settings, ...next };
    },
  };
}
