// @vitest-environment node
// OpenTelemetry: with the SDK registered and the API passed as `telemetry`, a receiver over
// real node:http and a status endpoint export the span tree and the metric points of
// docs/telemetry.md, and never the body, the metadata or the signature; without the option,
// nothing at all.
import { randomUUID } from 'node:crypto';
import * as opentelemetry from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createPaymentStatusHandler,
  createWebhookHandler,
  MemoryIdempotencyStore,
  WebhookConfigError,
} from '../../src/webhook/index';
import type { WebhookHandlerOptions, WebhookNotification } from '../../src/webhook/index';
import { createPostgresStore } from '../../src/webhook/stores/postgres';
import { createRedisStore } from '../../src/webhook/stores/redis';
import * as web from '../../src/webhook/web';
import { readEventStream } from './support/event-stream';
import { listen, send } from './support/http';
import type { TestServer } from './support/http';
import { createKeyPair, serviceKeys } from './support/keys';
import { notification, signed } from './support/notifications';
import { eventually as polled } from './support/outcomes';
import { recorder } from './support/receivers';
import { redisAvailable, startPostgres, startRedis } from './support/servers.mjs';
import type { TestServer as DatabaseServer } from './support/servers.mjs';
import { everyAttribute, pointsOf, registerSdk } from './support/telemetry';
import type { Telemetry } from './support/telemetry';

const keys = serviceKeys();

/** What `read` gives once it gives something (spans end a moment after the answer). */
const eventually = <T>(read: () => T | undefined): Promise<T> =>
  polled(
    async () => read(),
    (value) => value !== undefined,
  ) as Promise<T>;
let sdk: Telemetry;
const servers: TestServer[] = [];
const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  sdk = registerSdk();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await sdk.stop();
});

/** A receiver over real node:http with telemetry, and a way to send it a notification. */
async function receiver(options: Partial<WebhookHandlerOptions> = {}) {
  const store = new MemoryIdempotencyStore();
  const server = await listen(
    createWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      store,
      telemetry: opentelemetry,
      ...recorder(),
      ...options,
    }),
  );
  servers.push(server);
  return {
    store,
    url: server.url,
    deliver: (n: WebhookNotification, privateKey = keys.privateKey) => {
      const d = signed(n, privateKey);
      return send(server.url, d.body, { authorization: d.authorization });
    },
  };
}

/** The one receive span of a payment, once its whole tree has ended. */
async function deliverySpans(paymentId: string, deliveries = 1) {
  const receives = await eventually(() => {
    const found = sdk
      .named('servicepay.webhook.receive')
      .filter((span) => span.attributes['servicepay.payment.id'] === paymentId);
    return found.length === deliveries ? found : undefined;
  });
  return receives.map((span) => ({
    span,
    children: Object.fromEntries(sdk.childrenOf(span).map((child) => [child.name, child])),
  }));
}

/** The spans of a payment's one delivery. */
async function oneDelivery(paymentId: string) {
  const [delivery] = await deliverySpans(paymentId);
  if (delivery === undefined) throw new Error('no delivery traced');
  return delivery;
}

