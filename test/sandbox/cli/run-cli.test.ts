// @vitest-environment node
import { spawn } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { rawText } from '../../helpers/browser-bundle.mjs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli, sendTestWebhook, startSandbox } from '../../../src/sandbox/index';
import {
  BREAK_OPTIONS,
  CHECK_OPTIONS,
  FAULT_OPTIONS,
  SEND_OPTIONS,
  SERVER_OPTIONS,
  USAGE,
} from '../../../src/sandbox/cli/run-cli';
import { parseWebhookNotification, verifyWebhookSignature } from '../../../src/webhook/index';
import { testIo } from '../support/cli-io';
import { closedPort, startReceiver } from '../support/receiver';
import type { Receiver, Respond } from '../support/receiver';
import { sandboxKeyFile as keyFile } from '../../helpers/sandbox-key';
import { createPayment, decide, paymentBody, postPayment } from '../support/sandbox';

async function receiver(respond?: Respond): Promise<Receiver> {
  const r = await startReceiver(respond);
  onTestFinished(() => r.stop());
  return r;
}

describe('servicepay-sandbox', () => {
  it('--help prints the usage and exits 0', async () => {
    const { io, out } = testIo();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/^Usage:\n {2}servicepay-sandbox \[options\]/);
    expect(out.join('\n')).toContain('send-webhook');
  });

  it('--help names every flag each command takes', () => {
    for (const options of [
      SERVER_OPTIONS,
      SEND_OPTIONS,
      FAULT_OPTIONS,
      BREAK_OPTIONS,
      CHECK_OPTIONS,
    ]) {
      for (const flag of Object.keys(options)) expect(USAGE).toContain(`--${flag}`);
    }
    for (const command of [
      'send-webhook',
      'resend <payment-id>',
      'break',
      'check-receiver',
      'complete-late <payment-id>',
      'pay-again <payment-id>',
    ]) {
      expect(USAGE).toContain(`servicepay-sandbox ${command}`);
    }
  });

  it.each([
    [['--prot', '4010'], "Unknown option '--prot'"],
    [['--port', '0', '--delivery-history', 'lots'], '--delivery-history must be a number'],
    [['--port', '0', '--delivery-history', '0'], 'deliveryHistory must be an integer from 1'],
    [['--port', '0', '--max-payments', 'all'], '--max-payments must be a number'],
    [['--port', '0', '--max-payments', '0'], 'maxPayments must be an integer from 1'],
    [
      ['send-webhook', '--to', 'http://127.0.0.1:9/', '--status', 'FAILED', '--amount', 'abc'],
      '--amount must be a number',
    ],
    [
      ['send-webhook', '--to', 'http://127.0.0.1:9/', '--status', 'FAILED', '--metadata', '[1]'],
      '--metadata must be a JSON object or null',
    ],
    [
      ['send-webhook', '--to', 'http://127.0.0.1:9/', '--status', 'FAILED', '--metadata', '{x'],
      '--metadata must be JSON',
    ],
    [
      [
        ...['send-webhook', '--to', 'http://127.0.0.1:9/', '--status', 'COMPLETED'],
        ...['--error-description', 'Insufficient funds'],
      ],
      '--error-description is only for --status FAILED',
    ],
    [['resend'], 'resend needs one payment id'],
    [['resend', 'a', 'b'], 'resend needs one payment id'],
    [['resend', 'a', '--network-failures', 'two'], '--network-failures must be a whole number'],
    [
      ['resend', 'a', '--sandbox', 'localhost:4010'],
      "--sandbox must be the sandbox's http(s) address",
    ],
    [['break'], 'break needs at least one fault'],
    [['break', '--twice-at-once', '--payment', 'p', '--next', '2'], 'not both'],
    [['break', '--delay=-5'], '--delay must be a whole number from 0'],
    [['check-receiver', 'now'], "Unexpected argument 'now'"],
    [['--port', 'abc'], '--port must be a number, got "abc"'],
    [['--port', '0', '--time-scale', 'fast'], '--time-scale must be a number, got "fast"'],
    [['--port', '0', '--time-scale', '0'], 'timeScale must be a number from 0.001 to 1000000'],
    [['--port', '0', '--authorisation-window', '0'], 'authorisationWindowMs must be an integer'],
    [['complete-late'], 'complete-late needs one payment id'],
    [['pay-again', 'a', 'b'], 'pay-again needs one payment id'],
    [
      ['--port', '0', '--unavailable', 'santander,nope'],
      'servicepay: sandbox option unavailableInstitutions names "nope"',
    ],
    [['--port', '0', '--unavailable', 'santander,'], '--unavailable takes institution ids'],
    [
      ['--port', '0', '--merchant-name', 'A', '--merchant-name', 'B'],
      '--merchant-name without an application id can be given once',
    ],
    [['--port', '0', '--merchant-name', ''], 'merchantName must be a name of 1 to 100 characters'],
    [['--port', '0', '--public-url', 'https://x.test/path'], 'publicUrl must be an origin'],
    [
      ['--port', '0', '--webhook-url', 'ftp://example.test/hook'],
      'webhookUrl must be an http(s) URL',
    ],
    [['send-webhook', '--status', 'COMPLETED'], 'send-webhook needs --to <url>'],
    [
      ['send-webhook', '--to', 'http://127.0.0.1:9/', '--status', 'DONE'],
      'needs --status COMPLETED or --status FAILED',
    ],
    [['send-webhook', '--to', 'not a url', '--status', 'FAILED'], '--to must be an http(s) URL'],
  ])('%j is a usage error: exit 2', async (argv, message) => {
    const { io, err } = testIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(err.join('\n')).toContain(message);
  });

  it('starts the sandbox, prints its URL, and stops cleanly when asked', async () => {
    const { io, out, requestStop, sandbox } = testIo();
    const exit = runCli(['--port', '0', '--key-file', keyFile], io);
    const running = await sandbox;
    expect(out).toContain(`ServicePay sandbox running at ${running.url}`);
    expect(out).toContain(`  public key      ${running.url}/.well-known/signature/pem`);
    expect((await fetch(`${running.url}/`)).status).toBe(200);
    requestStop();
    expect(await exit).toBe(0);
    await expect(fetch(`${running.url}/`)).rejects.toThrow();
  });

  it('--authorisation-window, --bank-check, --settle-after and --time-scale set the lifecycle’s waits', async () => {
    const { io, out, requestStop, sandbox } = testIo();
    const exit = runCli(
      [
        ...['--port', '0', '--key-file', keyFile, '--time-scale', '1.5'],
        ...['--authorisation-window', '60000', '--bank-check', '30000', '--settle-after', '0'],
      ],
      io,
    );
    const running = await sandbox;
    expect(out).toContain(
      "  time scale      1.5 (the lifecycle's waits and delivery delays run faster)",
    );
    const before = Date.now();
    for (const decision of ['abandon', 'approve-pending']) {
      const { paymentId } = await createPayment(running);
      await decide(running, paymentId, decision);
    }
    const after = Date.now();
    // 30 s and 60 s at 1.5 times: 20 s and 40 s.
    expect(
      running.scheduled.map(({ reason, at }) => [
        reason,
        Date.parse(at) - before,
        Date.parse(at) - after,
      ]),
    ).toEqual([
      [
        'bank-check',
        expect.toSatisfy((ms: number) => ms >= 20_000),
        expect.toSatisfy((ms: number) => ms <= 20_000),
      ],
      [
        'authorisation-window',
        expect.toSatisfy((ms: number) => ms >= 40_000),
        expect.toSatisfy((ms: number) => ms <= 40_000),
      ],
    ]);
    requestStop();
    expect(await exit).toBe(0);
  });

  it('complete-late and pay-again print what they did', async () => {
    const { io: serveIo, requestStop, sandbox } = testIo();
    const exit = runCli(['--port', '0', '--key-file', keyFile], serveIo);
    const running = await sandbox;
    const { paymentId } = await createPayment(running);
    const late = testIo();
    expect(await runCli(['complete-late', paymentId, '--sandbox', running.url], late.io)).toBe(0);
    expect(late.out).toEqual([
      `Payment ${paymentId} is COMPLETED now: its late notification is on its way.`,
      `Watch it at ${running.url}/deliveries#n-${paymentId}`,
    ]);
    const again = testIo();
    expect(await runCli(['pay-again', paymentId, '--sandbox', running.url], again.io)).toBe(0);
    const second = [...running.payments.values()].find((p) => p.paymentId !== paymentId)!;
    expect(again.out).toEqual([
      `Paid again: payment ${second.paymentId} (merchantPaymentId ${second.merchantPaymentId}), COMPLETED, for the order of ${paymentId}.`,
      `Watch it at ${running.url}/deliveries#n-${second.paymentId}`,
    ]);
    requestStop();
    expect(await exit).toBe(0);
  });

  it('--merchant-name names the payee, for all or for one application', async () => {
    const { io, requestStop, sandbox } = testIo();
    const app = 'c03a65f7-37e1-45d6-a653-f01da47b061e';
    const exit = runCli(
      [
        ...['--port', '0', '--key-file', keyFile],
        ...['--merchant-name', 'Tea Rooms', '--merchant-name', `${app}=Example Coffee Co.`],
        ...['--public-url', 'https://pay-sandbox.example.test'],
      ],
      io,
    );
    const running = await sandbox;
    const lead = async (applicationId: string) => {
      const { authorisationUrl } = await createPayment(running, { applicationId });
      // --public-url changes nothing for a request made to 127.0.0.1.
      expect(authorisationUrl.startsWith(`${running.url}/bank/`)).toBe(true);
      const html = await (await fetch(authorisationUrl)).text();
      return /<p class="lead">(.*?)<\/p>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
    };
    expect(await lead(app)).toBe('Pay £12.50 to Example Coffee Co. from your Monzo account.');
    expect(await lead(running.applicationId)).toBe(
      'Pay £12.50 to Tea Rooms from your Monzo account.',
    );
    requestStop();
    expect(await exit).toBe(0);
  });

  it('--unavailable lists banks as unavailable and says which', async () => {
    const { io, out, requestStop, sandbox } = testIo();
    const exit = runCli(
      [
        ...['--port', '0', '--key-file', keyFile],
        ...['--unavailable', 'santander,tsb', '--unavailable', 'metro-bank'],
      ],
      io,
    );
    const running = await sandbox;
    expect(out).toContain(
      '  unavailable     santander, tsb, metro-bank (listed, but payments there are refused)',
    );
    const { institutions } = (await (
      await fetch(
        `${running.url}/v1/institutions?environment=SANDBOX&applicationId=${running.applicationId}`,
      )
    ).json()) as { institutions: { id: string; available?: boolean }[] };
    expect(institutions.filter((i) => i.available === false).map((i) => i.id)).toEqual([
      'santander',
      'tsb',
      'metro-bank',
    ]);
    await expect(createPayment(running, { institutionId: 'tsb' })).rejects.toThrow(
      'payment not created: 422',
    );
    requestStop();
    expect(await exit).toBe(0);
  });

  it('exits 1 when the port is taken', async () => {
    const other = await startSandbox({ port: 0, keyFile });
    onTestFinished(() => other.stop());
    const { io, err } = testIo();
    expect(await runCli(['--port', new URL(other.url).port, '--key-file', keyFile], io)).toBe(1);
    expect(err.join('\n')).toMatch(/could not listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
  });
});

