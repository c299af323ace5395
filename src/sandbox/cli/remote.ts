/**
 * The commands that act on a running sandbox (resend, break, check-receiver, complete-late,
 * pay-again, rotate-key): the CLI's door to its command layer. The flags become a command, POSTed as the JSON that the
 * sandbox's `/deliveries/<command>` (and `/keys/…`) take from tools on this machine.
 */
import { commandToJson } from '../commands/commands';
import type { DeliveriesCommand } from '../commands/commands';
import { caseSpec } from '../deliveries/receiver-check';
import { describeFaults } from '../deliveries/faults';
import { describeFailure } from '../deliveries/notification';
import type {
  ArmedFaults,
  DeliveryFaults,
  ReceiverCheckReport,
  SandboxPayment,
} from '../api/types';
import { EXIT_FAILURE, EXIT_OK, UsageError, parse, wholeNumber } from './args';
import type { CliIo } from './args';
import { prefixed } from '../../webhook/prefixed';
import {
  BREAK_OPTIONS,
  CHECK_OPTIONS,
  DEFAULT_SANDBOX_ADDRESS,
  FAULT_OPTIONS,
  ROTATE_OPTIONS,
} from './usage';

/**
 * POSTs an action to a running sandbox as JSON, which its routes accept from tools on this
 * machine (a page elsewhere cannot send it).
 */
export async function askSandbox(
  sandbox: string | undefined,
  path: string,
  body: unknown,
): Promise<{ address: string; answer: Record<string, unknown> }> {
  const address = (sandbox ?? DEFAULT_SANDBOX_ADDRESS).replace(/\/+$/, '');
  if (!URL.canParse(address) || !/^https?:$/.test(new URL(address).protocol)) {
    throw new UsageError(`--sandbox must be the sandbox's http(s) address, got "${address}"`);
  }
  let response: Response;
  try {
    response = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (cause) {
    throw new Error(
      prefixed(
        `no sandbox answered at ${address} (${describeFailure((cause as Error).cause ?? cause)}). Start it, or give its address with --sandbox.`,
      ),
      { cause },
    );
  }
  const text = await response.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not the sandbox's JSON: reported below with the status.
  }
  if (!response.ok) {
    const message = typeof answer.error === 'string' ? answer.error : text.slice(0, 200);
    throw new Error(`${message} (HTTP ${response.status} from ${address})`);
  }
  return { address, answer };
}

/** Runs a command on the sandbox at `--sandbox`; resolves with its JSON answer. */
async function run(sandbox: string | undefined, command: DeliveriesCommand) {
  return (await askSandbox(sandbox, `/deliveries/${command.name}`, commandToJson(command))).answer;
}

function faultFlags(values: {
  'twice-at-once'?: boolean;
  'late-resend'?: string;
  'network-failures'?: string;
  delay?: string;
}): DeliveryFaults {
  const faults: DeliveryFaults = {};
  const maxMs = 2 ** 31 - 1;
  if (values['twice-at-once']) faults.twiceAtOnce = true;
  if (values['late-resend'] !== undefined)
    faults.lateResendMs = wholeNumber('late-resend', values['late-resend'], maxMs);
  if (values['network-failures'] !== undefined)
    faults.networkFailures = wholeNumber('network-failures', values['network-failures'], 1000);
  if (values.delay !== undefined) faults.delayMs = wholeNumber('delay', values.delay, maxMs);
  return faults;
}

export async function resendCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, FAULT_OPTIONS, true);
  if (positionals.length !== 1) {
    throw new UsageError('resend needs one payment id: servicepay-sandbox resend <payment-id>');
  }
  const faults = faultFlags(values);
  const broken = Object.keys(faults).length > 0;
  const answer = await run(values.sandbox, {
    name: 'resend',
    paymentId: positionals[0]!,
    faults: broken ? faults : undefined,
  });
  io.out(
    `Resending the notification of payment ${positionals[0]} as copy ${String(answer.copy)}${broken ? `, broken on purpose: ${describeFaults(faults)}` : ''}.`,
  );
  io.out(`Watch it at ${String(answer.deliveries)}`);
  return EXIT_OK;
}

