/**
 * The `servicepay-sandbox` command, as a function: arguments in, exit code out, output and
 * signals injected so tests run it in-process. cli.ts is the thin executable around it.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { SandboxConfigError } from './errors';
import { isUuid } from './initiation';
import { DEFAULT_MERCHANT_NAME, SANDBOX_DEFAULT_PORT } from './options';
import { PUBLIC_KEY_PATH } from './router';
import { SCRIPT_HOST_PATH } from './script-host';
import { sendTestWebhook } from './send-webhook';
import { startSandbox } from './server';
import type { Sandbox, SandboxApplication, SandboxOptions } from './types';

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
  -h, --help                   Show this help

send-webhook options:
  --to <url>                   The receiver's address (required)
  --status COMPLETED|FAILED    Which example to send (required)
  --key-file <path>            Sign with this key; use the running sandbox's --key-file so the
                               receiver verifies with the key the sandbox serves

Exit status: 0 on success (sandbox stopped cleanly; receiver answered 200), 1 on failure
(sandbox could not start; receiver answered another status or did not answer), 2 on a usage
error.`;

const SERVER_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'webhook-url': { type: 'string' },
  'web-callback-url': { type: 'string' },
  'mobile-callback-url': { type: 'string' },
  'key-file': { type: 'string' },
  'merchant-name': { type: 'string', multiple: true },
  'public-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const SEND_OPTIONS = {
  to: { type: 'string' },
  status: { type: 'string' },
  'key-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

class UsageError extends Error {}

/** Runs the command; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    if (argv[0] === 'send-webhook') return await sendWebhookCommand(argv.slice(1), io);
    return await serveCommand(argv, io);
  } catch (error) {
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
) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false });
  } catch (error) {
    // parseArgs' messages already name the flag ("Unknown option '--prot'").
    throw new UsageError((error as Error).message);
  }
}

async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SERVER_OPTIONS);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  let port = SANDBOX_DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port))
      throw new UsageError(`--port must be a number, got "${values.port}"`);
    port = Number(values.port);
  }
  const sandbox = await startSandbox({
    port,
    host: values.host,
    webhookUrl: values['webhook-url'],
    webCallbackUrl: values['web-callback-url'],
    mobileCallbackUrl: values['mobile-callback-url'],
    keyFile: values['key-file'],
    ...merchantNames(values['merchant-name'] ?? []),
    publicUrl: values['public-url'],
    log: (line) => io.out(`[sandbox] ${line}`),
  });
  io.out(`ServicePay sandbox running at ${sandbox.url}`);
  io.out(`  application id  ${sandbox.applicationId} (any UUID is accepted)`);
  io.out(`  public key      ${sandbox.url}${PUBLIC_KEY_PATH}`);
  io.out(`  webhooks        ${values['webhook-url'] ?? 'not sent (no --webhook-url)'}`);
  io.out(`  deliveries      ${sandbox.url}/deliveries`);
  io.out(`  script host     ${sandbox.url}${SCRIPT_HOST_PATH} (the component for plain pages)`);
  io.out('Press Ctrl-C to stop.');
  io.onStarted?.(sandbox);
  await io.untilStopRequested();
  io.out('Stopping the sandbox…');
  await sandbox.stop();
  return EXIT_OK;
}

/**
 * --merchant-name values as startSandbox's merchantName and applications options: an
 * application id, then `=`, names that application's merchant.
 */
function merchantNames(
  values: readonly string[],
): Pick<SandboxOptions, 'merchantName' | 'applications'> {
  let merchantName: string | undefined;
  const applications: Record<string, SandboxApplication> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    const applicationId = value.slice(0, equals);
    if (equals !== -1 && isUuid(applicationId)) {
      applications[applicationId] = { merchantName: value.slice(equals + 1) };
    } else if (merchantName === undefined) {
      merchantName = value;
    } else {
      throw new UsageError(
        '--merchant-name without an application id can be given once; name one application with --merchant-name <application-id>=<name>',
      );
    }
  }
  return { merchantName, applications };
}

async function sendWebhookCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SEND_OPTIONS);
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (values.to === undefined) throw new UsageError('send-webhook needs --to <url>');
  const status = values.status?.toUpperCase();
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new UsageError('send-webhook needs --status COMPLETED or --status FAILED');
  }
  const result = await sendTestWebhook({ to: values.to, status, keyFile: values['key-file'] });
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