describe('send-webhook', () => {
  it.each([
    ['COMPLETED', null],
    ['FAILED', 'The bank reported an error'],
  ] as const)(
    'sends the %s example (spec 5.3), signed with the sandbox key',
    async (status, errorDescription) => {
      const r = await receiver();
      const sandbox = await startSandbox({ port: 0, keyFile });
      onTestFinished(() => sandbox.stop());
      const { io, out } = testIo();
      expect(
        await runCli(
          ['send-webhook', '--to', r.url, '--status', status, '--key-file', keyFile],
          io,
        ),
      ).toBe(0);
      expect(out).toContain('Receiver answered HTTP 200: ok');

      const [request] = r.requests;
      expect(request!.method).toBe('PUT');
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.headers.accept).toBe('*/*');
      const served = await (await fetch(`${sandbox.url}/.well-known/signature/pem`)).text();
      expect(
        verifyWebhookSignature(request!.body, String(request!.headers.authorization), served),
      ).toBe(true);
      const payload = JSON.parse(request!.body.toString()) as Record<string, unknown>;
      expect(Object.keys(payload)).toEqual([
        'paymentId',
        'merchantPaymentId',
        'paymentStatus',
        'errorDescription',
        'paymentRequest',
        'paymentMetadata',
        'paymentRefundData',
      ]);
      expect(payload).toMatchObject({
        paymentStatus: status,
        errorDescription,
        paymentRefundData: null,
      });
      expect(payload.paymentRequest).toEqual({
        amount: 12.5,
        currency: 'GBP',
        reference: 'ORDER-1042',
      });
    },
  );

  it('sends exactly the payload fields given as flags, signed with the sandbox key', async () => {
    const r = await receiver();
    const sandbox = await startSandbox({ port: 0, keyFile });
    onTestFinished(() => sandbox.stop());
    const metadata = { orderId: 'A-77', basket: { items: [{ sku: 'B-2', qty: 1 }] }, note: 'café' };
    const { io, out } = testIo();
    expect(
      await runCli(
        [
          ...['send-webhook', '--to', r.url, '--status', 'FAILED', '--key-file', keyFile],
          ...['--payment-id', '9b0c6a52-1d4e-4f3a-8b7c-2e1f0a9d8c7b'],
          ...['--merchant-payment-id', 'order-7781-attempt-2'],
          ...['--amount', '1234.56', '--reference', 'INV 2024/001'],
          ...['--metadata', JSON.stringify(metadata)],
          ...['--error-description', 'Insufficient funds'],
        ],
        io,
      ),
    ).toBe(0);
    expect(out).toContain('Receiver answered HTTP 200: ok');
    const [request] = r.requests;
    const served = await (await fetch(`${sandbox.url}/.well-known/signature/pem`)).text();
    expect(
      verifyWebhookSignature(request!.body, String(request!.headers.authorization), served),
    ).toBe(true);
    expect(parseWebhookNotification(request!.body)).toEqual({
      paymentId: '9b0c6a52-1d4e-4f3a-8b7c-2e1f0a9d8c7b',
      merchantPaymentId: 'order-7781-attempt-2',
      paymentStatus: 'FAILED',
      errorDescription: 'Insufficient funds',
      paymentRequest: { amount: 1234.56, currency: 'GBP', reference: 'INV 2024/001' },
      paymentMetadata: metadata,
      paymentRefundData: null,
    });
  });

  it('sends null for --merchant-payment-id null and --metadata null', async () => {
    const r = await receiver();
    const { io } = testIo();
    expect(
      await runCli(
        [
          ...['send-webhook', '--to', r.url, '--status', 'COMPLETED', '--key-file', keyFile],
          ...['--merchant-payment-id', 'null', '--metadata', 'null'],
        ],
        io,
      ),
    ).toBe(0);
    expect(parseWebhookNotification(r.requests[0]!.body)).toMatchObject({
      merchantPaymentId: null,
      paymentMetadata: null,
      errorDescription: null,
    });
  });

  it('sendTestWebhook refuses a payload field of the wrong type, naming it', async () => {
    await expect(
      sendTestWebhook({
        to: 'http://127.0.0.1:9/',
        status: 'FAILED',
        payload: { amount: '12' as never },
      }),
    ).rejects.toMatchObject({ option: 'payload.amount' });
    await expect(
      sendTestWebhook({
        to: 'http://127.0.0.1:9/',
        status: 'COMPLETED',
        payload: { errorDescription: 'x' },
      }),
    ).rejects.toThrow(/only for status FAILED/);
  });

  it('exits 1 when the receiver answers anything but 200, or nothing', async () => {
    const r = await receiver(() => 401);
    const refused = testIo();
    expect(
      await runCli(
        ['send-webhook', '--to', r.url, '--status', 'FAILED', '--key-file', keyFile],
        refused.io,
      ),
    ).toBe(1);
    expect(refused.err.join('\n')).toContain('Receiver answered HTTP 401: not now');

    const down = testIo();
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    expect(
      await runCli(
        ['send-webhook', '--to', url, '--status', 'FAILED', '--key-file', keyFile],
        down.io,
      ),
    ).toBe(1);
    expect(down.err.join('\n')).toMatch(/got no answer \(.*ECONNREFUSED/);
  });

  it('sendTestWebhook returns what it sent; without keyFile, the key that verifies it', async () => {
    const r = await receiver();
    const result = await sendTestWebhook({
      to: r.url,
      status: 'FAILED',
      payload: {
        merchantPaymentId: 'order-7781-attempt-2',
        amount: 0.01,
        reference: 'TEST',
        metadata: null,
      },
    });
    expect(result.status).toBe(200);
    expect(r.requests[0]!.body.toString()).toBe(result.body);
    expect(result.payload).toMatchObject({
      merchantPaymentId: 'order-7781-attempt-2',
      paymentStatus: 'FAILED',
      errorDescription: 'The bank reported an error',
      paymentRequest: { amount: 0.01, currency: 'GBP', reference: 'TEST' },
      paymentMetadata: null,
    });
    expect(verifyWebhookSignature(result.body, result.authorization, result.publicKeyText)).toBe(
      true,
    );
    expect(
      createPublicKey(
        `-----BEGIN PUBLIC KEY-----\n${result.publicKeyText}\n-----END PUBLIC KEY-----`,
      ).type,
    ).toBe('public');
  });
});

