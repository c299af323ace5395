// @vitest-environment node
// Resend, break, the receiver check, a late COMPLETED and a second paid attempt are one command
// layer with four doors: the Sandbox methods, the JSON API, the deliveries page's forms and the
// CLI. The same command through each
// door does the same thing, or is refused with the same message and the same status; and each
// refusal's status comes from its error code (HTTP_STATUS), never from its wording.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTP_STATUS, SandboxError } from '../../../src/sandbox/api/errors';
import type { SandboxErrorCode } from '../../../src/sandbox/api/errors';
import { runCli, startSandbox } from '../../../src/sandbox/index';
import type { ArmedFaults, DeliveryFaults, DeliveryFaultTarget } from '../../../src/sandbox/index';
import { listenOnFreePort } from '../../helpers/free-port';
import { testIo } from '../support/cli-io';
import { startReceiver } from '../support/receiver';
import type { Receiver } from '../support/receiver';
import { createPayment, decide, deliveriesToken, testSandbox } from '../support/sandbox';
import type { TestSandbox } from '../support/sandbox';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

/** What one door made of a command: done, or refused with a status and the message. */
type Outcome = { done: true } | { done: false; status: number; message: string };

/** A command as each door takes it; `id` is the payment of the case. */
interface Command {
  method(sandbox: TestSandbox, id: string): unknown;
  json: [name: string, body: (id: string) => Record<string, unknown>];
  form: (id: string) => Record<string, string>;
  cli: (id: string) => string[];
}

const doors = {
  async method(sandbox: TestSandbox, id: string, command: Command): Promise<Outcome> {
    try {
      await command.method(sandbox, id);
      return { done: true };
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      return { done: false, status: HTTP_STATUS[error.code], message: error.message };
    }
  },
  async json(sandbox: TestSandbox, id: string, command: Command): Promise<Outcome> {
    const [name, body] = command.json;
    const answer = await fetch(`${sandbox.url}/deliveries/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body(id)),
    });
    const json = (await answer.json()) as { error?: string };
    return answer.ok
      ? { done: true }
      : { done: false, status: answer.status, message: json.error ?? '' };
  },
  async form(sandbox: TestSandbox, id: string, command: Command): Promise<Outcome> {
    const token = await deliveriesToken(sandbox);
    const answer = await fetch(`${sandbox.url}/deliveries/${command.json[0]}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, ...command.form(id) }).toString(),
      redirect: 'manual',
    });
    const html = await answer.text();
    return answer.status === 303
      ? { done: true }
      : { done: false, status: answer.status, message: pageText(html) };
  },
  async cli(sandbox: TestSandbox, id: string, command: Command): Promise<Outcome> {
    const { io, err } = testIo();
    const exit = await runCli([...command.cli(id), '--sandbox', sandbox.url], io);
    if (exit === 0) return { done: true };
    const [, message = '', status = '0'] = /^(.*) \(HTTP (\d+) from /s.exec(err.join('\n')) ?? [];
    return { done: false, status: Number(status), message };
  },
};

const resend = (faults?: DeliveryFaults): Command => ({
  method: (sandbox, id) => sandbox.resendNotification(id, faults),
  json: ['resend', (id) => ({ paymentId: id, ...(faults ? { faults } : {}) })],
  form: (id) => ({
    paymentId: id,
    ...(faults?.networkFailures ? { networkFailures: String(faults.networkFailures) } : {}),
  }),
  cli: (id) => [
    'resend',
    id,
    ...(faults?.networkFailures ? ['--network-failures', String(faults.networkFailures)] : []),
  ],
});

const breakNext = (count: number): Command => ({
  method: (sandbox) => sandbox.breakDeliveries({ twiceAtOnce: true }, { count }),
  json: ['break', () => ({ faults: { twiceAtOnce: true }, count })],
  form: () => ({ target: 'next', count: String(count), twiceAtOnce: 'on' }),
  cli: () => ['break', '--twice-at-once', '--next', String(count)],
});

