// @vitest-environment node
// The deliveries page as a webhook workbench (issue 24): every attempt in full, a hint at the
// cause of each failure, Resend, faults on purpose, the receiver check, a bounded history, a
// page that stays live, and actions locked like the bank page's decision. Against real
// receivers on 127.0.0.1 (test/sandbox/support/receiver.ts, and the library's own).
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { WebhookDeliveryAttempt } from '../../../src/sandbox/index';
import { SIGNATURE_DOCS } from '../../../src/sandbox/deliveries/hints';
import { escapeHtml } from '../../../src/sandbox/pages/page';
import {
  MemoryIdempotencyStore,
  createWebhookHandler,
  parseWebhookNotification,
  verifyWebhookSignature,
} from '../../../src/webhook/index';
import { listenOnFreePort } from '../../helpers/free-port';
import { closedPort, startReceiver } from '../support/receiver';
import type { Answer, Receiver, Respond } from '../support/receiver';
import { createPayment, decide, deliveriesToken, testSandbox } from '../support/sandbox';
import type { TestSandbox } from '../support/sandbox';

async function receiver(respond?: Respond, port?: number): Promise<Receiver> {
  const r = await startReceiver(respond, port);
  onTestFinished(() => r.stop());
  return r;
}

/** A settled payment of a new sandbox pointed at `url`; resolves once `until` is recorded. */
async function settled(
  sandbox: TestSandbox,
  until: (a: WebhookDeliveryAttempt) => boolean = (a) => a.outcome !== 'retrying',
) {
  const { paymentId } = await createPayment(sandbox);
  const done = sandbox.attempt((a) => a.paymentId === paymentId && until(a));
  sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
  return { paymentId, attempt: await done };
}

const page = async (sandbox: TestSandbox, path = '/deliveries') =>
  (await fetch(`${sandbox.url}${path}`)).text();

const formToken = deliveriesToken;