describe('resend, break and check-receiver, against a running sandbox', () => {
  async function running(respond?: Respond) {
    const r = await receiver(respond);
    const sandbox = await startSandbox({
      port: 0,
      keyFile,
      webhookUrl: r.url,
      retry: { initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 2 },
    });
    onTestFinished(() => sandbox.stop());
    const { paymentId } = await createPayment(sandbox);
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await expect
      .poll(() => sandbox.deliveries.at(-1)?.outcome)
      .toSatisfy((outcome) => outcome === 'delivered' || outcome === 'gave-up');
    return { r, sandbox, paymentId };
  }

  it('resend sends the same notification again, with faults when given', async () => {
    let fixed = false;
    const { r, sandbox, paymentId } = await running(() => (fixed ? 200 : 500));
    expect(sandbox.deliveries.at(-1)?.outcome).toBe('gave-up');
    fixed = true;
    const { io, out } = testIo();
    expect(
      await runCli(['resend', paymentId, '--network-failures', '1', '--sandbox', sandbox.url], io),
    ).toBe(0);
    expect(out[0]).toBe(
      `Resending the notification of payment ${paymentId} as copy 2, broken on purpose: 1 network failure first.`,
    );
    expect(out[1]).toBe(`Watch it at ${sandbox.url}/deliveries#n-${paymentId}`);
    await expect.poll(() => sandbox.deliveries.at(-1)?.outcome).toBe('delivered');
    expect(sandbox.deliveries.filter((a) => a.copy === 2).map((a) => a.simulated)).toEqual([
      true,
      false,
    ]);
    expect(r.requests[2]!.body.equals(r.requests[0]!.body)).toBe(true);
  });

  it('break arms faults for the next notifications or one payment', async () => {
    const { sandbox, paymentId } = await running();
    const next = testIo();
    expect(
      await runCli(
        ['break', '--twice-at-once', '--delay', '100', '--next', '3', '--sandbox', sandbox.url],
        next.io,
      ),
    ).toBe(0);
    expect(next.out).toEqual([
      'Armed:\n  the next 3 notification(s): twice at once, delayed 100 ms',
    ]);
    const one = testIo();
    expect(
      await runCli(
        ['break', '--late-resend', '0', '--payment', paymentId, '--sandbox', sandbox.url],
        one.io,
      ),
    ).toBe(0);
    expect(sandbox.armedFaults).toEqual({
      next: { faults: { twiceAtOnce: true, delayMs: 100 }, remaining: 3 },
      payments: [{ paymentId, faults: { lateResendMs: 0 } }],
    });
    const off = testIo();
    expect(await runCli(['break', '--next', '0', '--sandbox', sandbox.url], off.io)).toBe(0);
    expect(sandbox.armedFaults.next).toBeNull();
  });

  it('check-receiver prints each case and exits 1 when one is not as expected', async () => {
    const { sandbox } = await running();
    const { io, out } = testIo();
    // The test receiver answers 200 to everything, a forged signature too.
    expect(await runCli(['check-receiver', '--sandbox', sandbox.url], io)).toBe(1);
    const text = out.join('\n');
    expect(text).toContain('1 of 6 cases not as expected');
    expect(text).toMatch(/ok {3}Twice at once \([0-9a-f-]{36}\): copy 1: 200; copy 2: 200\./);
    expect(text).toMatch(/NOT {2}Forged signature .*does not verify signatures/);
    expect(text).toContain('yours to check');
  });

  it('exits 1 naming the address when no sandbox answers there, or it refuses', async () => {
    const nobody = testIo();
    const address = `http://127.0.0.1:${await closedPort()}`;
    expect(await runCli(['resend', 'p-1', '--sandbox', address], nobody.io)).toBe(1);
    expect(nobody.err.join('\n')).toMatch(
      new RegExp(
        `no sandbox answered at ${address} \\(.*ECONNREFUSED.*Start it, or give its address with --sandbox\\.`,
      ),
    );

    const { sandbox } = await running();
    const refused = testIo();
    expect(await runCli(['resend', 'p-1', '--sandbox', sandbox.url], refused.io)).toBe(1);
    expect(refused.err.join('\n')).toMatch(
      /sent no notification for the payment "p-1".*\(HTTP 404 from/,
    );
  });
});

// Bundles the CLI and starts it as a process: a second or two alone, more beside the rest of the
// suite on two cores. The bound is for a hang, not a speed check.
describe('the executable', { timeout: 60_000 }, () => {
  /** The CLI bundled as rollup will build it (the tests run on sources), started as a process. */
  async function startProcess(args: string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'servicepay-cli-'));
    const outfile = join(dir, 'sandbox-cli.mjs');
    await build({
      entryPoints: ['src/sandbox/cli/bin.ts'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'silent',
      plugins: [rawText],
    });
    const child = spawn(
      process.execPath,
      [outfile, '--port', '0', '--key-file', keyFile, ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    onTestFinished(() => void child.kill());
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const lines = createInterface({ input: child.stdout });
    for await (const line of lines) {
      const match = /running at (http:\/\/\S+)/.exec(line);
      if (match) return { child, exited, url: match[1]! };
    }
    throw new Error('the sandbox process did not start');
  }

  it('runs as a process and stops on SIGINT with exit code 0', async () => {
    const { child, exited, url } = await startProcess([]);
    expect(
      (
        await fetch(
          `${url}/v1/institutions?environment=SANDBOX&applicationId=5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90`,
        )
      ).status,
    ).toBe(200);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  // Issue 45: steps scheduled for 15 minutes, 2 and 5 (the defaults): the stop cancels them
  // and the process ends, rather than waiting for them.
  it('stops with steps scheduled, and the process ends', async () => {
    const { child, exited, url } = await startProcess([]);
    const sandbox = { url, applicationId: '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90' };
    for (const decision of ['abandon', 'approve-pending', 'approve-settles-later']) {
      const { json } = await postPayment(sandbox, paymentBody(sandbox));
      expect((await decide(sandbox, String(json.paymentId), decision)).status).toBe(303);
    }
    const { scheduled } = (await (await fetch(`${url}/deliveries.json`)).json()) as {
      scheduled: unknown[];
    };
    expect(scheduled).toHaveLength(3);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
