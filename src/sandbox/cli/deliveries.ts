/**
 * `servicepay-sandbox resend | break | check-receiver`: the CLI's door to the command layer.
 * The flags become a command, sent as the JSON the sandbox's `/deliveries/<command>` takes.
 */
import { askSandbox } from './client';
import { UsageError } from './flags';
import { commandToJson } from '../commands/commands';
import type { DeliveriesCommand } from '../commands/commands';
import { caseSpec } from '../diagnosis';
import { describeFaults } from '../faults';
import type { CliIo } from './exit';
import type { ArmedFaults, DeliveryFaults, ReceiverCheckReport } from '../types';
import { EXIT_FAILURE, EXIT_OK } from './exit';
import { parse, wholeNumber } from './parse';
import { BREAK_OPTIONS, CHECK_OPTIONS, FAULT_OPTIONS } from './usage';

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
