// @vitest-environment node
// Rehearsing a key rotation offline: prepare the next key, give the receiver both, rotate (CLI,
// the /keys page's button, or Sandbox.rotateKey), and the notifications signed after it verify
// with the new key only; a receiver still holding just the old key refuses them with 401.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/sandbox/index';
import type { CliIo } from '../../../src/sandbox/index';
import { createFetchWebhookHandler } from '../../../src/webhook/index';
import { startReceiver } from '../support/receiver';
import type { ReceivedRequest, Receiver } from '../support/receiver';
import { createPayment, testSandbox } from '../support/sandbox';
import type { TestSandbox } from '../support/sandbox';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

const endpointKey = async (sandbox: TestSandbox) =>
  (await fetch(`${sandbox.url}/.well-known/signature/pem`)).text();

/** What a servicepay receiver holding `publicKey` answers the delivery `request`. */
async function answer(publicKey: string[], request: ReceivedRequest): Promise<number> {
  const handle = createFetchWebhookHandler({
    publicKey,
    expectedPayment: 'unreconciled',
    onNotification: () => {},
    onError() {},
  });
  const response = await handle(
    new Request('http://localhost/', {
      method: 'PUT',
      body: new Uint8Array(request.body),
      headers: { authorization: String(request.headers.authorization) },
    }),
  );
  return response.status;
}

/** A sandbox sending to a recording receiver, and a way to settle a payment and get its PUT. */
async function drill() {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const sandbox = await testSandbox({ webhookUrl: receiver.url });
  let delivered = 0;
  return {
    sandbox,
    async notification(): Promise<ReceivedRequest> {
      const { paymentId } = await createPayment(sandbox);
      sandbox.settlePayment(paymentId, { status: 'COMPLETED' });
      return receiver.request(++delivered);
    },
  };
}

function cli() {
  const out: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
    untilStopRequested: () => new Promise(() => {}),
  };
  return { io, out };
}

describe('the sandbox rotates its signing key', () => {
  it('servicepay-sandbox rotate-key --prepare, then rotate-key: the drill end to end', async () => {
    const { sandbox, notification } = await drill();
    const old = await endpointKey(sandbox);
    const before = await notification();

    const prepared = cli();
    expect(await runCli(['rotate-key', '--prepare', '--sandbox', sandbox.url], prepared.io)).toBe(
      0,
    );
    const next = prepared.out[1] as string;
    expect(next).toMatch(/^MII/);
    expect(next).not.toBe(old);
    // Until the rotation, the sandbox still signs with (and serves) the old key.
    expect(await endpointKey(sandbox)).toBe(old);
    // Step 1: the receiver gets both keys; the old key's notifications still verify.
    expect(await answer([old, next], before)).toBe(200);

    const rotated = cli();
    expect(await runCli(['rotate-key', '--sandbox', sandbox.url], rotated.io)).toBe(0);
    expect(rotated.out.slice(0, 2)).toEqual(['Rotated. The sandbox now signs with:', next]);
    expect(await endpointKey(sandbox)).toBe(next);
    expect(sandbox.publicKey).toContain(next.split('\n')[0]);

    // Step 2: signed with the new key: the receiver with both accepts, one with the old refuses.
    const after = await notification();
    expect(await answer([old, next], after)).toBe(200);
    expect(await answer([old], after)).toBe(401);
    // Step 3: the old key removed.
    expect(await answer([next], after)).toBe(200);
  });

  it('the /keys page: prepare and rotate with its buttons; a form without its token is refused', async () => {
    const { sandbox, notification } = await drill();
    const old = await endpointKey(sandbox);
    const page = await (await fetch(`${sandbox.url}/keys`)).text();
    expect(page).toContain('<h1>Signing key</h1>');
    expect(page).toContain('None prepared yet.');
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const post = (action: string, body: string) =>
      fetch(`${sandbox.url}/keys/${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: sandbox.url },
        body,
      });

    expect((await post('rotate', 'token=forged')).status).toBe(403);
    expect(await endpointKey(sandbox)).toBe(old);

    expect((await post('next', `token=${token}`)).status).toBe(303);
    const shown = await (await fetch(`${sandbox.url}/keys`)).text();
    expect(shown).not.toContain('None prepared yet.');

    const rotated = await post('rotate', `token=${token}`);
    expect([rotated.status, rotated.headers.get('location')]).toEqual([303, '/keys']);
    const next = await endpointKey(sandbox);
    expect(next).not.toBe(old);
    expect(shown).toContain(next.split('\n')[1]);
    expect(await answer([old], await notification())).toBe(401);
  });

  it('Sandbox.rotateKey() for tests: a new key at once, the previous one given back', async () => {
    const { sandbox, notification } = await drill();
    const old = await endpointKey(sandbox);
    const { publicKey, previousPublicKey } = await sandbox.rotateKey();
    expect(previousPublicKey).toBe(old);
    expect(await endpointKey(sandbox)).toBe(publicKey);
    expect(await answer([publicKey], await notification())).toBe(200);
  });
});
