// Type tests of servicepay/hosted, checked by `npm run typecheck` (tsc): every
// `@ts-expect-error` must be an error. The root <ServicePay>'s props that only the
// reimplemented component can honour are not accepted here.
import { createRef } from 'react';
import { ServicePay, loadService, useServiceScript } from '../../src/hosted/index';
import type { HostedServicePayHandle, ServiceConstructor } from '../../src/hosted/index';
import type { ServiceDisplayProps } from '../../src/react/index';
import { APP_ID } from '../helpers/merchant';

const ref = createRef<HostedServicePayHandle>();
const scriptSrc = 'https://scripts.service.example/Service-0.9.3.min.js';

export const valid = (
  <ServicePay
    ref={ref}
    scriptSrc={scriptSrc}
    integrity="sha384-abc"
    nonce="n"
    globalName="AcmePay"
    environment="LIVE"
    applicationId={APP_ID}
    payment={{ amount: 1, paymentReference: 'R' }}
    title="Pay"
    label="Securely"
    payLabel="Pay £"
    disablePayButton
    isWebView={false}
    agentType="WEB_BROWSER"
    disableVolumeStyling
    disableTailwindStyling
    eventConsumer={(event) => event === 'mounted'}
    errorConsumer={(error) => error.location === 'fetchInstitutions'}
    generateMerchantPaymentId={() => 'order-1'}
    onPaymentInitiated={({ merchantPaymentId }) => merchantPaymentId.length}
    className="checkout"
  />
);

// @ts-expect-error scriptSrc is required: the address comes from the service's onboarding
export const noScript = <ServicePay environment="LIVE" applicationId={APP_ID} />;
const base = { scriptSrc, environment: 'LIVE', applicationId: APP_ID } as const;
// @ts-expect-error the service's script talks to its own backend
export const baseUrl = <ServicePay {...base} baseUrl="https://x.example" />;
// @ts-expect-error a transport is the reimplementation's
export const transport = <ServicePay {...base} transport={{}} />;
// @ts-expect-error the service's script opens the bank itself
export const openUrl = <ServicePay {...base} openUrl={() => {}} />;
// @ts-expect-error the messages table is the reimplementation's
export const messages = <ServicePay {...base} messages={{}} />;
// @ts-expect-error the extras are the reimplementation's
export const extras = <ServicePay {...base} extras={{}} />;
// @ts-expect-error the result's statusUrl is the reimplementation's
export const statusUrl = <ServicePay {...base} statusUrl="/s" />;

export const loaded: Promise<ServiceConstructor> = loadService(scriptSrc, { timeoutMs: 5000 });
export function Status() {
  const { status, retry } = useServiceScript(scriptSrc);
  const state: 'loading' | 'ready' | 'error' = status;
  return <button onClick={retry}>{state}</button>;
}

// The display props are the root component's own type (one home), accepted as they are there.
const display: ServiceDisplayProps = {
  title: 'Pay',
  disableTailwindStyling: true,
  className: 'checkout',
};
export const sharedDisplay = <ServicePay {...base} {...display} />;
