// `npm start`: builds the package, starts the local sandbox of the service and the example
// checkout (React, and the same on a plain page with the script tag, served by the sandbox as
// its script host), prints the URLs to open, and stops both cleanly on Ctrl-C.
import { spawnSync } from 'node:child_process';

const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const { startSandbox, SANDBOX_APPLICATION_ID } = await import('../dist/sandbox.mjs');
const { startCheckout } = await import('../examples/checkout/server.mjs');

const host = process.env.HOST ?? '127.0.0.1';
const checkout = await startCheckout({ port: Number(process.env.PORT ?? 4000), host });
const sandbox = await startSandbox({
  port: Number(process.env.SANDBOX_PORT ?? 4010),
  host,
  webhookUrl: checkout.webhookUrl,
  webCallbackUrl: checkout.returnUrl,
  mobileCallbackUrl: `${checkout.returnUrl}?app=mobile`,
  // The bank page names the shop the shopper is paying, as a real bank's would.
  applications: { [SANDBOX_APPLICATION_ID]: { merchantName: checkout.merchantName } },
});
checkout.useSandbox(sandbox);

console.log(`
  Example checkout:  ${checkout.url}   <- open this
  On a plain page:   ${checkout.scriptTagUrl}   (the <script> tag, window.Service)
  Sandbox:           ${sandbox.url}  (webhook deliveries: ${sandbox.url.replace(/\/$/, '')}/deliveries)

  Press Ctrl-C to stop.
`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.all([sandbox.stop(), checkout.stop()]);
  console.log('Stopped the sandbox and the example checkout.');
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
