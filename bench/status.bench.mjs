// The payment status endpoint under 10,000 waiting shoppers, for `npm run bench` (bench/run.mjs).
//
// One server process (createPaymentStatusHandler from dist/ over node:http, on the memory store)
// holds SUBSCRIBERS concurrent event streams, each waiting for its own payment; the clients live
// in this process (raw sockets: the lightest client, so the figures are the server's). Then
// every payment's outcome is recorded in the server, RECORD_RATE a second, and each client
// notes when its own final status arrives. The baseline is a bare node:http server that keeps
// the same streams in a Map and writes the same event when told: what any SSE endpoint costs.
//
// Figures:
// - server RSS growth per subscriber (budget <= 32 KB; after a GC, all streams open and sent
//   their first event), beside the bare server's;
// - p99 from recording to receipt (budget <= 250 ms), beside the bare server's;
// - every subscriber got its own status and no other (the bench fails otherwise: `expose` adds
//   the paymentId to each final answer, and the client checks it).
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { median } from './rounds.mjs';

const SUBSCRIBERS = 10_000;
/** Outcomes recorded a second, in batches of BATCH. */
const RECORD_RATE = 2_000;
const BATCH = 100;
/** Connections being opened at once by the clients. */
const OPENING = 200;
const BUDGET = { rssPerSubscriberKb: 32, p99Ms: 250 };
const ROLE = '--servicepay-status-bench-server';

if (process.argv[2] === ROLE) await serve(process.argv[3]);

export async function run() {
  const ours = await measure('servicepay');
  const bare = await measure('bare');
  return [
    {
      name: `status: RSS per event-stream subscriber (${SUBSCRIBERS} open, memory store)`,
      unit: 'KB',
      value: round(ours.rssPerSubscriberKb),
      baseline: round(bare.rssPerSubscriberKb),
      ratio: ours.rssPerSubscriberKb / bare.rssPerSubscriberKb,
      budget: `<= ${BUDGET.rssPerSubscriberKb} KB`,
      ok: ours.rssPerSubscriberKb <= BUDGET.rssPerSubscriberKb,
    },
    {
      name: `status: recorded -> received p99 (${SUBSCRIBERS} streams, ${RECORD_RATE}/s)`,
      unit: 'ms',
      value: round(ours.p99),
      baseline: round(bare.p99),
      ratio: ours.p99 / bare.p99,
      budget: `<= ${BUDGET.p99Ms} ms`,
      ok: ours.p99 <= BUDGET.p99Ms,
    },
    {
      name: 'status: recorded -> received median (reference)',
      unit: 'ms',
      value: round(ours.median),
      baseline: round(bare.median),
      ratio: ours.median / bare.median,
    },
  ];
}

const round = (n) => Math.round(n * 100) / 100;
const wallClock = () => performance.timeOrigin + performance.now();