const breakPayment = (target?: string): Command => ({
  method: (sandbox, id) =>
    sandbox.breakDeliveries({ delayMs: 5 }, { paymentId: target ?? id } as DeliveryFaultTarget),
  json: ['break', (id) => ({ faults: { delayMs: 5 }, paymentId: target ?? id })],
  form: (id) => ({ target: 'payment', paymentId: target ?? id, delayMs: '5' }),
  cli: (id) => ['break', '--delay', '5', '--payment', target ?? id],
});

/** A late COMPLETED (issue 45): the workbench's form and the CLI's word are `complete-late`. */
const late: Command = {
  method: (sandbox, id) => sandbox.completeLate(id),
  json: ['complete-late', (id) => ({ paymentId: id })],
  form: (id) => ({ paymentId: id }),
  cli: (id) => ['complete-late', id],
};

/** A second paid attempt for the payment's order (issue 45). */
const again: Command = {
  method: (sandbox, id) => sandbox.payAgain(id),
  json: ['pay-again', (id) => ({ paymentId: id })],
  form: (id) => ({ paymentId: id }),
  cli: (id) => ['pay-again', id],
};

const check: Command = {
  method: (sandbox) => sandbox.checkReceiver(),
  json: ['check', () => ({})],
  form: () => ({}),
  cli: () => ['check-receiver'],
};

/** A fresh sandbox for one door: with a receiver or not, its payment settled or pending. */
async function sandboxFor(payment: { webhook: boolean; settled: boolean }) {
  let webhookUrl: string | undefined;
  if (payment.webhook) {
    const r = await startReceiver();
    receivers.push(r);
    webhookUrl = r.url;
  }
  const sandbox = await testSandbox({ webhookUrl });
  const { paymentId } = await createPayment(sandbox);
  if (payment.settled) {
    const first = sandbox.attempt(() => true);
    await decide(sandbox, paymentId, 'approve');
    if (payment.webhook) await first;
  }
  return { sandbox, paymentId };
}

/**
 * What a successful command leaves behind, with the case's payment id named `<id>`: called
 * before the command, resolves after it (the resent copy's first attempt, or what is armed).
 */
function effect(sandbox: TestSandbox, id: string, name: string, ran: Promise<unknown>) {
  if (name === 'resend') {
    return sandbox
      .attempt((a) => a.copy === 2)
      .then(({ copy, reason, simulated }) => ({
        copy,
        reason,
        simulated,
      }));
  }
  return ran.then(
    () => JSON.parse(JSON.stringify(sandbox.armedFaults).replaceAll(id, '<id>')) as ArmedFaults,
  );
}

