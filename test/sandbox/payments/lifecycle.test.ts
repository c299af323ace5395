// @vitest-environment node
// The sandbox plays the slow and the lost (issue 45): a shopper who leaves the bank page without
// deciding, a bank still checking an approved payment, one that settles later, each step on the
// sandbox's clock and its time scale; a late COMPLETED after the window closed. What the
// merchant's receiver is sent, in order, is read from a real receiver.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createScheduler } from '../../../src/sandbox/deliveries/scheduler';
import type { SandboxOptions } from '../../../src/sandbox/index';
import { createLifecycle } from '../../../src/sandbox/payments/lifecycle';
import { EXPIRED_DESCRIPTION, SandboxConfigError, startSandbox } from '../../../src/sandbox/index';
import { createPaymentStore } from '../../../src/sandbox/payments/store';
import { verifyWebhookSignature } from '../../../src/webhook/index';
import { startReceiver } from '../support/receiver';
import type { Receiver } from '../support/receiver';
import { createPayment, decide, pageToken, testSandbox } from '../support/sandbox';
import type { TestSandbox } from '../support/sandbox';

const CALLBACK = 'http://localhost:3000/checkout/return';
const receivers: Receiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

/** When each notification came, by payment and status. */
type Arrival = { at: number; paymentId: string; paymentStatus: string };

/** A receiver that notes when each request came, and a sandbox that sends it notifications. */
async function shop(options: SandboxOptions = {}) {
  const arrivals: Arrival[] = [];
  const r = await startReceiver((request) => {
    const { paymentId, paymentStatus } = JSON.parse(request.body.toString('utf8')) as Arrival;
    arrivals.push({ at: Date.now(), paymentId, paymentStatus });
    return 200;
  });
  receivers.push(r);
  const sandbox = await testSandbox({ webhookUrl: r.url, webCallbackUrl: CALLBACK, ...options });
  return { r, arrivals, sandbox };
}

/** The notifications the receiver got for a payment, in order: status and description. */
function sentFor(r: Receiver, sandbox: TestSandbox, paymentId: string) {
  return r.requests
    .filter((request) => {
      expect(
        verifyWebhookSignature(
          request.body,
          String(request.headers.authorization),
          sandbox.publicKey,
        ),
      ).toBe(true);
      return (
        (JSON.parse(request.body.toString('utf8')) as { paymentId: string }).paymentId === paymentId
      );
    })
    .map((request) => {
      const { paymentStatus, errorDescription } = JSON.parse(
        request.body.toString('utf8'),
      ) as Record<string, unknown>;
      return [paymentStatus, errorDescription];
    });
}

const bankPageText = async (sandbox: TestSandbox, paymentId: string) =>
  (await (await fetch(`${sandbox.url}/bank/${paymentId}`)).text()).replace(/<[^>]*>/g, '');

