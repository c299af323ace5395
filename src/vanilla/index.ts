/**
 * `servicepay/vanilla`: the `Service` class for pages without React (spec 4.4). Built on the
 * same core session and the same component as the React entry, compiled against Preact's core
 * and hooks (./preact-hooks.ts), which are bundled in, so it needs no dependency.
 */
export { Service } from './service';
export type { ServiceOptions } from './service';
export { ServiceResult } from './result';
export type { ServiceResultOptions } from './result';
export { ServiceInjectionError } from './errors';
export {
  ServiceEvent,
  ErrorLocation,
  DEFAULT_MESSAGES,
  DEFAULT_RESULT_MESSAGES,
  SAVED_PAYMENT_KEY,
} from '../core/index';
export type * from '../core/public-types';