export async function breakCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, BREAK_OPTIONS);
  if (values.payment !== undefined && values.next !== undefined) {
    throw new UsageError('break takes --payment <id> or --next <n>, not both');
  }
  const faults = faultFlags(values);
  const count = values.next === undefined ? 1 : wholeNumber('next', values.next, 1000);
  if (Object.keys(faults).length === 0 && count > 0) {
    throw new UsageError(
      'break needs at least one fault: --twice-at-once, --late-resend <ms>, --network-failures <n> or --delay <ms> (--next 0 disarms)',
    );
  }
  const answer = await run(values.sandbox, {
    name: 'break',
    faults,
    target: values.payment !== undefined ? { paymentId: values.payment } : { count },
  });
  const armed = answer.armed as ArmedFaults;
  const lines = [
    ...(armed.next
      ? [`the next ${armed.next.remaining} notification(s): ${describeFaults(armed.next.faults)}`]
      : []),
    ...armed.payments.map((p) => `payment ${p.paymentId}: ${describeFaults(p.faults)}`),
  ];
  io.out(lines.length > 0 ? `Armed:\n  ${lines.join('\n  ')}` : 'Nothing armed.');
  return EXIT_OK;
}

export async function checkReceiverCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, CHECK_OPTIONS);
  io.out('Running the receiver check (a few seconds)…');
  const answer = await run(values.sandbox, { name: 'check' });
  const report = answer as unknown as ReceiverCheckReport;
  const failed = report.cases.filter((c) => !c.passed).length;
  io.out(
    `Receiver check of ${report.url}: ${failed === 0 ? 'every case as expected' : `${failed} of ${report.cases.length} cases not as expected`}`,
  );
  for (const c of report.cases) {
    const answers = c.copies.map((copy) => `copy ${copy.copy}: ${copy.answers.join(' → ')}`);
    io.out(
      `  ${c.passed ? 'ok  ' : 'NOT '} ${caseSpec(c.name)?.title ?? c.name} (${c.paymentId}): ${answers.join('; ')}. ${c.verdict}`,
    );
  }
  io.out(report.note);
  return failed === 0 ? EXIT_OK : EXIT_FAILURE;
}

/** `complete-late <payment-id>` and `pay-again <payment-id>`: a payment's late or second pay. */
export async function paymentCommand(
  name: 'complete-late' | 'pay-again',
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parse(argv, CHECK_OPTIONS, true);
  if (positionals.length !== 1) {
    throw new UsageError(`${name} needs one payment id: servicepay-sandbox ${name} <payment-id>`);
  }
  const answer = await run(values.sandbox, { name, paymentId: positionals[0]! });
  const payment = answer.payment as SandboxPayment;
  io.out(
    name === 'complete-late'
      ? `Payment ${payment.paymentId} is COMPLETED now: its late notification is on its way.`
      : `Paid again: payment ${payment.paymentId} (merchantPaymentId ${String(payment.merchantPaymentId)}), COMPLETED, for the order of ${positionals[0]}.`,
  );
  io.out(`Watch it at ${String(answer.deliveries)}`);
  return EXIT_OK;
}

/** `rotate-key [--prepare]`: rehearses a key rotation on a running sandbox. */
export async function rotateKeyCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, ROTATE_OPTIONS);
  const path = values.prepare ? '/keys/next' : '/keys/rotate';
  const keys = (await askSandbox(values.sandbox, path, {})).answer as Record<string, string>;
  io.out(values.prepare ? 'The next key:' : 'Rotated. The sandbox now signs with:');
  io.out(values.prepare ? String(keys.next) : String(keys.current));
  io.out(
    values.prepare
      ? 'Give your receiver both keys (publicKey: [current, next]), then: servicepay-sandbox rotate-key'
      : 'Once notifications verify, remove the previous key from your receiver.',
  );
  return EXIT_OK;
}