describe('the receiver, with the SDK registered and telemetry: opentelemetry', () => {
  it('traces a delivered notification: receive, and under it verify, claim, handle (with the merchant’s own spans) and complete', async () => {
    const merchantTracer = trace.getTracer('merchant');
    const r = await receiver({
      onNotification: async () => {
        await merchantTracer.startActiveSpan('merchant.fulfil', async (span) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          span.end();
        });
      },
    });
    const n = notification();
    expect((await r.deliver(n)).status).toBe(200);

    const { span, children } = await oneDelivery(n.paymentId);
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'PUT',
      'http.response.status_code': 200,
      'servicepay.webhook.verdict': 'processed',
      'servicepay.payment.id': n.paymentId,
      'servicepay.payment.status': 'COMPLETED',
    });
    expect(Object.keys(children).sort()).toEqual([
      'servicepay.webhook.claim',
      'servicepay.webhook.complete',
      'servicepay.webhook.handle',
      'servicepay.webhook.verify',
    ]);
    expect(children['servicepay.webhook.claim']?.attributes['db.system']).toBe('memory');
    expect(children['servicepay.webhook.complete']?.attributes['db.system']).toBe('memory');
    const handle = children['servicepay.webhook.handle'];
    expect(handle?.status.code).toBe(SpanStatusCode.UNSET);
    expect(sdk.childrenOf(handle!).map((child) => child.name)).toEqual(['merchant.fulfil']);

    const points = await sdk.metrics();
    expect(pointsOf(points.get('servicepay.webhook.deliveries'))).toEqual([
      [{ 'servicepay.webhook.verdict': 'processed', 'http.response.status_code': 200 }, 1],
    ]);
    expect(pointsOf(points.get('servicepay.webhook.duration'))).toEqual([
      [{ 'servicepay.webhook.verdict': 'processed' }, 1],
    ]);
    expect(points.get('servicepay.webhook.duration')?.descriptor.unit).toBe('s');
    expect(pointsOf(points.get('servicepay.webhook.handler.duration'))).toEqual([[{}, 1]]);
    expect(pointsOf(points.get('servicepay.store.duration'))).toEqual(
      expect.arrayContaining([
        [{ 'db.operation': 'claim', 'db.system': 'memory' }, 1],
        [{ 'db.operation': 'recordOutcome', 'db.system': 'memory' }, 1],
        [{ 'db.operation': 'complete', 'db.system': 'memory' }, 1],
      ]),
    );
  });

  it('a duplicate: answered 200 with verdict duplicate, not an error, and no handler span', async () => {
    const r = await receiver();
    const n = notification();
    expect((await r.deliver(n)).status).toBe(200);
    expect((await r.deliver(n)).status).toBe(200);

    const [, second] = await deliverySpans(n.paymentId, 2);
    expect(second?.span.attributes['servicepay.webhook.verdict']).toBe('duplicate');
    expect(second?.span.status.code).toBe(SpanStatusCode.UNSET);
    expect(Object.keys(second?.children ?? {}).sort()).toEqual([
      'servicepay.webhook.claim',
      'servicepay.webhook.verify',
    ]);
    expect(pointsOf((await sdk.metrics()).get('servicepay.webhook.deliveries'))).toEqual(
      expect.arrayContaining([
        [{ 'servicepay.webhook.verdict': 'duplicate', 'http.response.status_code': 200 }, 1],
      ]),
    );
  });

  it('a forged delivery: 401, verdict invalid-signature, not an error, nothing claimed', async () => {
    const r = await receiver();
    expect((await r.deliver(notification(), createKeyPair().privateKey)).status).toBe(401);

    const [span] = await eventually(() => {
      const found = sdk.named('servicepay.webhook.receive');
      return found.length === 1 ? found : undefined;
    });
    expect(span?.attributes).toMatchObject({
      'http.response.status_code': 401,
      'servicepay.webhook.verdict': 'invalid-signature',
    });
    // Unverified: nothing it says is believed, not even its payment id.
    expect(span?.attributes['servicepay.payment.id']).toBeUndefined();
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(sdk.childrenOf(span!).map((child) => [child.name, child.status.code])).toEqual([
      ['servicepay.webhook.verify', SpanStatusCode.UNSET],
    ]);
    expect(pointsOf((await sdk.metrics()).get('servicepay.webhook.deliveries'))).toEqual([
      [{ 'servicepay.webhook.verdict': 'invalid-signature', 'http.response.status_code': 401 }, 1],
    ]);
  });

  it('a handler that throws: 500, the receive and handle spans ERROR, the exception on handle', async () => {
    const r = await receiver({
      onNotification: () => {
        throw new TypeError('order table unavailable');
      },
    });
    const n = notification();
    expect((await r.deliver(n)).status).toBe(500);

    const { span, children } = await oneDelivery(n.paymentId);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 500,
      'servicepay.webhook.verdict': 'handler-failed',
      'error.type': '500',
    });
    const handle = children['servicepay.webhook.handle'];
    expect(handle?.status.code).toBe(SpanStatusCode.ERROR);
    expect(handle?.events.map((event) => event.attributes?.['exception.message'])).toEqual([
      'order table unavailable',
    ]);
    expect(children['servicepay.webhook.complete']).toBeUndefined();
    const points = await sdk.metrics();
    expect(pointsOf(points.get('servicepay.webhook.deliveries'))).toEqual([
      [{ 'servicepay.webhook.verdict': 'handler-failed', 'http.response.status_code': 500 }, 1],
    ]);
    expect(pointsOf(points.get('servicepay.webhook.handler.duration'))).toEqual([
      [{ 'error.type': 'TypeError' }, 1],
    ]);
  });

  it('refusals before the body (method, size) are counted and traced too', async () => {
    const r = await receiver({ maxBodyBytes: 100 });
    expect((await send(r.url, undefined, {}, 'GET')).status).toBe(405);
    expect((await send(r.url, 'x'.repeat(200))).status).toBe(413);
    expect(pointsOf((await sdk.metrics()).get('servicepay.webhook.deliveries'))).toEqual(
      expect.arrayContaining([
        [
          { 'servicepay.webhook.verdict': 'method-not-allowed', 'http.response.status_code': 405 },
          1,
        ],
        [{ 'servicepay.webhook.verdict': 'body-too-large', 'http.response.status_code': 413 }, 1],
      ]),
    );
    expect(
      sdk.named('servicepay.webhook.receive').map((s) => s.attributes['http.request.method']),
    ).toEqual(['GET', 'PUT']);
  });

  it('under a server span already there (an HTTP instrumentation’s), the receive span is INTERNAL inside it', async () => {
    const store = new MemoryIdempotencyStore();
    const handle = web.createFetchWebhookHandler({
      publicKey: keys.publicText,
      expectedPayment: 'unreconciled',
      store,
      telemetry: opentelemetry,
      ...recorder(),
    });
    const n = notification();
    const d = signed(n, keys.privateKey);
    const outer = trace.getTracer('http').startSpan('PUT /webhooks', { kind: SpanKind.SERVER });
    const ctx = trace.setSpan(opentelemetry.context.active(), outer);
    const response = await opentelemetry.context.with(ctx, () =>
      handle(
        new Request('http://localhost/', {
          method: 'PUT',
          body: d.body,
          headers: { authorization: d.authorization },
        }),
      ),
    );
    outer.end();
    expect(response.status).toBe(200);
    const { span, children } = await oneDelivery(n.paymentId);
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(Object.keys(children)).toHaveLength(4);
  });

  it('refuses a telemetry option that is not the OpenTelemetry API, naming it', () => {
    const create = () =>
      createWebhookHandler({
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        onNotification: () => {},
        telemetry: trace as never,
      });
    expect(create).toThrow(WebhookConfigError);
    expect(create).toThrow(/^servicepay: telemetry must be the @opentelemetry\/api module \(/);
  });
});

