/** `servicepay-sandbox [options]`: starts the sandbox and runs it until asked to stop. */
import { PUBLIC_KEY_PATH } from '../../core/index';
import { SCRIPT_HOST_PATH } from '../contract/script-host';
import { SANDBOX_DEFAULT_PORT } from '../options';
import { startSandbox } from '../server';
import { EXIT_OK, UsageError, merchantNames, parse, unavailableFlags } from './args';
import type { CliIo } from './args';
import { SERVER_OPTIONS } from './usage';

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
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
