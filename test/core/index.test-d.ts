// Type tests of servicepay/core's public names (checked by `npm run typecheck`): every
// `@ts-expect-error` must be an error, so a name that becomes public again fails the build.
import { createPaymentSession } from 'servicepay/core';
import type { PaymentSession } from 'servicepay/core';
// @ts-expect-error internal (issue 48): how the extras take part in a session (src/core/internal.ts)
import type { SessionWiring } from 'servicepay/core';
// @ts-expect-error internal (issue 48): continuing here from a handoff is the session's own work
import { continueHandoff } from 'servicepay/core';
import { APP_ID } from '../helpers/merchant';

export const session: PaymentSession = createPaymentSession({
  environment: 'SANDBOX',
  applicationId: APP_ID,
});

// @ts-expect-error the session gives no dispatch: its events happen inside it
session.dispatch();

export type Unused = SessionWiring;
export const unused: unknown = continueHandoff;
