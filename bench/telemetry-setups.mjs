// `node bench/telemetry-setups.mjs [als|async-hooks|none]`: what each OpenTelemetry SDK setting
// costs a webhook delivery inside a loaded server (not part of `npm run bench`; the figures
// are in docs/benchmarks.md, "Notes"). One node:http server verifies and parses the signed
// resend as the bench's bare server does, and makes the OpenTelemetry calls of a resend (a
// receive span with verify and claim children and their attributes, a counter point and two
// histogram points) through one of several SDK setups, taken in turn request by request, so
// that every setup runs under the same load with the same caches. Each request's calls are
// timed with performance.now(); the medians are printed per setup. The context manager is
// global, so it is the argument: one run per manager. Autocannon runs in a worker thread.
import { createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Worker } from 'node:worker_threads';
import * as api from '@opentelemetry/api';
import {
  AsyncHooksContextManager,
  AsyncLocalStorageContextManager,
} from '@opentelemetry/context-async-hooks';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { median } from './rounds.mjs';

const SECONDS = 8;
const manager = process.argv[2] ?? 'als';
const managers = {
  als: () => new AsyncLocalStorageContextManager(),
  'async-hooks': () => new AsyncHooksContextManager(),
};
if (manager !== 'none') {
  api.context.setGlobalContextManager(managers[manager]().enable());
  api.context.with(api.context.active(), () => {}); // hooks on, as after a first request
}

const nowhere = {
  export: (_, done) => done({ code: 0 }),
  shutdown: async () => {},
  forceFlush: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** A resend's OpenTelemetry calls through one setup (its own providers, never registered). */
function setup({ processor = 'batch', ratio, spans = true, points = true, counter = true }) {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [
      processor === 'simple' ? new SimpleSpanProcessor(nowhere) : new BatchSpanProcessor(nowhere),
    ],
    ...(ratio
      ? { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }) }
      : {}),
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({ exporter: nowhere, exportIntervalMillis: 60_000 }),
    ],
  });
  const tracer = (spans ? tracerProvider : new api.ProxyTracerProvider()).getTracer('servicepay');
  const meter = points ? meterProvider.getMeter('servicepay') : api.createNoopMeter();
  const seconds = { unit: 's', advice: { explicitBucketBoundaries: BUCKETS } };
  const deliveries = meter.createCounter('servicepay.webhook.deliveries');
  const duration = meter.createHistogram('servicepay.webhook.duration', seconds);
  const store = meter.createHistogram('servicepay.store.duration', seconds);
  const db = { attributes: { 'db.system': 'memory' } };
  const claimed = { 'db.operation': 'claim', 'db.system': 'memory' };
  const counted = { 'servicepay.webhook.verdict': 'duplicate', 'http.response.status_code': 200 };
  const timed = { 'servicepay.webhook.verdict': 'duplicate' };
  return {
    start(address) {
      const started = performance.now();
      const context = api.context.active();
      const attributes = { 'http.request.method': 'PUT', 'client.address': address };
      const span = tracer.startSpan('servicepay.webhook.receive', { kind: 1, attributes }, context);
      const parent = span.isRecording() ? api.trace.setSpan(context, span) : null;
      const verifying = parent && tracer.startSpan('servicepay.webhook.verify', {}, parent);
      return { started, span, parent, verifying };
    },
    verified: (delivery) => delivery.verifying?.end(),
    end({ started, span, parent }, notification) {
      const claiming = performance.now();
      if (parent) tracer.startSpan('servicepay.webhook.claim', db, parent).end();
      store.record((performance.now() - claiming) / 1000, claimed);
      if (span.isRecording()) {
        span.setAttribute('servicepay.payment.id', notification.paymentId);
        span.setAttribute('servicepay.payment.status', notification.paymentStatus);
        span.setAttribute('http.response.status_code', 200);
        span.setAttribute('servicepay.webhook.verdict', 'duplicate');
      }
      span.end();
      if (counter) deliveries.add(1, counted);
      duration.record((performance.now() - started) / 1000, timed);
    },
  };
}

const setups = {
  'no SDK': setup({ spans: false, points: false }),
  'batching processor (the Node SDK)': setup({}),
  'simple processor': setup({ processor: 'simple' }),
  'sampled at 10%': setup({ ratio: 0.1 }),
  'no delivery counter point': setup({ counter: false }),
  'spans only': setup({ points: false }),
  'metric points only': setup({ spans: false }),
};
const names = Object.keys(setups);
const spent = Object.fromEntries(names.map((name) => [name, []]));

const vectors = JSON.parse(
  readFileSync(new URL('../test/fixtures/webhook-signatures.json', import.meta.url), 'utf8'),
);
const sample = vectors.cases.find((c) => c.name === 'completed');
const key = createPublicKey(vectors.publicKeyPem);
let served = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const name = names[served++ % names.length];
    const calls = setups[name];
    let began = performance.now();
    const delivery = calls.start(req.socket.remoteAddress);
    let took = performance.now() - began;
    const header = req.headers.authorization ?? '';
    const signature = Buffer.from(header.slice('SHA256withRSA '.length), 'base64');
    const body = Buffer.concat(chunks);
    const valid = verify('sha256', body, key, signature);
    began = performance.now();
    calls.verified(delivery);
    took += performance.now() - began;
    const notification = JSON.parse(body.toString('utf8'));
    began = performance.now();
    calls.end(delivery, notification);
    spent[name].push(took + performance.now() - began);
    res.writeHead(valid ? 200 : 401).end();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const load = new Worker(
  `const autocannon = require('autocannon');
   const { workerData: w, parentPort } = require('node:worker_threads');
   autocannon({ url: 'http://127.0.0.1:' + w.port + '/webhook', method: 'PUT',
     headers: { authorization: w.authorization }, body: w.body, connections: 10,
     duration: w.seconds }).then((r) => parentPort.postMessage(r.requests.total));`,
  {
    eval: true,
    workerData: {
      port: server.address().port,
      authorization: sample.authorization,
      body: sample.body,
      seconds: SECONDS,
    },
  },
);
await new Promise((resolve) => load.once('message', resolve));
server.close();
const none = median(spent['no SDK']);
console.log(`context manager: ${manager}; median µs of a resend's OpenTelemetry calls`);
for (const name of names) {
  const us = median(spent[name]) * 1000;
  const sdk = (median(spent[name]) - none) * 1000;
  console.log(`${name.padEnd(36)} ${us.toFixed(1).padStart(6)} µs  (SDK ${sdk.toFixed(1)} µs)`);
}
process.exit(0);
