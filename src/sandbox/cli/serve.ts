/** `servicepay-sandbox [options]`: starts the sandbox and runs it until asked to stop. */
import { PUBLIC_KEY_PATH } from '../../core/index';
import { SCRIPT_HOST_PATH } from '../contract/script-host';
import { startSandbox } from '../server/start';
import type { SandboxOptions } from '../api/options';
import { EXIT_OK, UsageError, merchantNames, parse, unavailableFlags } from './args';
import type { CliIo } from './args';
import { SERVER_OPTIONS } from './usage';

/** The flags that are numbers, and the option each one sets. */
const NUMBER_FLAGS = {
  port: 'port',
  'delivery-history': 'deliveryHistory',
  'max-payments': 'maxPayments',
  'authorisation-window': 'authorisationWindowMs',
  'bank-check': 'bankCheckMs',
  'settle-after': 'settleAfterMs',
  'time-scale': 'timeScale',
} as const satisfies Record<string, keyof SandboxOptions>;

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SERVER_OPTIONS);
  // The numbers, read here; their bounds are the options' (a SandboxConfigError names them).
  const numbers: SandboxOptions = {};
  for (const [flag, option] of Object.entries(NUMBER_FLAGS)) {
    const value = values[flag as keyof typeof NUMBER_FLAGS];
    if (value === undefined) continue;
    if (!/^\d{1,10}(?:\.\d{1,6})?$/.test(value)) {
      throw new UsageError(`--${flag} must be a number, got "${value}"`);
    }
    numbers[option] = Number(value);
  }
  const unavailable = unavailableFlags(values.unavailable);
  const sandbox = await startSandbox({
    ...numbers,
    host: values.host,
    webhookUrl: values['webhook-url'],
    webCallbackUrl: values['web-callback-url'],
    mobileCallbackUrl: values['mobile-callback-url'],
    keyFile: values['key-file'],
    ...merchantNames(values['merchant-name'] ?? []),
    publicUrl: values['public-url'],
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
  if (numbers.timeScale !== undefined) {
    io.out(
      `  time scale      ${numbers.timeScale} (the lifecycle's waits and delivery delays run faster)`,
    );
  }
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
