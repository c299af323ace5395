// Type tests, checked by `tsc -p tsconfig.json --noEmit`: the status vocabulary, declared once in
// src/core/protocol.ts, is one across the entries (issue 48). `FinalPaymentStatus` means
// COMPLETED | FAILED | NEEDS_REVIEW wherever it is exported; the service's own final statuses (what a notification carries, what the
// sandbox settles a payment with) are `WebhookPaymentStatus`, derived from it.
import { expectTypeOf } from 'vitest';
import type { FinalPaymentStatus, PaymentStatus } from '../../src/core/index';
import type * as sandbox from '../../src/sandbox/index';
import type {
  SandboxPaymentStatus,
  ScheduledStep,
  SettleOutcome,
  WebhookPaymentStatus as SandboxWebhookPaymentStatus,
} from '../../src/sandbox/index';
import type { FinalNotification, WebhookPaymentStatus } from '../../src/webhook/index';

expectTypeOf<FinalPaymentStatus>().toEqualTypeOf<'COMPLETED' | 'FAILED' | 'NEEDS_REVIEW'>();
expectTypeOf<PaymentStatus>().toEqualTypeOf<'PENDING' | FinalPaymentStatus>();
expectTypeOf<WebhookPaymentStatus>().toEqualTypeOf<'COMPLETED' | 'FAILED'>();
expectTypeOf<SandboxWebhookPaymentStatus>().toEqualTypeOf<WebhookPaymentStatus>();
expectTypeOf<FinalNotification['paymentStatus']>().toEqualTypeOf<WebhookPaymentStatus>();
expectTypeOf<SettleOutcome['status']>().toEqualTypeOf<WebhookPaymentStatus>();
expectTypeOf<SandboxPaymentStatus>().toEqualTypeOf<
  'PENDING' | 'COMPLETED' | 'FAILED' | 'SETTLED'
>();
expectTypeOf<ScheduledStep['status']>().toEqualTypeOf<'COMPLETED' | 'FAILED' | 'SETTLED'>();

// The sandbox no longer exports a FinalPaymentStatus of its own with other members.
// @ts-expect-error renamed to WebhookPaymentStatus (CHANGELOG, 0.12.0)
export type Gone = sandbox.FinalPaymentStatus;
