/**
 * The `servicepay-sandbox` command, as a function: arguments in, exit code out, output and
 * signals injected so tests run it in-process. cli.ts is the thin executable around it.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { PUBLIC_KEY_PATH } from '../core/index';
import { askSandbox, DEFAULT_SANDBOX_ADDRESS } from './cli-client';
import { SCRIPT_HOST_PATH } from './contract/script-host';
import { merchantNames, unavailableFlags, UsageError } from './cli-flags';
import { caseSpec } from './diagnosis';
import { SandboxConfigError } from './errors';
import { describeFaults } from './faults';
import { BANK_ERROR_DESCRIPTION, sendTestWebhook } from './notification';
import type { TestWebhookPayloadOverrides } from './notification';
import {
  DEFAULT_DELIVERY_HISTORY,
  DEFAULT_MAX_PAYMENTS,
  DEFAULT_MERCHANT_NAME,
  SANDBOX_DEFAULT_PORT,
} from './options';
import { startSandbox } from './server';
import type { ArmedFaults, DeliveryFaults, ReceiverCheckReport, Sandbox } from './types';

/** Exit codes: success, a failure at run time, a usage error (as most CLIs use 2). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface CliIo {
  /** Normal output, one line per call. */
  out(line: string): void;
  /** Errors and usage, one line per call. */
  err(line: string): void;
  /** Resolves when the sandbox should stop (SIGINT, SIGTERM). */
  untilStopRequested(): Promise<void>;
  /** Called with the running sandbox, once it listens (for tests). */
  onStarted?(sandbox: Sandbox): void;
}

export const USAGE = `Usage:
  servicepay-sandbox [options]                 Start the ServicePay sandbox
  servicepay-sandbox send-webhook [options]    Send one signed test notification (spec 5.3)
  servicepay-sandbox resend <payment-id> [faults]
                                               Send a payment's notification again, with the
                                               same bytes and signature, also after the
                                               sandbox gave up on it
  servicepay-sandbox break [faults] [--payment <id> | --next <n>]
                                               Break the next notifications (or one payment's)
                                               on purpose
  servicepay-sandbox check-receiver            Run the receiver check against the sandbox's
                                               webhook URL and print what it answered
  servicepay-sandbox rotate-key [--prepare]    Rehearse a key rotation: --prepare prints the
                                               next key (publish it beside the current one);
                                               without it, the sandbox signs with that key

Sandbox options:
  --port <n>                   Port to listen on (default ${SANDBOX_DEFAULT_PORT}; 0 picks a free one)
  --host <address>             Address to listen on (default 127.0.0.1; 0.0.0.0 for the network)
  --webhook-url <url>          Where webhook notifications are PUT
  --web-callback-url <url>     Where shoppers return after the bank page (WEB_BROWSER)
  --mobile-callback-url <url>  Where shoppers return after the bank page (MOBILE_APPLICATION)
  --key-file <path>            PEM private key to sign webhooks with, created when missing,
                               so the public key stays the same across restarts
  --merchant-name <name>       The payee the bank page shows (default "${DEFAULT_MERCHANT_NAME}");
                               <application-id>=<name> names one application's merchant
                               (repeat the flag for several)
  --public-url <url>           The address browsers use when it is not localhost or an IP
                               address (a tunnel, a network name); other host names are refused
  --delivery-history <n>       Delivery attempts kept for the deliveries page (default
                               ${DEFAULT_DELIVERY_HISTORY}); the oldest are dropped
  --max-payments <n>           Payments kept, with their notifications (default
                               ${DEFAULT_MAX_PAYMENTS}); the oldest are forgotten
  --unavailable <id>[,<id>...] Banks listed as unavailable: shown, but a payment there is
                               refused (repeat the flag or separate ids with commas)
  -h, --help                   Show this help

send-webhook options:
  --to <url>                   The receiver's address (required)
  --status COMPLETED|FAILED    Which example to send (required)
  --key-file <path>            Sign with this key; use the running sandbox's --key-file so the
                               receiver verifies with the key the sandbox serves
  Any field of the payload, to reproduce a notification exactly:
  --payment-id <id>            paymentId (default a new UUID)
  --merchant-payment-id <id>   merchantPaymentId (default a new UUID; null sends null)
  --amount <number>            paymentRequest.amount (default 12.5)
  --reference <text>           paymentRequest.reference (default ORDER-1042)
  --metadata <json>            paymentMetadata: a JSON object, or null
  --error-description <text>   errorDescription, FAILED only (default "${BANK_ERROR_DESCRIPTION}")

Faults (resend, break): what the real service may do, done on purpose
  --twice-at-once              Send two copies at the same moment
  --late-resend <ms>           Send it again this many milliseconds after the receiver's 200
  --network-failures <n>       Fail the first n attempts before they reach the receiver
  --delay <ms>                 Wait this many milliseconds before the first attempt
  resend without faults applies those armed for the payment, if any.

resend, break, check-receiver and rotate-key talk to a running sandbox:
  --sandbox <url>              Its address (default ${DEFAULT_SANDBOX_ADDRESS})
  --payment <id>               break: only this payment's next delivery (when it settles, or
                               its next resend)
  --next <n>                   break: the next n notifications (default 1; 0 disarms them)

Exit status: 0 on success (sandbox stopped cleanly; receiver answered 200; resend or break
accepted; every receiver check case as expected), 1 on failure (sandbox could not start or
be reached; receiver answered another status or did not answer; a case not as expected), 2 on
a usage error.`;