/** The text of a page's HTML: its tags dropped, the five escapes undone. */
const pageText = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('one command, four doors, the same result', () => {
  const done = [
    [
      'resend with a network failure',
      resend({ networkFailures: 1 }),
      { copy: 2, reason: 'resend', simulated: true },
    ],
    [
      'break the next 2',
      breakNext(2),
      { next: { faults: { twiceAtOnce: true }, remaining: 2 }, payments: [] },
    ],
    [
      'break one payment',
      breakPayment(),
      { next: null, payments: [{ paymentId: '<id>', faults: { delayMs: 5 } }] },
    ],
  ] as const;

  it.each(done)('%s', async (_, command, expected) => {
    for (const [door, run] of Object.entries(doors)) {
      const { sandbox, paymentId } = await sandboxFor({ webhook: true, settled: true });
      let ran!: () => void;
      const after = effect(
        sandbox,
        paymentId,
        command.json[0],
        new Promise<void>((r) => (ran = r)),
      );
      expect(await run(sandbox, paymentId, command), door).toEqual({ done: true });
      ran();
      expect(await after, door).toEqual(expected);
    }
  });

  const refused = [
    [
      'resend of a PENDING payment',
      resend(),
      { webhook: true, settled: false },
      409,
      /still PENDING/,
    ],
    [
      'resend of a payment unknown',
      resend(),
      { webhook: true, settled: false, id: 'nope' },
      404,
      /has sent no notification/,
    ],
    [
      'resend without a webhook URL',
      resend(),
      { webhook: false, settled: true },
      409,
      /no webhookUrl is configured/,
    ],
    [
      'break of a payment unknown',
      breakPayment('nope'),
      { webhook: true, settled: false },
      404,
      /no sandbox payment has the id "nope"/,
    ],
    [
      'a late COMPLETED of a payment already COMPLETED',
      late,
      { webhook: true, settled: true },
      409,
      /already COMPLETED, so a late COMPLETED would be the same notification again; resend it instead/,
    ],
    [
      'a second paid attempt of a payment unknown',
      again,
      { webhook: true, settled: false, id: 'nope' },
      404,
      /no sandbox payment has the id "nope"/,
    ],
    [
      'check without a webhook URL',
      check,
      { webhook: false, settled: false },
      409,
      /needs a webhook URL/,
    ],
  ] as const;

  it.each(refused)('%s: refused alike', async (_, command, setup, status, words) => {
    const messages: string[] = [];
    for (const [door, run] of Object.entries(doors)) {
      const { sandbox, paymentId } = await sandboxFor(setup);
      const outcome = await run(sandbox, 'id' in setup ? setup.id : paymentId, command);
      expect(outcome, door).toMatchObject({ done: false, status });
      const message = (outcome as { message: string }).message.replaceAll(paymentId, '<id>');
      expect(message, door).toMatch(words);
      messages.push(message);
      // Nothing was done: no copy sent, nothing armed.
      expect(
        sandbox.deliveries.filter((a) => a.copy > 1),
        door,
      ).toEqual([]);
      expect(sandbox.armedFaults, door).toEqual({ next: null, payments: [] });
    }
    // The page shows the very message the other doors give.
    expect(messages[2]).toContain(messages[0]);
    expect(new Set([messages[0], messages[1], messages[3]]).size).toBe(1);
  });
});

describe('a late COMPLETED and a second paid attempt, through each door', () => {
  it('a late COMPLETED completes a payment left PENDING now, and sends its COMPLETED', async () => {
    for (const [door, run] of Object.entries(doors)) {
      const { sandbox, paymentId } = await sandboxFor({ webhook: true, settled: false });
      const sent = sandbox.attempt((a) => a.paymentId === paymentId);
      expect(await run(sandbox, paymentId, late), door).toEqual({ done: true });
      const { paymentStatus, request } = await sent;
      expect(paymentStatus, door).toBe('COMPLETED');
      expect(JSON.parse(request.body), door).toMatchObject({
        paymentId,
        paymentStatus: 'COMPLETED',
        errorDescription: null,
      });
      expect(sandbox.payments.get(paymentId)?.status, door).toBe('COMPLETED');
    }
  });

  it('a second paid attempt is a new payment for the same order, COMPLETED, with its notification', async () => {
    for (const [door, run] of Object.entries(doors)) {
      const { sandbox, paymentId } = await sandboxFor({ webhook: true, settled: true });
      const first = sandbox.payments.get(paymentId)!;
      const sent = sandbox.attempt((a) => a.paymentId !== paymentId);
      expect(await run(sandbox, paymentId, again), door).toEqual({ done: true });
      const body = JSON.parse((await sent).request.body) as Record<string, unknown>;
      expect(body, door).toMatchObject({
        paymentStatus: 'COMPLETED',
        errorDescription: null,
        paymentRequest: { amount: first.amount, currency: 'GBP', reference: first.reference },
        paymentMetadata: first.metadata,
      });
      // Another attempt: its own ids, as the component gives each attempt.
      expect(body.paymentId, door).not.toBe(paymentId);
      expect(body.merchantPaymentId, door).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.merchantPaymentId, door).not.toBe(first.merchantPaymentId);
      expect(sandbox.payments.get(body.paymentId as string), door).toMatchObject({
        status: 'COMPLETED',
        institutionId: first.institutionId,
        applicationId: first.applicationId,
        agentType: first.agentType,
      });
      // The first payment is unchanged: the order is now paid twice.
      expect(sandbox.payments.get(paymentId)?.status, door).toBe('COMPLETED');
      expect(sandbox.payments.size, door).toBe(2);
    }
  });
});

