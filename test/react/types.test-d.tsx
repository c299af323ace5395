// Type tests, checked by `npm run typecheck` (tsc): every `@ts-expect-error` must be an error,
// so a wrong option key or value that starts compiling fails the build.
import { createRef } from 'react';
import {
  PaymentResult,
  STOP_LISTENING_AFTER_MS,
  ServicePay,
  useServicePayment,
} from '../../src/react/index';
import type {
  PaymentResultOutcome,
  PaymentResultState,
  ServicePayHandle,
  ServiceEventName,
  ServiceError,
} from '../../src/react/index';
// @ts-expect-error renamed outright (CHANGELOG): no alias under the old name
import type { PaymentOutcome } from '../../src/react/index';
import { ServiceEvent, createPaymentSession } from '../../src/core/index';
import cy from 'servicepay/locales/cy';
import { APP_ID } from '../helpers/merchant';

const applicationId = APP_ID;
const ref = createRef<ServicePayHandle>();

export const valid = (
  <ServicePay
    ref={ref}
    environment="LIVE"
    applicationId={applicationId}
    baseUrl="https://pay.merchant.example"
    agentType="MOBILE_APPLICATION"
    disableVolumeStyling
    payment={{ amount: 1, paymentReference: 'R', metadata: { nested: { ok: true } } }}
    eventConsumer={(event: ServiceEventName) => event === ServiceEvent.MOUNTED}
    errorConsumer={(error: ServiceError) => error.location === 'fetchInstitutions'}
  />
);

// @ts-expect-error environment is SANDBOX or LIVE
export const badEnvironment = <ServicePay environment="PROD" applicationId={applicationId} />;
// @ts-expect-error applicationId is required
export const missingId = <ServicePay environment="SANDBOX" />;
export const misspelt = (
  // @ts-expect-error the key is disableVolumeStyling, spelled exactly so
  <ServicePay environment="SANDBOX" applicationId={applicationId} disableStyling />
);
export const badAgent = (
  // @ts-expect-error agentType values are WEB_BROWSER and MOBILE_APPLICATION
  <ServicePay environment="SANDBOX" applicationId={applicationId} agentType="DESKTOP" />
);
export const currency = (
  <ServicePay
    environment="SANDBOX"
    applicationId={applicationId}
    // @ts-expect-error the currency is always GBP and cannot be set
    payment={{ amount: 1, paymentReference: 'R', currency: 'EUR' }}
  />
);
export const metadataArray = (
  <ServicePay
    environment="SANDBOX"
    applicationId={applicationId}
    // @ts-expect-error metadata is a JSON object, not an array
    payment={{ amount: 1, paymentReference: 'R', metadata: [1, 2] }}
  />
);

// @ts-expect-error toggleButton takes a boolean
ref.current?.toggleButton('yes');
// @ts-expect-error events are the spec's values only
export const badEvent: ServiceEventName = 'clicked';

export function Hook() {
  const pay = useServicePayment({ environment: 'SANDBOX', applicationId });
  const status:
    'idle' | 'loading' | 'selecting' | 'initiating' | 'awaiting-authorisation' | 'error' =
    pay.status;
  // @ts-expect-error the hook's state is read-only data, not a setter API
  pay.setStatus('idle');
  return status;
}

export const session = createPaymentSession({ environment: 'SANDBOX', applicationId });

// One name per meaning: the root entry's outcome is PaymentResultOutcome, and no
// `PaymentOutcome` is left there to collide with servicepay/webhook's recorded outcome.
export const outcomeOf = (outcome: PaymentResultOutcome): 'COMPLETED' | 'FAILED' | 'NEEDS_REVIEW' =>
  outcome.status;
export type OldOutcome = PaymentOutcome;

// The result page's wait (issue 45): the horizon is a number of ms, the shop's sentence text.
export const waiting = (
  <PaymentResult
    statusUrl="/api/payments/status"
    notHeardAfterMs={60_000}
    stopListeningAfterMs={STOP_LISTENING_AFTER_MS}
    pendingNotice="We’ll email you as soon as your bank confirms."
  />
);
// @ts-expect-error pendingNotice is text, never markup
export const markupNotice = <PaymentResult statusUrl="/s" pendingNotice={<b>Soon</b>} />;
// @ts-expect-error the horizon is a number of ms
export const textHorizon = <PaymentResult statusUrl="/s" stopListeningAfterMs="30m" />;
export const stillConfirming: PaymentResultState = 'still-confirming';
// @ts-expect-error a state's name, exactly
export const pendingState: PaymentResultState = 'pending';

// The shopper's language (issue 49): `locale` is a catalogue, never a tag (the React entries
// import the language they show; only the plain page's scripts carry languages by name).
export const welsh = (
  <>
    <ServicePay environment="SANDBOX" applicationId={applicationId} locale={cy} />
    <PaymentResult statusUrl="/s" locale={cy} />
  </>
);
export const tagged = (
  // @ts-expect-error a catalogue, not its tag
  <ServicePay environment="SANDBOX" applicationId={applicationId} locale="cy" />
);
// @ts-expect-error a catalogue, whole: a screen alone is not one
export const screenOnly = <PaymentResult statusUrl="/s" locale={cy.result} />;
