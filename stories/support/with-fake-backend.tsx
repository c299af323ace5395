import type { ArgTypes, Decorator } from '@storybook/react-vite';
import { createFakeBackend, DEFAULT_BACKEND } from './fake-backend';
import type {
  BankList,
  FakeBackend,
  FakeBackendSettings,
  InstitutionsReply,
  PaymentReply,
} from './fake-backend';

/**
 * Story-only controls for the fake backend. They never reach the component: the decorator
 * takes them out of the args and passes the fake's transport instead.
 */
export interface FakeBackendArgs {
  backendLatencyMs?: number;
  backendBanks?: BankList;
  backendInstitutions?: InstitutionsReply;
  backendPayment?: PaymentReply;
}

export const fakeBackendArgs: Required<FakeBackendArgs> = {
  backendLatencyMs: DEFAULT_BACKEND.latencyMs,
  backendBanks: DEFAULT_BACKEND.banks,
  backendInstitutions: DEFAULT_BACKEND.institutions,
  backendPayment: DEFAULT_BACKEND.payment,
};

const table = { category: 'Fake backend (stories only)' };

export const fakeBackendArgTypes: Partial<ArgTypes<FakeBackendArgs>> = {
  backendLatencyMs: {
    name: 'latency (ms)',
    description: 'How long the fake backend takes to answer each request.',
    control: { type: 'range', min: 0, max: 3000, step: 100 },
    table,
  },
  backendBanks: {
    name: 'banks',
    description: 'The banks the fake backend lists (six, sixty-four, or none).',
    control: 'inline-radio',
    options: ['six', 'sixty-four', 'none', 'broken-logos', 'one-unavailable'] satisfies BankList[],
    table,
  },
  backendInstitutions: {
    name: 'bank list request',
    description:
      'How the bank-list request is answered: `fail-once` fails the first request only, so Retry works.',
    control: 'select',
    options: ['ok', 'fail-once', 'fail', 'never-answers'] satisfies InstitutionsReply[],
    table,
  },
  backendPayment: {
    name: 'payment request',
    description:
      'How a payment request is answered: `unsafe-url` answers with a `javascript:` URL, which the component refuses.',
    control: 'select',
    options: ['ok', 'fail', 'never-answers', 'unsafe-url'] satisfies PaymentReply[],
    table,
  },
};

function settingsOf(args: FakeBackendArgs): Partial<FakeBackendSettings> {
  const settings: Partial<FakeBackendSettings> = {};
  if (args.backendLatencyMs !== undefined) settings.latencyMs = args.backendLatencyMs;
  if (args.backendBanks !== undefined) settings.banks = args.backendBanks;
  if (args.backendInstitutions !== undefined) settings.institutions = args.backendInstitutions;
  if (args.backendPayment !== undefined) settings.payment = args.backendPayment;
  return settings;
}

/** A fresh backend for every story render (a remount starts afresh: `fail-once` fails again). */
export const fakeBackendLoader = ({ args }: { args: FakeBackendArgs }) => ({
  backend: createFakeBackend(settingsOf(args)),
});

/** The story's fake backend, for play functions. */
export function backendOf(context: { loaded: Record<string, unknown> }): FakeBackend {
  const backend = context.loaded.backend as FakeBackend | undefined;
  if (!backend) throw new Error('stories: this story has no fakeBackendLoader');
  return backend;
}

/** Swaps the fake-backend args for the fake's transport; changing a control applies at once. */
export const withFakeBackend: Decorator = (Story, context) => {
  const { backendLatencyMs, backendBanks, backendInstitutions, backendPayment, ...props } =
    context.args as FakeBackendArgs & Record<string, unknown>;
  const backend = backendOf(context);
  backend.configure(
    settingsOf({ backendLatencyMs, backendBanks, backendInstitutions, backendPayment }),
  );
  return Story({ args: { ...props, transport: backend.transport } });
};
