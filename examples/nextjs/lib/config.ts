import 'server-only';
import { SANDBOX_BASE_URL } from 'servicepay/sandbox';

/**
 * Read at request time (never at build time, so the same build runs anywhere). The sandbox
 * accepts any application id in UUID form; in LIVE it is the one your account gives you.
 */
export function checkoutConfig() {
  return {
    applicationId: process.env.SERVICEPAY_APPLICATION_ID ?? '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6',
    sandboxUrl: process.env.SERVICEPAY_SANDBOX_URL ?? SANDBOX_BASE_URL,
  };
}
