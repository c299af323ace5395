// @vitest-environment node
// Claims with owners, seen from the receiver: it renews its claim while onNotification runs,
// so a slow handler keeps the notification to itself; when its claim is lost anyway, the
// late completion changes nothing and the merchant is told. Two receivers sharing one store
// stand for two instances (across real processes: receiver.across-processes.test.ts).
import { describe, expect, it } from 'vitest';
import {
  createFetchWebhookHandler,
  createWebhookHandler,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../../src/webhook/index';
import type {
  FetchWebhookHandlerOptions,
  IdempotencyStore,
  WebhookHandlerOptions,
} from '../../../src/webhook/index';
import { delay } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder, RecordingStore } from '../support/receivers';

const keys = serviceKeys();

function receiver(
  options: Partial<FetchWebhookHandlerOptions> & Pick<FetchWebhookHandlerOptions, 'onNotification'>,
) {
  const handle = createFetchWebhookHandler({
    publicKey: keys.publicText,
    expectedPayment: 'unreconciled',
    ...options,
  });
  return (body: string, authorization: string) =>
    handle(new Request('http://localhost/', { method: 'PUT', body, headers: { authorization } }));
}

describe('claims held by their owner', () => {
  it('a handler slower than claimTtlMs keeps its claim: the other instance answers 409, it runs once', async () => {
    const shared = new RecordingStore(new MemoryIdempotencyStore());
    const record = recorder(() => delay(2500));
    const a = receiver({ store: shared, claimTtlMs: 1000, ...record });
    const b = receiver({ store: shared, claimTtlMs: 1000, ...record });
    const d = signed(notification(), keys.privateKey);
    const first = a(d.body, d.authorization);
    await delay(1700); // past the claim's first lifetime
    expect((await b(d.body, d.authorization)).status).toBe(409);
    expect((await first).status).toBe(200);
    expect(record.notifications).toHaveLength(1);
    expect(shared.calls.filter((call) => call.startsWith('renew')).length).toBeGreaterThanOrEqual(
      4,
    );
    expect((await b(d.body, d.authorization)).status).toBe(200); // completed: a duplicate
    expect(record.notifications).toHaveLength(1);
  });

  it('slow handlers started at different times all keep their claims: 409 elsewhere for each, each runs once', async () => {
    const shared = new RecordingStore(new MemoryIdempotencyStore());
    const record = recorder(() => delay(2500));
    const a = receiver({ store: shared, claimTtlMs: 1000, ...record });
    const b = receiver({ store: shared, claimTtlMs: 1000, ...record });
    const early = signed(notification(), keys.privateKey);
    const late = signed(notification(), keys.privateKey);
    const firsts = [a(early.body, early.authorization)];
    await delay(500); // half a lifetime apart: one renewal timer serves claims of two ages
    firsts.push(a(late.body, late.authorization));
    await delay(1300); // past the first lifetime of both claims
    const elsewhere = await Promise.all([
      b(early.body, early.authorization),
      b(late.body, late.authorization),
    ]);
    expect(elsewhere.map((response) => response.status)).toEqual([409, 409]);
    expect((await Promise.all(firsts)).map((response) => response.status)).toEqual([200, 200]);
    expect(record.notifications).toHaveLength(2);
  });

  it('a claim lost while the handler ran: answered 200, the completion refused, the merchant told', async () => {
    const memory = new MemoryIdempotencyStore();
    // The store no longer has the claim under this token (it lapsed and was taken again).
    const lost: IdempotencyStore = {
      claim: (key, ttl) => memory.claim(key, ttl),
      renew: () => false,
      complete: () => false,
      release: () => false,
    };
    const record = recorder(() => delay(500));
    const handle = receiver({ store: lost, claimTtlMs: 1000, ...record });
    const d = signed(notification(), keys.privateKey);
    expect((await handle(d.body, d.authorization)).status).toBe(200);
    expect(record.notifications).toHaveLength(1);
    const messages = record.errors.map(({ error, context }) => [
      context.outcome,
      context.status,
      (error as Error).message,
    ]);
    expect(messages).toEqual([
      [
        'processed',
        200,
        expect.stringMatching(/^servicepay: the claim on .* lapsed while onNotification ran/),
      ],
      [
        'processed',
        200,
        expect.stringMatching(/^servicepay: the claim on .* lapsed while onNotification ran/),
      ],
    ]);
  });

  it('a store with renewMany gets one call per period for all its claims, and no renew', async () => {
    const memory = new MemoryIdempotencyStore();
    const batches: string[][] = [];
    let renews = 0;
    const store: IdempotencyStore = {
      claim: (key, ttl) => memory.claim(key, ttl),
      renew: (key, token, ttl) => (renews++, memory.renew(key, token, ttl)),
      complete: (key, token, ttl) => memory.complete(key, token, ttl),
      release: (key, token) => memory.release(key, token),
      renewMany: (claims, ttl) => (
        batches.push(claims.map(({ key }) => key)),
        claims.map(({ key, token }) => memory.renew(key, token, ttl))
      ),
    };
    const record = recorder(() => delay(1500));
    const handle = receiver({ store, claimTtlMs: 1000, ...record });
    const deliveries = [1, 2].map(() => signed(notification(), keys.privateKey));
    const answers = await Promise.all(deliveries.map((d) => handle(d.body, d.authorization)));
    expect(answers.map((response) => response.status)).toEqual([200, 200]);
    expect(batches.length).toBeGreaterThanOrEqual(2);
    expect(batches.some((keysRenewed) => keysRenewed.length === 2)).toBe(true);
    expect(renews).toBe(0);
    expect(record.errors).toEqual([]);
  });

  it('a renewMany that answers no array of booleans: the delivery goes on, onError hears what it must answer', async () => {
    const memory = new MemoryIdempotencyStore();
    const store: IdempotencyStore = {
      claim: (key, ttl) => memory.claim(key, ttl),
      renew: (key, token, ttl) => memory.renew(key, token, ttl),
      complete: (key, token, ttl) => memory.complete(key, token, ttl),
      release: (key, token) => memory.release(key, token),
      renewMany: (claims) => claims.map(() => 'yes') as never,
    };
    const record = recorder(() => delay(700)); // past one period (333 ms), within the claim's life
    const handle = receiver({ store, claimTtlMs: 1000, ...record });
    const d = signed(notification(), keys.privateKey);
    expect((await handle(d.body, d.authorization)).status).toBe(200);
    expect(record.notifications).toHaveLength(1);
    expect(
      record.errors.map(({ error, context }) => [context.status, (error as Error).message]),
    ).toEqual([
      [
        200,
        'servicepay: the store\'s renewMany answered an array of 1 values for 1 claims; it must answer an array of 1 booleans, one per claim in their order (docs/stores.md, "A store of your own"). The claims are renewed again at the next period.',
      ],
    ]);
  });

  it.each([
    ['a bare string (the 0.9 answer)', 'claimed'],
    ['null', null],
    ['a claim without a token', { state: 'claimed' }],
  ])(
    'a claim answered with %s is a store failure: 503, onNotification not called',
    async (_, answer) => {
      const record = recorder();
      const broken = {
        claim: () => answer,
        renew: () => true,
        complete: () => true,
        release: () => true,
      } as unknown as IdempotencyStore;
      const handle = receiver({ store: broken, ...record });
      const d = signed(notification(), keys.privateKey);
      expect((await handle(d.body, d.authorization)).status).toBe(503);
      expect(record.notifications).toHaveLength(0);
      expect((record.errors[0]?.error as Error).message).toMatch(
        /^servicepay: IdempotencyStore\.claim must return \{ state: 'claimed', token \}/,
      );
    },
  );

  it('a failed handler releases only its own claim', async () => {
    const shared = new RecordingStore(new MemoryIdempotencyStore());
    const record = recorder((_n, attempt) => {
      if (attempt === 1) throw new Error('boom');
    });
    const handle = receiver({ store: shared, ...record });
    const d = signed(notification(), keys.privateKey);
    expect((await handle(d.body, d.authorization)).status).toBe(500);
    expect((await handle(d.body, d.authorization)).status).toBe(200);
    expect(shared.calls.map((call) => call.split(' ')[0])).toEqual([
      'claim',
      'release',
      'claim',
      'complete',
    ]);
  });
});

describe('claim options', () => {
  const onNotification = (): void => {};
  function refused(options: Partial<WebhookHandlerOptions>, option: string, message: RegExp) {
    let error: unknown;
    try {
      createWebhookHandler({
        onNotification,
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        ...options,
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebhookConfigError);
    expect((error as WebhookConfigError).option).toBe(option);
    expect((error as Error).message).toMatch(message);
  }

  it('claimTtlMs is at least 1000; maxHandlingMs a positive number', () => {
    refused(
      { claimTtlMs: 999 },
      'claimTtlMs',
      /^servicepay: claimTtlMs must be at least 1000 milliseconds, got 999\.$/,
    );
    refused(
      { maxHandlingMs: 0 },
      'maxHandlingMs',
      /^servicepay: maxHandlingMs must be a positive number/,
    );
    expect(() =>
      createWebhookHandler({
        onNotification,
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        claimTtlMs: 1000,
      }),
    ).not.toThrow();
  });

  it('a store written for 0.9 (no renew, no tokens) is refused at start-up, naming the new contract', () => {
    const old = { claim: () => 'claimed', complete: () => {}, release: () => {} };
    refused({ store: old as never }, 'store', /renew\(key, token, ttlMs\).*servicepay 0\.10/);
  });
});