describe('the shared stores name their database', () => {
  const databases: DatabaseServer[] = [];
  let pool: pg.Pool;
  let redis: ReturnType<typeof createClient> | undefined;
  beforeAll(async () => {
    const postgres = await startPostgres();
    databases.push(postgres);
    pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    pool.on('error', () => {});
    if (redisAvailable) {
      const server = (await startRedis()) as DatabaseServer;
      databases.push(server);
      redis = createClient({ url: server.url });
      await redis.connect();
    }
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await redis?.quit();
    await Promise.all(databases.map((server) => server.stop()));
  }, 60_000);

  it.each(['postgresql', 'redis'])(
    '%s: the claim and complete spans carry db.system, and so do the store call points',
    async (system) => {
      if (system === 'redis' && redis === undefined) return; // redis-check.ts says why, once
      const store =
        system === 'postgresql'
          ? createPostgresStore({ pool, table: `telemetry_${process.pid}` })
          : createRedisStore({ client: redis!, prefix: `telemetry:${randomUUID()}:` });
      const r = await receiver({ store });
      const n = notification();
      expect((await r.deliver(n)).status).toBe(200);
      await store.close?.();

      const { children } = await oneDelivery(n.paymentId);
      expect(children['servicepay.webhook.claim']?.attributes['db.system']).toBe(system);
      expect(children['servicepay.webhook.complete']?.attributes['db.system']).toBe(system);
      const operations = pointsOf((await sdk.metrics()).get('servicepay.store.duration'))
        .filter(([attributes]) => attributes['db.system'] === system)
        .map(([attributes]) => attributes['db.operation']);
      expect(operations).toContain('claim');
    },
    60_000,
  );
});

