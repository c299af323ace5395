/**
 * The one command layer for resend, break, the receiver check, a late COMPLETED and a second
 * paid attempt for an order. Four doors lead to it: the
 * Sandbox methods, the JSON API (`POST /deliveries/<command>`), the deliveries page's forms
 * and the CLI (which sends the JSON). Each door only reads its input into a DeliveriesCommand
 * and writes the result its own way; what is allowed, what is checked and every refusal (a
 * SandboxError whose code HTTP_STATUS turns into a status) live here.
 */
import { SandboxError, unknownPayment } from '../api/errors';
import { checkFaults } from '../deliveries/faults';
import { checkNeedsWebhookUrl } from '../deliveries/receiver-check';
import type { ReceiverCheck } from '../deliveries/receiver-check';
import type { Deliverer } from '../deliveries/deliverer';
import type { Lifecycle } from '../payments/lifecycle';
import type { PaymentStore } from '../payments/store';
import type {
  ArmedFaults,
  DeliveryFaults,
  DeliveryFaultTarget,
  ReceiverCheckReport,
  SandboxPayment,
} from '../api/types';

/** The commands' names, as in their paths (`/deliveries/resend`) and the CLI's words. */
export const COMMAND_NAMES = ['resend', 'break', 'check', 'complete-late', 'pay-again'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** A command, whichever door it came through. Values are checked when it runs. */
export type DeliveriesCommand =
  | { name: 'resend'; paymentId: string; faults?: DeliveryFaults }
  | { name: 'break'; faults: DeliveryFaults; target?: DeliveryFaultTarget }
  | { name: 'check' }
  | { name: 'complete-late' | 'pay-again'; paymentId: string };

/**
 * What each command gives back. The check's report comes when the check ends; a late COMPLETED
 * gives its payment, a second paid attempt the new one.
 */
export interface CommandResults {
  resend: { paymentId: string; copy: number };
  break: { armed: ArmedFaults };
  check: { report: Promise<ReceiverCheckReport> };
  'complete-late': { payment: SandboxPayment };
  'pay-again': { payment: SandboxPayment };
}

export type CommandResult<C extends DeliveriesCommand = DeliveriesCommand> =
  CommandResults[C['name']];

export interface Commands {
  /**
   * Runs a command: refusals are thrown (SandboxError) before anything is done; the receiver
   * check then runs on (joined when one is running already).
   */
  run<C extends DeliveriesCommand>(command: C): CommandResult<C>;
}

export function createCommands(parts: {
  payments: Pick<PaymentStore, 'get'>;
  deliverer: Pick<Deliverer, 'resend' | 'arm' | 'notification'>;
  checker: Pick<ReceiverCheck, 'run'>;
  lifecycle: Pick<Lifecycle, 'completeLate' | 'payAgain'>;
  webhookUrl: URL | undefined;
  log: (line: string) => void;
}): Commands {
  const { payments, deliverer, checker, lifecycle, webhookUrl, log } = parts;

  function resend(paymentId: string, faults: DeliveryFaults | undefined) {
    // Without faults, those armed for the payment apply (the deliverer takes them).
    const checked = faults === undefined ? undefined : checkFaults(faults);
    const payment = payments.get(paymentId);
    // A PENDING payment has sent nothing, unless the bank is still checking it.
    if (payment?.status === 'PENDING' && deliverer.notification(paymentId) === undefined) {
      throw new SandboxError(
        'payment-pending',
        `the payment ${paymentId} is still PENDING, so it has no notification yet; approve or reject it first.`,
      );
    }
    if (webhookUrl === undefined) {
      throw new SandboxError(
        'no-webhook-url',
        'nothing to resend: no webhookUrl is configured, so the sandbox sends no notification (--webhook-url).',
      );
    }
    return { paymentId, copy: deliverer.resend(paymentId, checked) };
  }

  function breakDeliveries(faults: DeliveryFaults, target: DeliveryFaultTarget = { count: 1 }) {
    if (typeof target !== 'object' || target === null) {
      throw new SandboxError(
        'invalid-argument',
        'breakDeliveries target must be { paymentId } or { count }.',
      );
    }
    if ('paymentId' in target && payments.get(target.paymentId) === undefined) {
      throw unknownPayment(target.paymentId);
    }
    const armed = deliverer.arm(faults, target);
    log(
      `deliveries armed: ${'paymentId' in target ? `payment ${target.paymentId}` : `the next ${target.count} notification(s)`}`,
    );
    return { armed };
  }

  function check() {
    if (webhookUrl === undefined) throw checkNeedsWebhookUrl();
    return { report: checker.run() };
  }

  return {
    run<C extends DeliveriesCommand>(command: C): CommandResult<C> {
      switch (command.name) {
        case 'resend':
          return resend(command.paymentId, command.faults) as CommandResult<C>;
        case 'break':
          return breakDeliveries(command.faults, command.target) as CommandResult<C>;
        case 'check':
          return check() as CommandResult<C>;
        case 'complete-late':
          return { payment: lifecycle.completeLate(command.paymentId) } as CommandResult<C>;
        case 'pay-again':
          return { payment: lifecycle.payAgain(command.paymentId) } as CommandResult<C>;
      }
      throw new SandboxError(
        'invalid-argument',
        `unknown command ${JSON.stringify((command as { name: unknown }).name)}; the commands are ${COMMAND_NAMES.join(', ')}.`,
      );
    },
  };
}

/**
 * A command as the JSON the API takes (and the CLI sends): `{ paymentId, faults? }`,
 * `{ faults, paymentId | count }`, `{}`.
 */
export function commandToJson(command: DeliveriesCommand): Record<string, unknown> {
  switch (command.name) {
    case 'resend':
      return {
        paymentId: command.paymentId,
        ...(command.faults ? { faults: command.faults } : {}),
      };
    case 'break':
      return { faults: command.faults, ...(command.target ?? { count: 1 }) };
    case 'check':
      return {};
    default:
      return { paymentId: command.paymentId };
  }
}

/** The command of a JSON body (see commandToJson); the values are checked when it runs. */
export function commandFromJson(
  name: CommandName,
  input: Record<string, unknown>,
): DeliveriesCommand {
  switch (name) {
    case 'resend':
      return {
        name,
        paymentId: String(input.paymentId ?? ''),
        faults: input.faults as DeliveryFaults | undefined,
      };
    case 'break':
      return {
        name,
        faults: (input.faults ?? {}) as DeliveryFaults,
        target:
          typeof input.paymentId === 'string'
            ? { paymentId: input.paymentId }
            : { count: input.count === undefined ? 1 : (input.count as number) },
      };
    case 'check':
      return { name };
    default:
      return { name, paymentId: String(input.paymentId ?? '') };
  }
}

/** The fields of the deliveries page's fault inputs. */
const FAULT_FIELDS = ['twiceAtOnce', 'lateResend', 'networkFailures', 'delayMs'];

/** The fault fields of a deliveries form; empty numbers and zeros mean "not this fault". */
function faultsFromForm(fields: URLSearchParams): DeliveryFaults {
  const number = (name: string): number | undefined => {
    const value = fields.get(name)?.trim();
    return value === undefined || value === '' ? undefined : Number(value);
  };
  const faults: DeliveryFaults = {};
  if (fields.has('twiceAtOnce')) faults.twiceAtOnce = true;
  if (fields.has('lateResend')) faults.lateResendMs = number('lateResendMs') ?? 0;
  const failures = number('networkFailures');
  if (failures !== 0 && failures !== undefined) faults.networkFailures = failures;
  const delay = number('delayMs');
  if (delay !== 0 && delay !== undefined) faults.delayMs = delay;
  return faults;
}

/** The command of a deliveries page's form. */
export function commandFromForm(name: CommandName, fields: URLSearchParams): DeliveriesCommand {
  switch (name) {
    case 'resend': {
      const broken = FAULT_FIELDS.some((field) => fields.has(field));
      return {
        name,
        paymentId: fields.get('paymentId') ?? '',
        faults: broken ? faultsFromForm(fields) : undefined,
      };
    }
    case 'break':
      return {
        name,
        faults: faultsFromForm(fields),
        target:
          fields.get('target') === 'payment'
            ? { paymentId: (fields.get('paymentId') ?? '').trim() }
            : { count: Number(fields.get('count') ?? '1') },
      };
    case 'check':
      return { name };
    default:
      return { name, paymentId: (fields.get('paymentId') ?? '').trim() };
  }
}
