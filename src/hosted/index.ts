// servicepay/hosted: <ServicePay> on the service's own script (spec 4.3, 4.4), for LIVE.
// A client module as a whole (its build opens with 'use client'): everything in it runs in
// the browser; importing it on a server touches no `window`.
export { ServicePay } from './ServicePay';
export type { HostedServicePayProps } from './ServicePay';
export type { HostedServicePayHandle } from './link';
export { useServiceScript } from './useServiceScript';
export type { ServiceScriptState } from './useServiceScript';
export { loadService, ServiceScriptError } from './load-service';
export type { LoadServiceOptions } from './load-service';
export type { ServiceConstructor, ServiceInstance, ServiceOptions } from './types';
export { ServiceEvent, ErrorLocation } from '../core/index';
export type * from '../core/public-types';