describe('the status endpoint, with telemetry', () => {
  it('a stream that ends with the outcome: one span with the final status, streams back to 0, the outcome’s latency', async () => {
    const store = new MemoryIdempotencyStore();
    const r = await receiver({ store });
    const status = createPaymentStatusHandler({ store, telemetry: opentelemetry });
    closers.push(() => status.close());
    const server = await listen(status);
    servers.push(server);
    const n = notification();
    const url = `${server.url}/?paymentId=${n.paymentId}&merchantPaymentId=${n.merchantPaymentId}`;

    const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
    const events = readEventStream(response.body!);
    expect(await events.next()).toBe('{"status":"PENDING"}');
    expect(pointsOf((await sdk.metrics()).get('servicepay.status.streams'))).toEqual([[{}, 1]]);
    expect((await r.deliver(n)).status).toBe(200);
    expect(await events.next()).toBe('{"status":"COMPLETED"}');
    await events.ended;

    const [span] = await eventually(() => {
      const found = sdk.named('servicepay.status.request');
      return found.length === 1 ? found : undefined;
    });
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'servicepay.status.stream': true,
      'servicepay.payment.id': n.paymentId,
      'servicepay.payment.status': 'COMPLETED',
    });
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    const points = await sdk.metrics();
    expect(pointsOf(points.get('servicepay.status.streams'))).toEqual([[{}, 0]]);
    expect(pointsOf(points.get('servicepay.outcome.latency'))).toEqual([[{}, 1]]);
    expect(pointsOf(points.get('servicepay.store.duration'))).toEqual(
      expect.arrayContaining([
        [{ 'db.operation': 'subscribeOutcome', 'db.system': 'memory' }, 1],
        [{ 'db.operation': 'readOutcome', 'db.system': 'memory' }, 1],
      ]),
    );

    const json = await fetch(url);
    expect(await json.text()).toBe('{"status":"COMPLETED"}');
    const answered = await eventually(() => {
      const found = sdk.named('servicepay.status.request');
      return found.length === 2 ? found[1] : undefined;
    });
    expect(answered.attributes).toMatchObject({
      'servicepay.status.stream': false,
      'http.response.status_code': 200,
      'servicepay.payment.status': 'COMPLETED',
    });
  });
});

describe('what the signals never carry', () => {
  it('no body, metadata or signature in any attribute, event or metric point', async () => {
    const r = await receiver({
      onNotification: (n) => {
        if (n.paymentStatus === 'FAILED') throw new Error('declined order');
      },
    });
    const sent = [
      notification({ paymentMetadata: { secret: 'metadata-marker-7f3a' } }),
      notification({ paymentStatus: 'FAILED', errorDescription: 'description-marker-91c2' }),
    ];
    const signatures: string[] = [];
    for (const n of sent) {
      const d = signed(n, keys.privateKey);
      signatures.push(d.authorization.split(' ')[1]!);
      await send(r.url, d.body, { authorization: d.authorization });
    }
    const forged = signed(notification(), createKeyPair().privateKey);
    signatures.push(forged.authorization.split(' ')[1]!);
    await send(r.url, forged.body, { authorization: forged.authorization });
    await eventually(() =>
      sdk.named('servicepay.webhook.receive').length === 3 ? true : undefined,
    );

    const text = await everyAttribute(sdk);
    expect(text).toContain(sent[0]!.paymentId);
    for (const secret of [
      'metadata-marker-7f3a',
      'description-marker-91c2',
      'ORDER-1',
      '12.5',
      ...signatures,
      ...signatures.map((s) => s.slice(0, 24)),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('the API passed while no SDK is registered', () => {
  it('records nothing until an SDK is registered, and every delivery after it', async () => {
    await sdk.stop();
    const r = await receiver();
    const before = notification();
    expect((await r.deliver(before)).status).toBe(200);
    sdk = registerSdk();
    const after = notification();
    expect((await r.deliver(after)).status).toBe(200);

    const { children } = await oneDelivery(after.paymentId);
    expect(Object.keys(children)).toHaveLength(4);
    expect(sdk.named('servicepay.webhook.receive')).toHaveLength(1);
    expect(pointsOf((await sdk.metrics()).get('servicepay.webhook.deliveries'))).toEqual([
      [{ 'servicepay.webhook.verdict': 'processed', 'http.response.status_code': 200 }, 1],
    ]);
  });

  it('with only a tracer provider registered, traces without metrics', async () => {
    opentelemetry.metrics.disable();
    const r = await receiver();
    const n = notification();
    expect((await r.deliver(n)).status).toBe(200);
    const { span, children } = await oneDelivery(n.paymentId);
    expect(span.attributes['servicepay.webhook.verdict']).toBe('processed');
    expect(Object.keys(children)).toHaveLength(4);
  });
});

describe('without the option', () => {
  it('creates no span and no metric, even with an SDK registered', async () => {
    const store = new MemoryIdempotencyStore();
    const server = await listen(
      createWebhookHandler({
        publicKey: keys.publicText,
        expectedPayment: 'unreconciled',
        store,
        ...recorder(),
      }),
    );
    servers.push(server);
    const status = createPaymentStatusHandler({ store });
    closers.push(() => status.close());
    const d = signed(notification(), keys.privateKey);
    expect((await send(server.url, d.body, { authorization: d.authorization })).status).toBe(200);
    expect(sdk.spans()).toEqual([]);
    expect([...(await sdk.metrics()).keys()]).toEqual([]);
  });
});