/** Starts a server process of `kind`, fills it with subscribers, records every outcome. */
async function measure(kind) {
  const child = fork(fileURLToPath(import.meta.url), [ROLE, kind], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies = [];
  let waiting = null;
  child.on('message', (message) => {
    if (waiting !== null) {
      const resolve = waiting;
      waiting = null;
      resolve(message);
    } else replies.push(message);
  });
  const ask = (message) =>
    new Promise((resolve) => {
      if (message === undefined && replies.length > 0) return resolve(replies.shift());
      waiting = resolve;
      if (message !== undefined) child.send(message);
    });
  try {
    const { port } = await ask();
    const before = (await ask({ type: 'rss' })).rss;
    const ids = Array.from({ length: SUBSCRIBERS }, (_, i) => ({
      paymentId: `pay-${kind}-${i}`,
      merchantPaymentId: `mer-${kind}-${i}`,
      status: i % 2 === 0 ? 'COMPLETED' : 'FAILED',
    }));
    const clients = await openAll(port, ids);
    const after = (await ask({ type: 'rss' })).rss;
    const received = Promise.all(clients.map((client) => client.final));
    for (let i = 0; i < ids.length; i += BATCH) {
      const started = wallClock();
      await ask({ type: 'record', outcomes: ids.slice(i, i + BATCH) });
      const pause = (BATCH / RECORD_RATE) * 1000 - (wallClock() - started);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    const finals = await received;
    const recordedAt = new Map();
    for (const message of (await ask({ type: 'times' })).times) {
      recordedAt.set(message[0], message[1]);
    }
    const latencies = finals.map(({ paymentId, at }) => at - recordedAt.get(paymentId));
    latencies.sort((a, b) => a - b);
    return {
      rssPerSubscriberKb: (after - before) / SUBSCRIBERS / 1024,
      p99: latencies[Math.floor(latencies.length * 0.99)],
      median: median(latencies),
    };
  } finally {
    child.kill();
  }
}

/** Opens a stream per id, OPENING at a time; resolves once each has its first (pending) event. */
async function openAll(port, ids) {
  const clients = [];
  let next = 0;
  async function worker() {
    while (next < ids.length) {
      const id = ids[next++];
      clients.push(await subscribe(port, id));
    }
  }
  await Promise.all(Array.from({ length: OPENING }, worker));
  return clients;
}

/** One shopper's page: a raw HTTP/1.1 stream request and an event parser. */
function subscribe(port, { paymentId, merchantPaymentId, status }) {
  return new Promise((opened, failed) => {
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('utf8');
    let text = '';
    let pending = false;
    let settle;
    const final = new Promise((resolve, reject) => (settle = { resolve, reject }));
    socket.on('error', (error) => {
      failed(error);
      settle.reject(error);
    });
    socket.on('data', (chunk) => {
      text += chunk;
      if (!pending && text.includes('data: {"status":"PENDING"}')) {
        pending = true;
        opened({ final });
      }
      const at = text.indexOf('data: {', text.indexOf('PENDING') + 1);
      if (pending && at !== -1 && text.indexOf('\n\n', at) !== -1) {
        const line = text.slice(at + 6, text.indexOf('\n\n', at));
        const answer = JSON.parse(line);
        if (answer.status !== status || answer.paymentId !== paymentId) {
          settle.reject(new Error(`${paymentId} received ${line}, expected ${status} for itself`));
        } else settle.resolve({ paymentId, at: wallClock() });
        socket.destroy();
      }
    });
    socket.write(
      `GET /status?paymentId=${paymentId}&merchantPaymentId=${merchantPaymentId} HTTP/1.1\r\n` +
        'Host: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n',
    );
  });
}

// The server process ---------------------------------------------------------------------------

async function serve(kind) {
  const times = [];
  let record;
  let listener;
  if (kind === 'servicepay') {
    const { createPaymentStatusHandler, MemoryIdempotencyStore } = await import(
      new URL('../dist/webhook.mjs', import.meta.url).href
    );
    const store = new MemoryIdempotencyStore({ maxEntries: 2 * SUBSCRIBERS });
    listener = createPaymentStatusHandler({
      store,
      maxStreams: 2 * SUBSCRIBERS,
      // One client here plays every shopper.
      maxStreamsPerClient: 2 * SUBSCRIBERS,
      expose: (outcome) => ({ paymentId: outcome.paymentId }),
    });
    record = (outcome) =>
      store.recordOutcome({ ...outcome, recordedAt: new Date().toISOString() }, 60_000);
  } else {
    // The baseline: the same streams and events, by hand, with nothing else.
    const waiting = new Map();
    listener = (req, res) => {
      const query = new URL(req.url, 'http://localhost').searchParams;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write('data: {"status":"PENDING"}\n\n');
      waiting.set(query.get('paymentId'), res);
      res.on('close', () => waiting.delete(query.get('paymentId')));
    };
    record = (outcome) => {
      const res = waiting.get(outcome.paymentId);
      res?.end(
        `data: ${JSON.stringify({ paymentId: outcome.paymentId, status: outcome.status })}\n\n`,
      );
    };
  }
  const server = createServer(listener);
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
    process.send({ port: server.address().port });
  });
  process.on('message', (message) => {
    if (message.type === 'rss') {
      globalThis.gc?.();
      globalThis.gc?.();
      process.send({ rss: process.memoryUsage().rss });
    } else if (message.type === 'record') {
      for (const outcome of message.outcomes) {
        times.push([outcome.paymentId, wallClock()]);
        record(outcome);
      }
      process.send({ done: true });
    } else if (message.type === 'times') {
      process.send({ times });
    }
  });
}
