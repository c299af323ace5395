/**
 * The `servicepay-sandbox` command, as a function: arguments in, exit code out, output and
 * signals injected so tests run it in-process. cli/bin.ts is the thin executable
 * around it.
 */
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, HelpRequested, UsageError } from './args';
import type { CliIo } from './args';
import {
  breakCommand,
  checkReceiverCommand,
  paymentCommand,
  resendCommand,
  rotateKeyCommand,
} from './remote';
import { sendWebhookCommand } from './send-webhook';
import { serveCommand } from './serve';
import { USAGE } from './usage';
import { SandboxConfigError } from '../api/errors';

export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './args';
export type { CliIo } from './args';
export {
  BREAK_OPTIONS,
  CHECK_OPTIONS,
  FAULT_OPTIONS,
  ROTATE_OPTIONS,
  SEND_OPTIONS,
  SERVER_OPTIONS,
  USAGE,
} from './usage';

/** Runs the command; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    if (argv[0] === 'send-webhook') return await sendWebhookCommand(argv.slice(1), io);
    if (argv[0] === 'resend') return await resendCommand(argv.slice(1), io);
    if (argv[0] === 'break') return await breakCommand(argv.slice(1), io);
    if (argv[0] === 'check-receiver') return await checkReceiverCommand(argv.slice(1), io);
    if (argv[0] === 'rotate-key') return await rotateKeyCommand(argv.slice(1), io);
    if (argv[0] === 'complete-late' || argv[0] === 'pay-again') {
      return await paymentCommand(argv[0], argv.slice(1), io);
    }
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