export const SERVER_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'webhook-url': { type: 'string' },
  'web-callback-url': { type: 'string' },
  'mobile-callback-url': { type: 'string' },
  'key-file': { type: 'string' },
  'merchant-name': { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  'delivery-history': { type: 'string' },
  'max-payments': { type: 'string' },
  unavailable: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const SEND_OPTIONS = {
  to: { type: 'string' },
  status: { type: 'string' },
  'key-file': { type: 'string' },
  'payment-id': { type: 'string' },
  'merchant-payment-id': { type: 'string' },
  amount: { type: 'string' },
  reference: { type: 'string' },
  metadata: { type: 'string' },
  'error-description': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const FAULT_OPTIONS = {
  'twice-at-once': { type: 'boolean' },
  'late-resend': { type: 'string' },
  'network-failures': { type: 'string' },
  delay: { type: 'string' },
  sandbox: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const BREAK_OPTIONS = {
  ...FAULT_OPTIONS,
  payment: { type: 'string' },
  next: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const CHECK_OPTIONS = {
  sandbox: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const ROTATE_OPTIONS = {
  ...CHECK_OPTIONS,
  prepare: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

/** Runs the command; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    if (argv[0] === 'send-webhook') return await sendWebhookCommand(argv.slice(1), io);
    if (argv[0] === 'resend') return await resendCommand(argv.slice(1), io);
    if (argv[0] === 'break') return await breakCommand(argv.slice(1), io);
    if (argv[0] === 'check-receiver') return await checkReceiverCommand(argv.slice(1), io);
    if (argv[0] === 'rotate-key') return await rotateKeyCommand(argv.slice(1), io);
    return await serveCommand(argv, io);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.out(USAGE);
      return EXIT_OK;
    }
    if (error instanceof UsageError) {
      io.err(`servicepay-sandbox: ${error.message}`);
      io.err('Run servicepay-sandbox --help for usage.');
      return EXIT_USAGE;
    }
    if (error instanceof SandboxConfigError) {
      io.err(error.message);
      return EXIT_USAGE;
    }
    io.err(error instanceof Error ? error.message : String(error));
    return EXIT_FAILURE;
  }
}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
  allowPositionals = false,
) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    // parseArgs' messages already name the flag ("Unknown option '--prot'").
    throw new UsageError((error as Error).message);
  }
  // Every command takes --help: answered once, in runCli.
  if ((parsed.values as { help?: boolean }).help) throw new HelpRequested();
  return parsed;
}

/** `--help` (or `-h`) given to any command: runCli prints the usage and exits 0. */
class HelpRequested extends Error {}

async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SERVER_OPTIONS);
  let port = SANDBOX_DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port))
      throw new UsageError(`--port must be a number, got "${values.port}"`);
    port = Number(values.port);
  }
  const [history, maxPayments] = (['delivery-history', 'max-payments'] as const).map((flag) => {
    const value = values[flag];
    if (value !== undefined && !/^\d{1,6}$/.test(value)) {
      throw new UsageError(`--${flag} must be a number, got "${value}"`);
    }
    return value === undefined ? undefined : Number(value);
  });
  const unavailable = unavailableFlags(values.unavailable);
  const sandbox = await startSandbox({
    port,
    host: values.host,
    webhookUrl: values['webhook-url'],
    webCallbackUrl: values['web-callback-url'],
    mobileCallbackUrl: values['mobile-callback-url'],
    keyFile: values['key-file'],
    ...merchantNames(values['merchant-name'] ?? []),
    publicUrl: values['public-url'],
    deliveryHistory: history,
    maxPayments,
    unavailableInstitutions: unavailable,
    log: (line) => io.out(`[sandbox] ${line}`),
  });
  io.out(`ServicePay sandbox running at ${sandbox.url}`);
  io.out(`  application id  ${sandbox.applicationId} (any UUID is accepted)`);
  io.out(`  public key      ${sandbox.url}${PUBLIC_KEY_PATH}`);
  io.out(`  webhooks        ${values['webhook-url'] ?? 'not sent (no --webhook-url)'}`);
  io.out(
    `  deliveries      ${sandbox.url}/deliveries (every attempt, Resend, break it on purpose)`,
  );
  io.out(`  script host     ${sandbox.url}${SCRIPT_HOST_PATH} (the component for plain pages)`);
  if (unavailable !== undefined) {
    io.out(`  unavailable     ${unavailable.join(', ')} (listed, but payments there are refused)`);
  }
  io.out('Press Ctrl-C to stop.');
  io.onStarted?.(sandbox);
  await io.untilStopRequested();
  io.out('Stopping the sandbox…');
  await sandbox.stop();
  return EXIT_OK;
}

async function sendWebhookCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SEND_OPTIONS);
  if (values.to === undefined) throw new UsageError('send-webhook needs --to <url>');
  const status = values.status?.toUpperCase();
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new UsageError('send-webhook needs --status COMPLETED or --status FAILED');
  }
  if (values['error-description'] !== undefined && status !== 'FAILED') {
    throw new UsageError(
      '--error-description is only for --status FAILED (a COMPLETED notification carries errorDescription null)',
    );
  }
  const result = await sendTestWebhook({
    to: values.to,
    status,
    keyFile: values['key-file'],
    payload: payloadFlags(values),
  });
  io.out(`PUT ${values.to}`);
  io.out(`Authorization: ${result.authorization}`);
  io.out(result.body);
  if (values['key-file'] === undefined) {
    io.out(
      'Signed with a new key (no --key-file); its public key, as /.well-known/signature/pem serves it:',
    );
    io.out(result.publicKeyText);
  }
  const answer = result.responseText ? `: ${result.responseText.slice(0, 200)}` : '';
  if (result.status === 200) {
    io.out(`Receiver answered HTTP 200${answer}`);
    return EXIT_OK;
  }
  io.err(
    `Receiver answered HTTP ${result.status}${answer} (the service would retry: only 200 counts as delivered)`,
  );
  return EXIT_FAILURE;
}