describe('the bank page’s slow and lost payments', () => {
  it('at the default waits: what each decision sends at once, what it schedules, what the bank page says', async () => {
    const { r, sandbox } = await shop();
    const [left, checking, later] = await Promise.all([1, 2, 3].map(() => createPayment(sandbox)));
    const staleToken = await pageToken(sandbox, left!.paymentId);
    const before = Date.now();
    const leaving = await decide(sandbox, left!.paymentId, 'abandon');
    const approved = await decide(sandbox, checking!.paymentId, 'approve-pending');
    const settling = await decide(sandbox, later!.paymentId, 'approve-settles-later');
    const after = Date.now();

    // A shopper who leaves stays at the bank; the others go back to the shop.
    expect(leaving.headers.get('location')).toBe(`/bank/${left!.paymentId}`);
    expect(approved.headers.get('location')).toMatch(
      new RegExp(`^${CALLBACK}\\?paymentId=${checking!.paymentId}`),
    );
    expect(settling.headers.get('location')).toMatch(
      new RegExp(`^${CALLBACK}\\?paymentId=${later!.paymentId}`),
    );

    // At once: PENDING for the payment the bank still checks, COMPLETED for the one that settles
    // later, nothing for the one left undecided.
    await r.request(2);
    expect(sentFor(r, sandbox, checking!.paymentId)).toEqual([['PENDING', null]]);
    expect(sentFor(r, sandbox, later!.paymentId)).toEqual([['COMPLETED', null]]);
    expect(sentFor(r, sandbox, left!.paymentId)).toEqual([]);
    expect(sandbox.payments.get(left!.paymentId)).toMatchObject({
      status: 'PENDING',
      decision: 'abandon',
    });
    expect(sandbox.payments.get(checking!.paymentId)).toMatchObject({
      status: 'PENDING',
      decision: 'approve-pending',
    });
    expect(sandbox.payments.get(later!.paymentId)).toMatchObject({
      status: 'COMPLETED',
      decision: 'approve-settles-later',
    });

    // What is scheduled, soonest first, each at its wait: 2, 5 and 15 minutes.
    const steps = sandbox.scheduled;
    expect(steps.map(({ paymentId, status, reason }) => [paymentId, status, reason])).toEqual([
      [checking!.paymentId, 'COMPLETED', 'bank-check'],
      [later!.paymentId, 'SETTLED', 'settlement'],
      [left!.paymentId, 'FAILED', 'authorisation-window'],
    ]);
    for (const [step, minutes] of [
      [steps[0]!, 2],
      [steps[1]!, 5],
      [steps[2]!, 15],
    ] as const) {
      expect(Date.parse(step.at)).toBeGreaterThanOrEqual(before + minutes * 60_000);
      expect(Date.parse(step.at)).toBeLessThanOrEqual(after + minutes * 60_000);
    }

    // The first decision stands: the shopper who left cannot approve from a stale page.
    await decide(sandbox, left!.paymentId, 'approve', staleToken);
    expect(sandbox.payments.get(left!.paymentId)?.status).toBe('PENDING');
    expect(await bankPageText(sandbox, left!.paymentId)).toMatch(
      /You left without deciding.*The payment stays pending until its authorisation window closes \(at \d{4}-\d\d-\d\d [\d:.]+ UTC\); then it fails and no money moves\./s,
    );
    expect(await bankPageText(sandbox, checking!.paymentId)).toMatch(
      /Payment authorised.*Your bank is still checking this payment; it completes when the check ends \(at /s,
    );

    // The sandbox's stop cancels what is scheduled.
    await sandbox.stop();
    expect(sandbox.scheduled).toEqual([]);
  });

  it('under a time scale of 600, each decision’s notifications arrive in order, each at its wait', async () => {
    // 15 minutes in 1.5 s, 9 in 0.9 s, 6 in 0.6 s: each step read while it still waits.
    const { r, arrivals, sandbox } = await shop({
      timeScale: 600,
      bankCheckMs: 6 * 60_000,
      settleAfterMs: 9 * 60_000,
    });
    const [left, checking, later] = await Promise.all([1, 2, 3].map(() => createPayment(sandbox)));
    const steps = [];
    for (const [payment, decision, wait] of [
      [left!, 'abandon', 1500],
      [checking!, 'approve-pending', 600],
      [later!, 'approve-settles-later', 900],
    ] as const) {
      const decided = Date.now();
      await decide(sandbox, payment.paymentId, decision);
      const step = sandbox.scheduled.find((s) => s.paymentId === payment.paymentId)!;
      expect(Date.parse(step.at) - decided).toBeGreaterThanOrEqual(wait);
      steps.push(step);
    }

    await r.request(5);
    expect(sentFor(r, sandbox, left!.paymentId)).toEqual([['FAILED', EXPIRED_DESCRIPTION]]);
    expect(sentFor(r, sandbox, checking!.paymentId)).toEqual([
      ['PENDING', null],
      ['COMPLETED', null],
    ]);
    expect(sentFor(r, sandbox, later!.paymentId)).toEqual([
      ['COMPLETED', null],
      ['SETTLED', null],
    ]);
    // None came before its step was due (a timer never fires early; 1 ms for its rounding).
    for (const step of steps) {
      const arrival = arrivals.find(
        (a) => a.paymentId === step.paymentId && a.paymentStatus === step.status,
      );
      expect(arrival!.at).toBeGreaterThanOrEqual(Date.parse(step.at) - 1);
    }

    expect(sandbox.payments.get(left!.paymentId)).toMatchObject({
      status: 'FAILED',
      errorDescription: EXPIRED_DESCRIPTION,
    });
    expect(sandbox.payments.get(checking!.paymentId)?.status).toBe('COMPLETED');
    expect(sandbox.payments.get(later!.paymentId)?.status).toBe('SETTLED');
    expect(sandbox.scheduled).toEqual([]);
    expect(await bankPageText(sandbox, left!.paymentId)).toContain(
      `Reason: ${EXPIRED_DESCRIPTION}`,
    );
  });

  it('a late COMPLETED after the window closed: FAILED, then COMPLETED, both on the deliveries page', async () => {
    const { r, sandbox } = await shop({ authorisationWindowMs: 1000, timeScale: 100 });
    const { paymentId } = await createPayment(sandbox);
    const failed = sandbox.attempt((a) => a.paymentStatus === 'FAILED');
    await decide(sandbox, paymentId, 'abandon');
    await failed;
    const completed = sandbox.attempt((a) => a.paymentStatus === 'COMPLETED');
    expect(sandbox.completeLate(paymentId)).toMatchObject({
      status: 'COMPLETED',
      errorDescription: null,
    });
    await completed;
    expect(sentFor(r, sandbox, paymentId)).toEqual([
      ['FAILED', EXPIRED_DESCRIPTION],
      ['COMPLETED', null],
    ]);
    const page = await (await fetch(`${sandbox.url}/deliveries`)).text();
    expect(page).toContain(
      `<span class="status-FAILED">FAILED</span> → <span class="status-COMPLETED">COMPLETED</span></h3>`,
    );
    // A resend sends the latest notification.
    const resent = sandbox.attempt((a) => a.reason === 'resend');
    sandbox.resendNotification(paymentId);
    expect((await resent).paymentStatus).toBe('COMPLETED');
  });

  it('the time scale divides a delivery’s delay too: 90 s held back at 600 is 150 ms', async () => {
    const { r, arrivals, sandbox } = await shop({ timeScale: 600 });
    sandbox.breakDeliveries({ delayMs: 90_000 });
    const { paymentId } = await createPayment(sandbox);
    const approved = Date.now();
    await decide(sandbox, paymentId, 'approve');
    await r.request(1);
    expect(sentFor(r, sandbox, paymentId)).toEqual([['COMPLETED', null]]);
    expect(arrivals[0]!.at - approved).toBeGreaterThanOrEqual(149);
  });

  it.each([
    [{ timeScale: 0 }, 'timeScale must be a number from 0.001 to 1000000 (a factor), got 0.'],
    [{ timeScale: Number.NaN }, 'timeScale must be a number from 0.001'],
    [{ authorisationWindowMs: 0 }, 'authorisationWindowMs must be an integer from 1 to 2147483647'],
    [{ bankCheckMs: 1.5 }, 'bankCheckMs must be an integer from 0'],
    [{ settleAfterMs: -1 }, 'settleAfterMs must be an integer from 0'],
  ] satisfies [SandboxOptions, string][])(
    'refuses %o at the start, naming the option',
    async (options, words) => {
      const error = await startSandbox({ port: 0, ...options }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxConfigError);
      expect((error as Error).message).toContain(words);
    },
  );
});

describe('the lifecycle’s clock', () => {
  it('is cleared by the stop: a step scheduled never runs once stopped', async () => {
    vi.useFakeTimers();
    const payments = createPaymentStore(10);
    const payment = payments.create({
      environment: 'SANDBOX',
      applicationId: '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90',
      institutionId: 'monzo',
      amount: 12.5,
      reference: 'ORDER-1042',
      merchantPaymentId: null,
      metadata: null,
      agentType: 'WEB_BROWSER',
    });
    const notify = vi.fn();
    const scheduler = createScheduler();
    const lifecycle = createLifecycle({
      payments,
      notify,
      options: {
        authorisationWindowMs: 900_000,
        bankCheckMs: 0,
        settleAfterMs: 0,
        scaled: (ms) => ms,
        log: () => {},
      },
      scheduler,
    });
    lifecycle.decide(payment.paymentId, 'abandon');
    expect(vi.getTimerCount()).toBe(1);
    await scheduler.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(900_000);
    expect(notify).not.toHaveBeenCalled();
    expect(payments.get(payment.paymentId)?.status).toBe('PENDING');
    expect(lifecycle.scheduled()).toEqual([]);
  });

  // A 15-minute step, never stopped: the process still ends as soon as its work is done. The
  // bound is for a hang (a timer that kept the process alive), not a speed check.
  it('never keeps a process alive', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicepay-lifecycle-'));
    const src = (path: string) =>
      fileURLToPath(new URL(`../../../src/sandbox/${path}`, import.meta.url));
    writeFileSync(
      join(dir, 'entry.ts'),
      `import { createScheduler } from ${JSON.stringify(src('deliveries/scheduler.ts'))};
import { createLifecycle } from ${JSON.stringify(src('payments/lifecycle.ts'))};
import { createPaymentStore } from ${JSON.stringify(src('payments/store.ts'))};
const payments = createPaymentStore(10);
const { paymentId } = payments.create({ environment: 'SANDBOX', applicationId: 'a', institutionId: 'monzo', amount: 1, reference: 'R', merchantPaymentId: null, metadata: null, agentType: 'WEB_BROWSER' });
const lifecycle = createLifecycle({ payments, notify() {}, scheduler: createScheduler(), options: { authorisationWindowMs: 900000, bankCheckMs: 0, settleAfterMs: 0, scaled: (ms) => ms, log: () => {} } });
lifecycle.decide(paymentId, 'abandon');
console.log(lifecycle.scheduled().length);
`,
    );
    await build({
      entryPoints: [join(dir, 'entry.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(dir, 'entry.mjs'),
      logLevel: 'silent',
    });
    const child = spawn(process.execPath, [join(dir, 'entry.mjs')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    onTestFinished(() => void child.kill());
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, out: out.trim() }).toEqual({ code: 0, out: '1' });
  });
});