/** A promise and its resolver, to hold a receiver's answer until the test lets it go. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

describe('each attempt in full', () => {
  it('keeps the request as sent and the answer; the signature verifies with the library', async () => {
    const r = await receiver(() => ({ status: 200, body: 'stored order 1042' }));
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { attempt } = await settled(sandbox);
    const received = r.requests[0]!;

    expect(attempt.request.method).toBe('PUT');
    expect(attempt.request.url).toBe(r.url);
    expect(attempt.request.body).toBe(received.body.toString('utf8'));
    expect(attempt.request.headers.Authorization).toBe(received.headers.authorization);
    expect(attempt.request.headers['Content-Length']).toBe(String(received.body.length));
    expect(
      verifyWebhookSignature(
        attempt.request.body,
        attempt.request.headers.Authorization,
        sandbox.publicKey,
      ),
    ).toBe(true);
    expect(attempt).toMatchObject({
      status: 200,
      responseText: 'stored order 1042',
      error: null,
      hint: null,
      simulated: false,
    });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);

    // The page shows the request once per notification, headers, signature and body.
    const html = await page(sandbox);
    expect(html).toContain(escapeHtml(`Authorization: ${attempt.request.headers.Authorization}`));
    expect(html).toContain(escapeHtml(attempt.request.body));
    expect(html).toContain(`PUT /webhooks/servicepay HTTP/1.1`);
    expect(html).toMatch(/<td>\d+ ms<\/td>/);
  });

  it('keeps the first 4 KiB of a long answer, as text', async () => {
    const long = `${'é'.repeat(3000)}${'x'.repeat(3000)}`;
    const r = await receiver(() => ({ status: 500, body: long }));
    const sandbox = await testSandbox({ webhookUrl: r.url, retry: { maxAttempts: 1 } });
    const { attempt } = await settled(sandbox);
    expect(attempt.responseText).toBe(long.slice(0, 4096));
  });
});

describe('a hint at the likely cause, in the record, the log line and the page', () => {
  const hung: Answer = 'hang';
  it.each<[string, Respond | 'closed', string, string]>([
    ['401', () => 401, 'signature', 'parsed or re-serialised before verification'],
    ['404', () => 404, 'path', 'compare the path of the webhook URL'],
    ['405', () => 405, 'method', 'does not accept PUT'],
    ['413', () => 413, 'too-large', 'as too large'],
    [
      '500',
      () => ({ status: 500, body: 'TypeError: order is undefined' }),
      'handler-failed',
      'its handler threw',
    ],
    ['a timeout', () => hung, 'timeout', 'did not answer within 100 ms'],
    ['connection refused', 'closed', 'connection-refused', 'Nothing is listening at 127.0.0.1:'],
  ])('%s', async (_, respond, cause, words) => {
    const url =
      respond === 'closed'
        ? `http://127.0.0.1:${await closedPort()}/webhooks/servicepay`
        : (await receiver(respond)).url;
    const lines: string[] = [];
    const sandbox = await testSandbox({
      webhookUrl: url,
      // 100 ms for the hung receiver; the others answer within the default, however loaded
      // the machine.
      retry: { maxAttempts: 1, ...(cause === 'timeout' ? { timeoutMs: 100 } : {}) },
      log: (line) => lines.push(line),
    });
    const { attempt } = await settled(sandbox);
    expect(attempt.outcome).toBe('gave-up');
    expect(attempt.hint?.cause).toBe(cause);
    expect(attempt.hint?.text).toContain(words);
    const logged = lines.find((line) => line.startsWith(`webhook COMPLETED ${attempt.paymentId}`));
    expect(logged).toContain(`Likely cause: ${attempt.hint!.text}`);
    expect(await page(sandbox)).toContain(escapeHtml(attempt.hint!.text));
  });

  it('links the 401 hint to a troubleshooting section that exists', async () => {
    const r = await receiver(() => 401);
    const sandbox = await testSandbox({ webhookUrl: r.url, retry: { maxAttempts: 1 } });
    const { attempt } = await settled(sandbox);
    expect(attempt.hint?.docs).toBe(SIGNATURE_DOCS);
    expect(attempt.hint?.text).toContain(`${sandbox.url}/.well-known/signature/pem`);
    expect(await page(sandbox)).toContain(`<a href="${SIGNATURE_DOCS}">`);
    const anchor = SIGNATURE_DOCS.split('#')[1];
    const headings = readFileSync('docs/troubleshooting.md', 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) =>
        line
          .replace(/^#+\s*/, '')
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      );
    expect(headings).toContain(anchor);
  });

  it('shows a failing receiver’s answer on the page without a click, and in the log', async () => {
    const r = await receiver(() => ({ status: 503, body: 'database <down>' }));
    const lines: string[] = [];
    const sandbox = await testSandbox({
      webhookUrl: r.url,
      retry: { maxAttempts: 1 },
      log: (line) => lines.push(line),
    });
    await settled(sandbox);
    const html = await page(sandbox);
    expect(html).toContain(
      '<p class="label">The receiver answered:</p><pre class="raw">database &lt;down&gt;</pre>',
    );
    expect(lines.join('\n')).toContain('The receiver answered: "database <down>"');
  });

  it('gives none to a delivered attempt', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    expect((await settled(sandbox)).attempt.hint).toBeNull();
    expect(await page(sandbox)).not.toContain('Likely cause');
  });
});

describe('Resend', () => {
  it('sends the same bytes and signature again, also after the sandbox gave up', async () => {
    let fixed = false;
    const r = await receiver(() => (fixed ? 200 : 401));
    const sandbox = await testSandbox({ webhookUrl: r.url, retry: { maxAttempts: 2 } });
    const { paymentId, attempt } = await settled(sandbox);
    expect(attempt).toMatchObject({ outcome: 'gave-up', attempt: 2, copy: 1 });

    fixed = true;
    const delivered = sandbox.attempt((a) => a.outcome === 'delivered');
    expect(sandbox.resendNotification(paymentId)).toBe(2);
    expect(await delivered).toMatchObject({ copy: 2, reason: 'resend', attempt: 1, status: 200 });
    expect(r.requests).toHaveLength(3);
    for (const other of r.requests.slice(1)) {
      expect(other.body.equals(r.requests[0]!.body)).toBe(true);
      expect(other.headers.authorization).toBe(r.requests[0]!.headers.authorization);
    }
  });

  it('refuses a payment without a notification, naming why', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await createPayment(sandbox);
    expect(() => sandbox.resendNotification(paymentId)).toThrow(/still PENDING/);
    expect(() => sandbox.resendNotification('nope')).toThrow(/sent no notification/);
    const quiet = await testSandbox();
    const other = await createPayment(quiet);
    quiet.settlePayment(other.paymentId, { status: 'COMPLETED' });
    expect(() => quiet.resendNotification(other.paymentId)).toThrow(/no webhookUrl/);
  });
});

