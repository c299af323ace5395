import { vi } from 'vitest';
import type { Institution, PaymentInitiation, ServiceTransport } from '../../src/core/index';

export { deferred } from '../helpers/deferred';

export const APP_ID = '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6';

export const BANKS: Institution[] = [
  { id: 'barclays', name: 'Barclays', iconUrl: 'https://icons.test/barclays.svg' },
  { id: 'hsbc', name: 'HSBC UK', iconUrl: 'https://icons.test/hsbc.svg' },
  { id: 'monzo', name: 'Monzo' },
];

/** A transport answering at once, unless a test swaps an implementation in. */
export function makeTransport(institutions: Institution[] = BANKS) {
  const payments: PaymentInitiation[] = [];
  const signals: AbortSignal[] = [];
  const transport = {
    fetchInstitutions: vi.fn<ServiceTransport['fetchInstitutions']>(async () => institutions),
    initiatePayment: vi.fn<ServiceTransport['initiatePayment']>(async (req, signal) => {
      payments.push(req);
      if (signal) signals.push(signal);
      return {
        paymentId: `pay-${payments.length}`,
        authorisationUrl: `https://bank.test/authorise/${payments.length}`,
      };
    }),
  };
  return { transport, payments, signals };
}

/** One ordered log of events and errors, as the merchant's callbacks saw them. */
export function makeLog() {
  const log: string[] = [];
  return {
    log,
    eventConsumer: (event: string) => log.push(event),
    errorConsumer: (error: { location: string; error: string }) =>
      log.push(`error:${error.location}:${error.error}`),
  };
}
