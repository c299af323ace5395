// @vitest-environment node
// What the merchant's server log shows with no onError: a delivery signed with another key
// (the sandbox restarted without --key-file, another environment's key) is one clear line,
// not silence, and not a line per resend. So is a 401 when no key is configured at all (issue
// 47: it says so, rather than ask whether the key is this environment's), and a body that
// express.json() read before the receiver (one line, not a stack trace per resend).
import type { IncomingMessage, RequestListener } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';
import { createWebhookHandler } from '../../../src/webhook/index';
import type { WebhookHandlerOptions } from '../../../src/webhook/index';
import { createKeyPair, serviceKeys } from '../support/keys';
import { listen, send } from '../support/http';
import type { TestServer } from '../support/http';
import { notification, signed } from '../support/notifications';

const keys = serviceKeys();
const otherKeys = createKeyPair();
const servers: TestServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function receiver(
  options: Partial<WebhookHandlerOptions> = {},
  wrap: (handler: RequestListener) => RequestListener = (handler) => handler,
): Promise<string> {
  const server = await listen(
    wrap(
      createWebhookHandler({
        publicKey: keys.publicText,
        onNotification: () => {},
        expectedPayment: 'unreconciled',
        ...options,
      }),
    ),
  );
  servers.push(server);
  return `${server.url}/webhooks/servicepay`;
}

const lines = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((call) => call.map(String).join(' '));

/** Date.now from a fixed instant, moved on by `advance`. */
function fixedClock() {
  let now = Date.parse('2026-11-26T10:00:00Z');
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  return { advance: (ms: number) => void (now += ms) };
}

/**
 * The log's once a minute: `resend` 59 s after the first line logs nothing more, a minute after
 * it logs a second line.
 */
async function expectOnceAMinute(
  log: MockInstance,
  clock: ReturnType<typeof fixedClock>,
  resend: () => Promise<unknown>,
) {
  clock.advance(59_000);
  await resend();
  expect(log).toHaveBeenCalledTimes(1);
  clock.advance(1_000);
  await resend();
  expect(log).toHaveBeenCalledTimes(2);
}

describe('the default onError', () => {
  it('a delivery signed with another key: 401 and one line that asks whether the key is this environment’s, once a minute', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const clock = fixedClock();
    const url = await receiver();
    const delivery = signed(notification(), otherKeys.privateKey);

    // The service resends; so does a forger.
    for (let i = 0; i < 3; i++)
      expect(
        (await send(url, delivery.body, { authorization: delivery.authorization })).status,
      ).toBe(401);
    expect(lines(log)).toEqual([
      "servicepay webhook: a delivery's signature did not verify with publicKey, so it was answered 401 and the service will send it again. Is the key this environment's (the sandbox's /.well-known/signature/pem for the sandbox, the live service's for LIVE)? If it is, something changed the body before verification (a JSON body parser in front of the route). Further signature failures are not logged for a minute.",
    ]);

    await expectOnceAMinute(log, clock, () =>
      send(url, delivery.body, { authorization: delivery.authorization }),
    );
  });

  it('names the key list during a rotation, and says when the header is missing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const listed = await receiver({ publicKey: [keys.publicText, createKeyPair().publicText] });
    const delivery = signed(notification(), otherKeys.privateKey);
    expect(
      (await send(listed, delivery.body, { authorization: delivery.authorization })).status,
    ).toBe(401);
    const bare = await receiver();
    expect((await send(bare, delivery.body, {})).status).toBe(401);
    expect(lines(log)).toEqual([
      expect.stringMatching(
        /^servicepay webhook: a delivery's signature did not verify with each of the 2 keys of publicKey, so it was answered 401 /,
      ),
      expect.stringMatching(
        /^servicepay webhook: a delivery's signature had no Authorization header, so it was answered 401 /,
      ),
    ]);
  });

  it('a 401 with no key configured says that no key is configured, naming the variable, once a minute', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const clock = fixedClock();
    // The documented form, with SERVICEPAY_PUBLIC_KEY unset (a deploy that forgot it).
    const url = await receiver({ publicKey: undefined });
    const delivery = signed(notification(), keys.privateKey);
    // A request with no signature, twice (a probe, a misconfigured sender).
    for (let i = 0; i < 2; i++) expect((await send(url, delivery.body, {})).status).toBe(401);
    expect(await send(url, delivery.body, { authorization: 'Bearer x' })).toMatchObject({
      status: 401,
    });
    expect(lines(log)).toEqual([
      'servicepay webhook: a delivery had no Authorization header, so it was answered 401; and this receiver has no public key configured to verify signatures with: set SERVICEPAY_PUBLIC_KEY to the text served at <base>/.well-known/signature/pem and pass it as publicKey (or pass publicKeyUrl or environment). Until then signed deliveries are answered 500. Further signature failures are not logged for a minute.',
    ]);
    clock.advance(60_000);
    await send(url, delivery.body, { authorization: 'Bearer x' });
    expect(lines(log)[1]).toMatch(
      /^servicepay webhook: a delivery had no signature in its Authorization header, so it was answered 401; and this receiver has no public key configured /,
    );
    expect(lines(log).join('\n')).not.toMatch(/this environment's/);
  });

  it('a body express.json() read first: 500 on every resend, one line without a stack trace, once a minute', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const clock = fixedClock();
    // What express.json() does: read the stream, then leave the parsed object in req.body.
    const jsonParser =
      (handler: RequestListener): RequestListener =>
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          (req as IncomingMessage & { body?: unknown }).body = JSON.parse(
            Buffer.concat(chunks).toString(),
          );
          handler(req, res);
        });
      };
    const url = await receiver({}, jsonParser);
    const delivery = signed(notification(), keys.privateKey);
    for (let i = 0; i < 3; i++) {
      const answer = await send(url, delivery.body, { authorization: delivery.authorization });
      expect(answer.status).toBe(500);
    }
    // One argument, a string: no Error object, so no stack trace in the log.
    expect(log.mock.calls).toEqual([
      [
        'servicepay webhook: a delivery was answered 500 (body-already-parsed), and the service will send it again: the request body was consumed before the webhook handler (by express.json() or another body parser, or by request.json()/request.text()), so the exact bytes the signature covers are lost. Mount the webhook route before express.json() (app.put(path, handler) above app.use(express.json())); in a route handler, pass the untouched Request. Further deliveries refused for this reason are not logged for a minute.',
      ],
    ]);
    await expectOnceAMinute(log, clock, () =>
      send(url, delivery.body, { authorization: delivery.authorization }),
    );
  });

  it('a merchant’s own onError replaces it: nothing is written', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const heard: number[] = [];
    const url = await receiver({ onError: (_error, context) => heard.push(context.status) });
    const delivery = signed(notification(), otherKeys.privateKey);
    await send(url, delivery.body, { authorization: delivery.authorization });
    expect(heard).toEqual([401]);
    expect(log).not.toHaveBeenCalled();
  });
});