describe('error codes and their HTTP statuses: one table', () => {
  /**
   * Each code, the status it is answered with, and how to meet it: a method that throws it
   * and the JSON request answered with it, on a sandbox set up as `setup` says (its payment's
   * id is `id`); or a start that rejects with it.
   */
  interface Row {
    setup?: { webhook: boolean; settled: boolean; stopped?: boolean };
    method?: (sandbox: TestSandbox, id: string) => unknown;
    json?: [path: string, body: (id: string) => unknown];
    start?: () => Promise<unknown>;
  }
  const none = { webhook: false, settled: false };
  const table: [SandboxErrorCode, number, Row][] = [
    [
      'unknown-payment',
      404,
      {
        setup: none,
        method: (sandbox) => sandbox.breakDeliveries({ delayMs: 5 }, { paymentId: 'nope' }),
        json: ['break', () => ({ faults: { delayMs: 5 }, paymentId: 'nope' })],
      },
    ],
    [
      'no-notification',
      404,
      {
        setup: { webhook: true, settled: false },
        method: (sandbox) => sandbox.resendNotification('nope'),
        json: ['resend', () => ({ paymentId: 'nope' })],
      },
    ],
    [
      'payment-pending',
      409,
      {
        setup: { webhook: true, settled: false },
        method: (sandbox, id) => sandbox.resendNotification(id),
        json: ['resend', (id) => ({ paymentId: id })],
      },
    ],
    [
      'payment-completed',
      409,
      {
        setup: { webhook: false, settled: true },
        method: (sandbox, id) => sandbox.completeLate(id),
        json: ['complete-late', (id) => ({ paymentId: id })],
      },
    ],
    [
      'no-webhook-url',
      409,
      { setup: none, method: (sandbox) => sandbox.checkReceiver(), json: ['check', () => ({})] },
    ],
    [
      'invalid-argument',
      400,
      {
        setup: none,
        method: (sandbox) => sandbox.breakDeliveries({ delayMs: -1 }),
        json: ['break', () => ({ faults: { delayMs: -1 } })],
      },
    ],
    [
      'body-too-large',
      413,
      { setup: none, json: ['resend', () => ({ paymentId: 'x'.repeat(5000) })] },
    ],
    [
      'stopped',
      409,
      {
        setup: { webhook: true, settled: true, stopped: true },
        method: (sandbox, id) => sandbox.resendNotification(id),
      },
    ],
    ['invalid-option', 400, { start: () => startSandbox({ port: -1 }) }],
    [
      'listen-failed',
      500,
      {
        start: async () => {
          const taken = createServer();
          try {
            return await startSandbox({ port: await listenOnFreePort(taken) });
          } finally {
            taken.close();
          }
        },
      },
    ],
  ];

  it('covers every code once', () => {
    expect(table.map(([code]) => code).sort()).toEqual(Object.keys(HTTP_STATUS).sort());
  });

  it.each(table)('%s is answered %i', async (code, status, row) => {
    expect(HTTP_STATUS[code]).toBe(status);
    if (row.start) {
      const error = await row.start().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code });
      return;
    }
    const { sandbox, paymentId } = await sandboxFor(row.setup!);
    if (row.setup?.stopped) await sandbox.stop();
    if (row.method) {
      const thrown = await (async () => row.method!(sandbox, paymentId))().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(SandboxError);
      expect(thrown).toMatchObject({ code });
    }
    if (row.json) {
      const [name, body] = row.json;
      const answer = await fetch(`${sandbox.url}/deliveries/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body(paymentId)),
      });
      expect(answer.status).toBe(status);
    }
  });
});
