// `npm start`: builds the package when its sources are newer than dist/, starts the local
// sandbox of the service and the example checkout (React, and the same on a plain page with the
// script tag, served by the sandbox as its script host), prints the URLs to open, and stops both
// cleanly on Ctrl-C. PORT, SANDBOX_PORT and HOST choose where they listen; SANDBOX_TIME_SCALE,
// SANDBOX_AUTHORISATION_WINDOW_MS, SANDBOX_BANK_CHECK_MS and SANDBOX_SETTLE_AFTER_MS the
// sandbox's clock for slow and lost payments (docs/sandbox.md).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const step = (text) => console.log(`  ${text}`);

/** What the sandbox and the checkout load from dist/. */
const OUTPUTS = ['dist/sandbox.mjs', 'dist/index.mjs', 'dist/client.mjs', 'dist/webhook.mjs'];
/** What the build reads. */
const INPUTS = ['src', 'rollup.config.mjs', 'package.json', 'package-lock.json'];

/** Newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

/** The oldest of the outputs, or 0 when one is missing: the build is fresh when it is newer than every input. */
function oldestOutput() {
  let oldest = Infinity;
  for (const file of OUTPUTS) {
    const time = newest(join(repo, file));
    if (time === 0) return 0;
    oldest = Math.min(oldest, time);
  }
  return oldest;
}

console.log('\nServicePay: the example checkout on the local sandbox\n');
const inputs = Math.max(...INPUTS.map((path) => newest(join(repo, path))));
if (oldestOutput() > inputs) {
  step('Package build is up to date (dist/).');
} else {
  step(
    'Building the package (dist/)… about a minute on a first start, skipped later while src/ is unchanged.',
  );
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('\n  The build failed (its errors are above); nothing was started.');
    process.exit(build.status ?? 1);
  }
  step(`Built in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}

const { startSandbox, SANDBOX_APPLICATION_ID, DEFAULT_INSTITUTIONS } =
  await import('../dist/sandbox.mjs');
const { startCheckout } = await import('../examples/checkout/server.mjs');

/**
 * Starts a server; a port in use ends the start with one line that says which variable picks
 * another, instead of a stack trace.
 */
async function listen(what, variable, port, start) {
  try {
    return await start();
  } catch (error) {
    // The sandbox wraps the listen error in a SandboxError (code 'listen-failed'): the
    // system's code is its cause's.
    const code = error?.cause?.code ?? error?.code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      const why = code === 'EADDRINUSE' ? 'is already in use' : 'needs privileges';
      console.error(
        `\n  Port ${port} ${why} (${what}). Stop what uses it, or choose another port: ${variable}=${port + 100} npm start\n`,
      );
      await stopAll();
      process.exit(1);
    }
    throw error;
  }
}

const host = process.env.HOST ?? '127.0.0.1';
// One bank listed as unavailable, so the checkout shows how the component presents a bank it
// cannot pay (and the sandbox refuses a payment there). Not one of the first two in the list,
// so the first banks a shopper sees stay payable.
const unavailableBank = DEFAULT_INSTITUTIONS.find((institution) => institution.id === 'santander');
const checkoutPort = Number(process.env.PORT ?? 4000);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
/** The sandbox's lifecycle options from the environment: `SANDBOX_TIME_SCALE=60 npm start`. */
const LIFECYCLE_ENV = {
  SANDBOX_TIME_SCALE: 'timeScale',
  SANDBOX_AUTHORISATION_WINDOW_MS: 'authorisationWindowMs',
  SANDBOX_BANK_CHECK_MS: 'bankCheckMs',
  SANDBOX_SETTLE_AFTER_MS: 'settleAfterMs',
};
const lifecycle = Object.fromEntries(
  Object.entries(LIFECYCLE_ENV)
    .filter(([variable]) => process.env[variable] !== undefined)
    .map(([variable, option]) => [option, Number(process.env[variable])]),
);
const running = [];
async function stopAll() {
  await Promise.all(running.map((server) => server.stop()));
}

step(`Starting the example checkout on port ${checkoutPort}…`);
const checkout = await listen('the example checkout', 'PORT', checkoutPort, () =>
  startCheckout({ port: checkoutPort, host }),
);
running.push(checkout);
step(`Starting the sandbox on port ${sandboxPort}…`);
const sandbox = await listen('the sandbox', 'SANDBOX_PORT', sandboxPort, () =>
  startSandbox({
    port: sandboxPort,
    host,
    webhookUrl: checkout.webhookUrl,
    webCallbackUrl: checkout.returnUrl,
    mobileCallbackUrl: `${checkout.returnUrl}?app=mobile`,
    // The bank page names the shop the shopper is paying, as a real bank's would.
    applications: { [SANDBOX_APPLICATION_ID]: { merchantName: checkout.merchantName } },
    unavailableInstitutions: [unavailableBank.id],
    ...lifecycle,
  }),
);
running.push(sandbox);
checkout.useSandbox(sandbox);

console.log(`
  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s.

  Example checkout:  ${checkout.url}   <- open this
  On a plain page:   ${checkout.scriptTagUrl}   (the <script> tag, window.Service)
  On the service's script: ${checkout.hostedUrl}   (servicepay/hosted, as in LIVE)
  Sandbox:           ${sandbox.url}  (webhook deliveries: ${sandbox.url.replace(/\/$/, '')}/deliveries)
  Unavailable bank:  ${unavailableBank.name}, listed but not payable (how the component shows it)
  Invalid payment:   ${checkout.url}?reference=ABCDEFGHIJKLMNOPQRS   (an order whose reference is too long)

  Press Ctrl-C to stop.
`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await stopAll();
  console.log('Stopped the sandbox and the example checkout.');
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
