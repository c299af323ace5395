// Type tests, checked by `npm run typecheck` (tsc): every `@ts-expect-error` must be an error,
// so a wrong option key or value that starts compiling fails the build.
import {
  Service,
  ServiceEvent,
  ServiceInjectionError,
  ServiceResult,
} from '../../src/vanilla/index';
import cy from 'servicepay/locales/cy';
import type { ServiceError, ServiceEventName, ServiceOptions } from '../../src/vanilla/index';
import { APP_ID } from '../helpers/merchant';

const applicationId = APP_ID;

const service = new Service({
  environment: 'SANDBOX',
  applicationId,
  disableVolumeStyling: true,
  disablePayButton: true,
  isWebView: false,
  agentType: 'MOBILE_APPLICATION',
  title: 'Pay by bank',
  label: 'No card needed',
  payLabel: 'Pay £',
  baseUrl: 'http://127.0.0.1:4010',
  openUrl: (url: string) => window.open(url),
  nonce: 'abc',
  eventConsumer: (event: ServiceEventName) => event === ServiceEvent.PAYMENT_INITIATED,
  errorConsumer: (error: ServiceError) => error.location === 'payWithBankInstitution',
});
export const prepared: boolean = service.createPayment({
  amount: 12.5,
  paymentReference: 'ORDER-1042',
  metadata: { orderId: 1042 },
});
export const started: Promise<void> = service.payWithInstitution('monzo');
export const next: string = service.merchantPaymentId;
service.injectComponent('service-component');
service.toggleButton(true);
service.openInstitutionSelection();
service.destroy();
export const thrown = new ServiceInjectionError('servicepay: …', 'x') instanceof Error;

// @ts-expect-error environment is SANDBOX or LIVE
export const badEnvironment = new Service({ environment: 'PROD', applicationId });
// @ts-expect-error applicationId is required
export const missingId = new Service({ environment: 'SANDBOX' });
export const misspelt = new Service({
  environment: 'SANDBOX',
  applicationId,
  // @ts-expect-error the key is disableVolumeStyling, spelled exactly so
  disableStyling: true,
});
// @ts-expect-error payments go through createPayment, not an option
export const payment = new Service({ environment: 'SANDBOX', applicationId, payment: {} });
// @ts-expect-error the currency cannot be set
service.createPayment({ amount: 1, paymentReference: 'R', currency: 'EUR' });
// @ts-expect-error toggleButton takes a boolean
service.toggleButton('yes');
// @ts-expect-error merchantPaymentId is read-only
service.merchantPaymentId = 'x';

export const options: ServiceOptions = { environment: 'LIVE', applicationId };

// The plain page's languages (issue 49): the two the scripts carry by name, or a catalogue.
export const welsh = new Service({ environment: 'SANDBOX', applicationId, locale: 'cy' });
export const french = new Service({
  environment: 'SANDBOX',
  applicationId,
  locale: { ...cy, lang: 'fr' },
});
// @ts-expect-error a name the scripts do not carry: pass a catalogue object instead
export const unknown = new Service({ environment: 'SANDBOX', applicationId, locale: 'fr' });
export const result = new ServiceResult({ statusUrl: '/s', locale: 'en' });
