'use client';
import { forwardRef } from 'react';
import type { ForwardRefExoticComponent, RefAttributes } from 'react';
import type { ServicePayHandle } from './useServicePayment';
import { ServicePayView } from './ServicePayView';
import type { ServicePayProps } from './ServicePayView';

export type { ServicePayProps } from './ServicePayView';

// Only the React entry imports this module: `forwardRef` turns the element's `ref` into the
// view's `handle` prop. The Preact builds (servicepay/vanilla and the standalone script)
// render ./ServicePayView directly, as Preact's core has no `forwardRef`.

/** The pay-by-bank component: title, label, Pay button and the bank list. */
export const ServicePay: ForwardRefExoticComponent<
  ServicePayProps & RefAttributes<ServicePayHandle>
> = forwardRef<ServicePayHandle, ServicePayProps>(function ServicePay(props, ref) {
  return <ServicePayView {...props} handle={ref} />;
});