/** The payload fields given as flags; the others keep their example values. */
function payloadFlags(values: {
  'payment-id'?: string;
  'merchant-payment-id'?: string;
  amount?: string;
  reference?: string;
  metadata?: string;
  'error-description'?: string;
}): TestWebhookPayloadOverrides {
  const payload: TestWebhookPayloadOverrides = {};
  if (values['payment-id'] !== undefined) payload.paymentId = values['payment-id'];
  const merchantPaymentId = values['merchant-payment-id'];
  if (merchantPaymentId !== undefined) {
    payload.merchantPaymentId = merchantPaymentId === 'null' ? null : merchantPaymentId;
  }
  if (values.amount !== undefined) {
    const amount = Number(values.amount);
    if (values.amount.trim() === '' || !Number.isFinite(amount)) {
      throw new UsageError(`--amount must be a number such as 12.5, got "${values.amount}"`);
    }
    payload.amount = amount;
  }
  if (values.reference !== undefined) payload.reference = values.reference;
  if (values.metadata !== undefined) {
    let metadata: unknown;
    try {
      metadata = JSON.parse(values.metadata);
    } catch {
      throw new UsageError(`--metadata must be JSON, such as '{"orderId":1042}' or null`);
    }
    if (typeof metadata !== 'object' || Array.isArray(metadata)) {
      throw new UsageError('--metadata must be a JSON object or null');
    }
    payload.metadata = metadata as Record<string, unknown> | null;
  }
  if (values['error-description'] !== undefined) {
    payload.errorDescription = values['error-description'];
  }
  return payload;
}

/** A whole number of a flag, within bounds. */
function wholeNumber(flag: string, value: string, max: number): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) > max) {
    throw new UsageError(`--${flag} must be a whole number from 0 to ${max}, got "${value}"`);
  }
  return Number(value);
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

async function resendCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(argv, FAULT_OPTIONS, true);
  if (positionals.length !== 1) {
    throw new UsageError('resend needs one payment id: servicepay-sandbox resend <payment-id>');
  }
  const faults = faultFlags(values);
  const broken = Object.keys(faults).length > 0;
  const { answer } = await askSandbox(values.sandbox, '/deliveries/resend', {
    paymentId: positionals[0],
    ...(broken ? { faults } : {}),
  });
  io.out(
    `Resending the notification of payment ${positionals[0]} as copy ${String(answer.copy)}${broken ? `, broken on purpose: ${describeFaults(faults)}` : ''}.`,
  );
  io.out(`Watch it at ${String(answer.deliveries)}`);
  return EXIT_OK;
}

async function breakCommand(argv: readonly string[], io: CliIo): Promise<number> {
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
  const { answer } = await askSandbox(values.sandbox, '/deliveries/break', {
    faults,
    ...(values.payment !== undefined ? { paymentId: values.payment } : { count }),
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

async function checkReceiverCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, CHECK_OPTIONS);
  io.out('Running the receiver check (a few seconds)…');
  const { answer } = await askSandbox(values.sandbox, '/deliveries/check', {});
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

async function rotateKeyCommand(argv: readonly string[], io: CliIo): Promise<number> {
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

/** Real stdout/stderr and process signals. A second Ctrl-C during the stop exits at once. */
export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    untilStopRequested: () =>
      new Promise((resolve) => {
        const onSignal = () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          const force = () => process.exit(130);
          process.once('SIGINT', force);
          process.once('SIGTERM', force);
          resolve();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
      }),
  };
}