describe('break it on purpose', () => {
  it('twice at once: two copies reach the receiver at the same time, each retried on its own', async () => {
    const both = gate();
    // The first copy is held until the second has arrived: only copies sent at once pass.
    const r = await receiver(async (_, n) => {
      if (n === 2) both.open();
      await both.opened;
      return n === 1 ? 200 : n === 2 ? 409 : 200;
    });
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await createPayment(sandbox);
    sandbox.breakDeliveries({ twiceAtOnce: true }, { paymentId });
    const second = sandbox.attempt((a) => a.copy === 2 && a.outcome === 'delivered');
    sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
    await second;
    const byCopy = (copy: number) =>
      sandbox.deliveries.filter((a) => a.copy === copy).map((a) => [a.reason, a.status]);
    expect(byCopy(1)).toEqual([['settled', 200]]);
    expect(byCopy(2)).toEqual([
      ['twice-at-once', 409],
      ['twice-at-once', 200],
    ]);
    expect(new Set(r.requests.map((q) => q.body.toString())).size).toBe(1);
    // Used up: the payment's next resend is plain.
    expect(sandbox.armedFaults).toEqual({ next: null, payments: [] });
  });

  it('a late resend: the same notification again after the 200', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    sandbox.breakDeliveries({ lateResendMs: 0 });
    const late = sandbox.attempt((a) => a.reason === 'late-resend');
    const { paymentId } = await settled(sandbox);
    expect(await late).toMatchObject({ paymentId, copy: 2, status: 200, outcome: 'delivered' });
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
    expect(r.requests[1]!.headers.authorization).toBe(r.requests[0]!.headers.authorization);
  });

  it('network failures: the first n attempts fail before the receiver, which sees it once', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    sandbox.breakDeliveries({ networkFailures: 3 }, { count: 1 });
    const { paymentId, attempt } = await settled(sandbox, (a) => a.outcome === 'delivered');
    expect(attempt.attempt).toBe(4);
    const attempts = sandbox.deliveries.filter((a) => a.paymentId === paymentId);
    expect(attempts.map((a) => [a.simulated, a.status, a.hint?.cause ?? null])).toEqual([
      [true, null, 'simulated'],
      [true, null, 'simulated'],
      [true, null, 'simulated'],
      [false, 200, null],
    ]);
    expect(r.requests).toHaveLength(1);
    expect(await page(sandbox)).toContain('Network failure (on purpose)');
  });

  it('a delay: nothing is sent before it, and stop() cancels a delay still running', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    sandbox.breakDeliveries({ delayMs: 150 });
    const settledAt = Date.now();
    const { attempt } = await settled(sandbox);
    // A lower bound only (a busy machine makes it later, never earlier); a timer's clock may
    // round a millisecond or two against Date.now().
    expect(Date.parse(attempt.at) - settledAt).toBeGreaterThanOrEqual(140);

    const long = await testSandbox({ webhookUrl: r.url });
    long.breakDeliveries({ delayMs: 10 * 60_000 });
    const { paymentId } = await createPayment(long);
    long.settlePayment(paymentId, { status: 'COMPLETED' });
    // Only a cancelled timer lets stop() resolve before ten minutes.
    await long.stop();
    expect(long.deliveries).toEqual([]);
    expect(r.requests).toHaveLength(1);
  });

  it('the next n notifications get the faults, then they are sent plainly', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    expect(sandbox.breakDeliveries({ twiceAtOnce: true }, { count: 2 })).toEqual({
      next: { faults: { twiceAtOnce: true }, remaining: 2 },
      payments: [],
    });
    const copies = async () => {
      const { paymentId } = await createPayment(sandbox);
      const done = sandbox.attempt((a) => a.paymentId === paymentId && a.copy === 1);
      sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
      await done;
      return paymentId;
    };
    const first = await copies();
    expect(sandbox.armedFaults.next?.remaining).toBe(1);
    const second = await copies();
    expect(sandbox.armedFaults.next).toBeNull();
    const third = await copies();
    await expect
      .poll(() => sandbox.deliveries.filter((a) => a.reason === 'twice-at-once').length)
      .toBe(2);
    const reasons = (id: string) =>
      sandbox.deliveries.filter((a) => a.paymentId === id).map((a) => a.reason);
    expect(reasons(first).sort()).toEqual(['settled', 'twice-at-once']);
    expect(reasons(second).sort()).toEqual(['settled', 'twice-at-once']);
    expect(reasons(third)).toEqual(['settled']);
  });

  it('refuses faults it cannot do, naming the fault', () =>
    testSandbox().then((sandbox) => {
      expect(() => sandbox.breakDeliveries({ networkFailures: -1 })).toThrow(/networkFailures/);
      expect(() => sandbox.breakDeliveries({ delayMs: Infinity })).toThrow(/delayMs/);
      expect(() => sandbox.breakDeliveries({ twice: true } as never)).toThrow(
        /unknown delivery fault "twice"/,
      );
      expect(() => sandbox.breakDeliveries({ twiceAtOnce: true }, { paymentId: 'nope' })).toThrow(
        /no sandbox payment/,
      );
    }));
});

describe('the receiver check', () => {
  it('against the library’s receiver: every case as expected, the work done once per payment', async () => {
    const handled: string[] = [];
    // The handler needs the sandbox's key, the sandbox the server's address: made in turn.
    const server = createServer((req, res) => void handler(req, res));
    const port = await listenOnFreePort(server);
    onTestFinished(() => new Promise((resolve) => server.close(() => resolve())));
    const sandbox = await testSandbox({
      webhookUrl: `http://127.0.0.1:${port}/webhooks/servicepay`,
    });
    const handler = createWebhookHandler({
      publicKey: sandbox.publicKey,
      expectedPayment: 'unreconciled',
      store: new MemoryIdempotencyStore(),
      onNotification: (n) => {
        handled.push(n.paymentId);
      },
    });
    const report = await sandbox.checkReceiver();
    expect(report.cases.map((c) => [c.name, c.passed])).toEqual([
      ['once', true],
      ['twice-at-once', true],
      ['late-resend', true],
      ['network-failures', true],
      ['delay', true],
      ['forged-signature', true],
    ]);
    expect(report.passed).toBe(true);
    expect(report.cases.find((c) => c.name === 'forged-signature')!.copies).toEqual([
      { copy: 1, reason: 'receiver-check', answers: ['401'], outcome: 'gave-up' },
    ]);
    expect(report.cases.find((c) => c.name === 'network-failures')!.copies[0]!.answers).toEqual([
      'network failure (on purpose)',
      'network failure (on purpose)',
      '200',
    ]);
    // Five notifications handled once each; the forged one never.
    const forged = report.cases.find((c) => c.name === 'forged-signature')!.paymentId;
    expect(handled.sort()).toEqual(
      report.cases
        .map((c) => c.paymentId)
        .filter((id) => id !== forged)
        .sort(),
    );
    expect(report.note).toMatch(/yours to check/);
    // The page shows the report.
    const html = await page(sandbox);
    expect(html).toContain('every case as expected');
    expect(html).toContain(escapeHtml(report.note));
    // And the check's deliveries as its cases with their verdicts: the forged one's 401 is the
    // check passing, not a delivery that gave up over a parsed body.
    const section = (paymentId: string) =>
      new RegExp(`<section class="notification" id="n-${paymentId}"[^]*?</section>`).exec(html)![0];
    expect(section(forged)).toContain(
      'Receiver check case “Forged signature”, expected: 401 (any refusal), and nothing done (a signature failure it logs now is this). <span class="verdict verdict-delivered">As expected</span> Refused with 401.',
    );
    expect(section(forged)).not.toContain('Gave up');
    expect(section(forged)).not.toContain('body was parsed');
    expect(section(forged)).toContain('Forged on purpose by the receiver check');
    for (const c of report.cases) {
      expect(section(c.paymentId)).toContain(
        `<span class="verdict verdict-delivered">As expected</span> ${escapeHtml(c.verdict)}`,
      );
    }

    // A case of an earlier check, no longer in the report, is judged again from its attempts.
    const again = await sandbox.checkReceiver();
    expect(again.passed).toBe(true);
    const later = await page(sandbox);
    expect(later.match(/verdict-delivered">As expected</g)).toHaveLength(2 * 6 + 6);
    expect(later).not.toContain('Gave up');
  });

  it('against a receiver that verifies nothing: the forged case says so', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const report = await sandbox.checkReceiver();
    const forged = report.cases.find((c) => c.name === 'forged-signature')!;
    expect(forged.passed).toBe(false);
    expect(forged.verdict).toMatch(/does not verify signatures/);
    expect(report.passed).toBe(false);
    expect(await page(sandbox)).toContain(
      `<span class="verdict verdict-gave-up">Not as expected</span> ${escapeHtml(forged.verdict)}`,
    );
    // The forged request's signature is over other bytes: the library refuses it.
    const sent = r.requests.find((q) => q.body.toString().includes(forged.paymentId))!;
    expect(
      verifyWebhookSignature(sent.body, String(sent.headers.authorization), sandbox.publicKey),
    ).toBe(false);
  });

  it('logs the forged case’s refusal as the answer it wanted, not as a delivery giving up', async () => {
    const lines: string[] = [];
    // Verifies the signature over the exact bytes: 401 for the forged case, 200 otherwise.
    const r = await receiver((q) =>
      verifyWebhookSignature(q.body, String(q.headers.authorization), sandbox.publicKey)
        ? 200
        : 401,
    );
    const sandbox = await testSandbox({ webhookUrl: r.url, log: (line) => lines.push(line) });
    const report = await sandbox.checkReceiver();
    const forged = report.cases.find((c) => c.name === 'forged-signature')!;
    expect(forged.passed).toBe(true);
    const line = lines.find((l) => l.startsWith('webhook') && l.includes(forged.paymentId))!;
    expect(line).toContain('→ HTTP 401');
    expect(line).not.toContain('giving up');
    expect(line).not.toContain('Likely cause');
    expect(line).toContain('refused, as the receiver check’s forged case expects');
  });

  it('needs a webhook URL', async () => {
    const sandbox = await testSandbox();
    await expect(sandbox.checkReceiver()).rejects.toThrow(/needs a webhook URL/);
  });
});

describe('a bounded history, usable with hundreds of deliveries', () => {
  it('keeps the latest deliveryHistory attempts and pages the notifications', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url, deliveryHistory: 200 });
    const ids: string[] = [];
    for (let i = 0; i < 250; i += 1) ids.push((await settled(sandbox)).paymentId);
    const kept = sandbox.deliveries;
    expect(kept).toHaveLength(200);
    // The oldest went first.
    expect(kept.map((a) => a.paymentId)).toEqual(ids.slice(50));
    expect(kept[0]!.id).toBe(51);

    const first = await page(sandbox);
    expect(first.match(/<section class="notification"/g)).toHaveLength(20);
    expect(first).toContain(`id="n-${ids[249]}"`);
    expect(first).toContain('Page 1 of 10');
    const last = await page(sandbox, '/deliveries?page=10');
    expect(last).toContain(`id="n-${ids[50]}"`);
    expect(last).not.toContain(`id="n-${ids[49]}"`);
    // Only the first page is live.
    expect(last).not.toContain('data-events');
    // A notification whose attempts were dropped can still be resent.
    const resent = sandbox.attempt((a) => a.paymentId === ids[0]);
    sandbox.resendNotification(ids[0]!);
    expect(await resent).toMatchObject({ copy: 2, status: 200 });
  }, 60_000);

  it('refuses a deliveryHistory that is not a count', async () => {
    await expect(testSandbox({ deliveryHistory: 0 })).rejects.toMatchObject({
      option: 'deliveryHistory',
    });
  });
});

/** Reads Server-Sent Events from the sandbox until `count` of `name` have come. */
function readEvents(url: string, name: string, count: number) {
  const events: { html: string; summary: string }[] = [];
  let req!: ReturnType<typeof request>;
  const connected = new Promise<void>((resolveConnected) => {
    req = request(url, (res) => {
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      resolveConnected();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === name && data) events.push(JSON.parse(data) as never);
          if (events.length >= count) done.open();
        }
      });
    });
    req.end();
  });
  const done = gate();
  return { connected, events, done: done.opened.then(() => req.destroy()) };
}

describe('the page stays live', () => {
  it('streams each new attempt as its notification’s section', async () => {
    const r = await receiver((_, n) => (n === 1 ? 500 : 200));
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const stream = readEvents(`${sandbox.url}/deliveries/events`, 'attempt', 2);
    await stream.connected;
    const { paymentId } = await settled(sandbox, (a) => a.outcome === 'delivered');
    await stream.done;
    expect(stream.events.map((e) => e.summary)).toEqual([
      `payment ${paymentId.slice(0, 8)}…, HTTP 500, retrying`,
      `payment ${paymentId.slice(0, 8)}…, HTTP 200, delivered`,
    ]);
    expect(stream.events[1]!.html).toMatch(
      new RegExp(`^<section class="notification" id="n-${paymentId}"`),
    );
    expect(stream.events[1]!.html).toContain('Delivered');
  });

  it('sends what happened since the page was made, and lets stop() end an open stream', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const html = await page(sandbox);
    const after = /data-events="\/deliveries\/events\?after=(\d+)"/.exec(html)?.[1];
    expect(after).toBe('0');
    // Delivered between the page's rendering and its stream's start: not missed.
    const { paymentId } = await settled(sandbox);
    const stream = readEvents(`${sandbox.url}/deliveries/events?after=${after}`, 'attempt', 1);
    await stream.connected;
    await stream.done;
    expect(stream.events[0]!.html).toContain(`id="n-${paymentId}"`);

    const open = readEvents(`${sandbox.url}/deliveries/events`, 'attempt', 1);
    await open.connected;
    // Only a stop that closes the stream's connection resolves.
    await sandbox.stop();
  });

  it('serves the page with its one script under a CSP that allows nothing else', async () => {
    const sandbox = await testSandbox();
    const response = await fetch(`${sandbox.url}/deliveries`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(await response.text()).toContain('<script src="/assets/deliveries.js" defer></script>');
    const script = await fetch(`${sandbox.url}/assets/deliveries.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain("new EventSource(main.getAttribute('data-events'))");
    // The other pages still run no script at all.
    expect((await fetch(`${sandbox.url}/`)).headers.get('content-security-policy')).not.toContain(
      'script-src',
    );
  });
});

describe('slow and lost payments (issue 45)', () => {
  it('shows what is scheduled, and when, and keeps it up to date while open', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await createPayment(sandbox);
    await decide(sandbox, paymentId, 'abandon');
    const [step] = sandbox.scheduled;
    const html = await page(sandbox);
    const section = /<section id="lifecycle"[^]*?<\/section>/.exec(html)![0];
    expect(section).toContain('<h2 id="lifecycle-heading">Slow and lost payments</h2>');
    expect(section).toContain(
      `<li>Payment <code>${paymentId}</code>: FAILED when its authorisation window closes, at <time datetime="${step!.at}">`,
    );
    expect(section).toContain('the authorisation window of 15 min');
    // One form, one payment id, its two actions; none named as the resend and break-it actions
    // are, which scripts and tests find by those words.
    expect(section).toContain('<form method="post" action="/deliveries/complete-late">');
    expect(section).toMatch(
      /<input type="text" name="paymentId" id="lifecycle-payment-id"[^>]*required>/,
    );
    const buttons = [...section.matchAll(/<button type="submit"([^>]*)>([^<]+)</g)].map(
      ([, attributes, label]) => [attributes!.trim(), label],
    );
    expect(buttons).toEqual([
      ['', 'Send a late COMPLETED'],
      ['formaction="/deliveries/pay-again"', 'Pay the same order again'],
    ]);
    expect(section.replace(/<[^>]*>/g, '')).not.toMatch(/resend|twice|duplicate|concurrent/i);

    // Live: the step is taken (a late COMPLETED overtakes it), and the list says so.
    const stream = readEvents(`${sandbox.url}/deliveries/events`, 'section', 1);
    await stream.connected;
    sandbox.completeLate(paymentId);
    await stream.done;
    expect(stream.events[0]!.html).toBe('<div id="scheduled"><p>Nothing scheduled.</p></div>');
  });

  it('says the time scale, and each notification of a payment with its status', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url, timeScale: 600 });
    const { paymentId } = await createPayment(sandbox);
    const both = Promise.all(
      ['PENDING', 'COMPLETED'].map((status) => sandbox.attempt((a) => a.paymentStatus === status)),
    );
    await decide(sandbox, paymentId, 'approve-pending');
    await both;
    const html = await page(sandbox);
    expect(html).toContain('The sandbox’s clock runs 600 times faster (timeScale)');
    expect(html).toContain(
      `<code>${paymentId}</code> <span class="status-PENDING">PENDING</span> → <span class="status-COMPLETED">COMPLETED</span></h3>`,
    );
    expect(html).toContain('<td>PENDING · 1 · first</td>');
    expect(html).toContain('<td>COMPLETED · 1 · first</td>');
  });
});

describe('the actions are locked like the bank page’s decision', () => {
  async function deliveredSandbox() {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await settled(sandbox);
    return { r, sandbox, paymentId };
  }

  const post = (
    sandbox: TestSandbox,
    action: string,
    body: string,
    headers: Record<string, string>,
  ) =>
    fetch(`${sandbox.url}/deliveries/${action}`, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
    });

  it('does each action from the page’s own form (token, same origin): 303 back to the page', async () => {
    const { r, sandbox, paymentId } = await deliveredSandbox();
    const token = await formToken(sandbox);
    const form = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: sandbox.url };
    const resent = sandbox.attempt((a) => a.copy === 2);
    const resend = await post(
      sandbox,
      'resend',
      new URLSearchParams({ token, paymentId }).toString(),
      form,
    );
    expect(resend.status).toBe(303);
    expect(resend.headers.get('location')).toBe(`/deliveries#n-${paymentId}`);
    await resent;

    const broken = await post(
      sandbox,
      'break',
      new URLSearchParams({
        token,
        target: 'next',
        count: '3',
        twiceAtOnce: 'on',
        networkFailures: '2',
        delayMs: '0',
        lateResendMs: '1000',
      }).toString(),
      form,
    );
    expect(broken.status).toBe(303);
    expect(sandbox.armedFaults.next).toEqual({
      faults: { twiceAtOnce: true, networkFailures: 2 },
      remaining: 3,
    });
    expect(await page(sandbox)).toContain(
      'The next 3 notifications: twice at once, 2 network failures first',
    );

    const resentBroken = sandbox.attempt((a) => a.copy === 3 && a.simulated);
    const withFaults = await post(
      sandbox,
      'resend',
      new URLSearchParams({ token, paymentId, networkFailures: '1', delayMs: '' }).toString(),
      form,
    );
    expect(withFaults.status).toBe(303);
    await resentBroken;

    const checked = await post(sandbox, 'check', new URLSearchParams({ token }).toString(), form);
    expect(checked.status).toBe(303);
    expect(checked.headers.get('location')).toBe('/deliveries#receiver-check');
    await expect.poll(() => r.requests.length, { timeout: 20_000 }).toBeGreaterThan(3);
  });

  it('refuses a form without the token, from another origin, or not urlencoded: 403, nothing done', async () => {
    const { r, sandbox, paymentId } = await deliveredSandbox();
    const token = await formToken(sandbox);
    const attempts: [string, string, Record<string, string>][] = [
      // No token: what any site's form can send.
      ['resend', `paymentId=${paymentId}`, { 'Content-Type': 'application/x-www-form-urlencoded' }],
      ['break', 'twiceAtOnce=on&count=5', { 'Content-Type': 'application/x-www-form-urlencoded' }],
      ['check', '', { 'Content-Type': 'application/x-www-form-urlencoded' }],
      // A wrong token.
      [
        'resend',
        // Its first character changed (a token may itself begin with x: then 'y').
        `token=${token.startsWith('x') ? 'y' : 'x'}${token.slice(1)}&paymentId=${paymentId}`,
        { 'Content-Type': 'application/x-www-form-urlencoded' },
      ],
      // The right token (leaked) from a page elsewhere, as the browser reports it.
      [
        'resend',
        `token=${token}&paymentId=${paymentId}`,
        {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: 'http://evil.example',
          'Sec-Fetch-Site': 'cross-site',
        },
      ],
      [
        'break',
        `token=${token}&twiceAtOnce=on`,
        { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-site' },
      ],
      // A text/plain form dressed as urlencoded.
      ['resend', `token=${token}&paymentId=${paymentId}`, { 'Content-Type': 'text/plain' }],
      // JSON from a page elsewhere (a browser sends Origin, and would need a preflight).
      [
        'resend',
        JSON.stringify({ paymentId }),
        { 'Content-Type': 'application/json', Origin: 'http://evil.example' },
      ],
      ['check', '{}', { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' }],
      [
        'break',
        JSON.stringify({ faults: { delayMs: 5 } }),
        { 'Content-Type': 'application/json', Origin: 'null' },
      ],
    ];
    for (const [action, body, headers] of attempts) {
      const answer = await post(sandbox, action, body, headers);
      expect(answer.status, `${action} ${body} ${JSON.stringify(headers)}`).toBe(403);
    }
    // A CORS preflight is never granted.
    const preflight = await fetch(`${sandbox.url}/deliveries/resend`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.requests).toHaveLength(1);
    expect(sandbox.deliveries).toHaveLength(1);
    expect(sandbox.armedFaults).toEqual({ next: null, payments: [] });
  });

  it('does each action as JSON for a tool on this machine', async () => {
    const { sandbox, paymentId } = await deliveredSandbox();
    const json = { 'Content-Type': 'application/json' };
    const resent = await post(
      sandbox,
      'resend',
      JSON.stringify({ paymentId, faults: { networkFailures: 1 } }),
      json,
    );
    expect(resent.status).toBe(202);
    expect(await resent.json()).toEqual({
      paymentId,
      copy: 2,
      deliveries: `${sandbox.url}/deliveries#n-${paymentId}`,
    });
    const armed = await post(
      sandbox,
      'break',
      JSON.stringify({ faults: { delayMs: 5 }, paymentId }),
      json,
    );
    expect(await armed.json()).toEqual({
      armed: { next: null, payments: [{ paymentId, faults: { delayMs: 5 } }] },
    });
    const unknown = await post(sandbox, 'resend', JSON.stringify({ paymentId: 'nope' }), json);
    expect(unknown.status).toBe(404);
    const invalid = await post(sandbox, 'break', JSON.stringify({ faults: { delayMs: -1 } }), json);
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toMatch(/delayMs must be/);
  });
});

describe('parseWebhookNotification reads what the sandbox sends', () => {
  it('parses a resent copy exactly as the first', async () => {
    const r = await receiver();
    const sandbox = await testSandbox({ webhookUrl: r.url });
    const { paymentId } = await settled(sandbox);
    const resent = sandbox.attempt((a) => a.copy === 2);
    sandbox.resendNotification(paymentId);
    await resent;
    const [first, second] = r.requests.map((q) => parseWebhookNotification(q.body));
    expect(second).toEqual(first);
    expect(first?.paymentId).toBe(paymentId);
  });
});
