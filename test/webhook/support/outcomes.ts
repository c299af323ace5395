// Helpers of the outcome store tests: outcomes, listeners that count their calls, and instance
// A as a second Node process (support/outcome-recorder.ts, bundled with esbuild and forked).
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OutcomeStore, PaymentOutcome } from '../../../src/webhook/stores/outcomes';
import { delay } from './http';
import { bundleForNode, nodeBundleDir } from './node-bundle.mjs';

/** A final outcome for a fresh payment (or `paymentId`). */
export function outcome(
  status: 'COMPLETED' | 'FAILED' = 'COMPLETED',
  paymentId: string = randomUUID(),
): PaymentOutcome {
  return {
    paymentId,
    merchantPaymentId: `order-${paymentId}`,
    status,
    recordedAt: new Date().toISOString(),
  };
}

/** A subscriber: every call its listener got, and the first one as a promise. */
export interface Heard {
  calls: PaymentOutcome[];
  first: Promise<PaymentOutcome>;
  unsubscribe(): void;
}

/** Subscribes to `paymentId` on `store`; resolves once the subscription is live. */
export async function hear(store: OutcomeStore, paymentId: string): Promise<Heard> {
  const calls: PaymentOutcome[] = [];
  let resolve!: (outcome: PaymentOutcome) => void;
  const first = new Promise<PaymentOutcome>((r) => (resolve = r));
  const unsubscribe = await store.subscribeOutcome(paymentId, (heard) => {
    calls.push(heard);
    resolve(heard);
  });
  return { calls, first, unsubscribe };
}

/** Polls `read` until `done(value)` (at most about 20 s): for what the server updates lazily. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  let value = await read();
  for (let i = 0; i < 400 && !done(value); i++) {
    await delay(50);
    value = await read();
  }
  return value;
}

/** Instance A in a Node process of its own. */
export interface Recorder {
  record(outcome: PaymentOutcome, ttlMs: number): Promise<PaymentOutcome>;
  stop(): Promise<void>;
}

const bundleDir = nodeBundleDir();
let bundled: Promise<string> | undefined;

/** Bundles support/outcome-recorder.ts once per test file (pg and redis stay external). */
function bundle(): Promise<string> {
  bundled ??= bundleForNode(
    fileURLToPath(new URL('./outcome-recorder.ts', import.meta.url)),
    `${bundleDir}outcome-recorder.mjs`,
  );
  return bundled;
}

/** Recorder processes still running. */
const children = new Set<ChildProcess>();

/** Kills the recorders a failed test left running, and removes the bundle (afterAll). */
export function removeBundle(): void {
  for (const child of children) child.kill('SIGKILL');
  rmSync(bundleDir, { recursive: true, force: true });
}

/** Forks instance A on the given store (env: STORE, DATABASE_URL, TABLE or REDIS_URL, PREFIX). */
export async function startRecorder(env: Record<string, string>): Promise<Recorder> {
  const child = fork(await bundle(), [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`outcome recorder exited (${code})`)));
    child.once('message', () => resolve());
  });
  child.removeAllListeners('exit');
  children.add(child);
  child.once('exit', () => children.delete(child));
  return {
    record(sent, ttlMs) {
      return new Promise((resolve, reject) => {
        child.once(
          'message',
          (answer: { type: string; standing?: PaymentOutcome; message?: string }) => {
            if (answer.type === 'recorded') resolve(answer.standing as PaymentOutcome);
            else reject(new Error(answer.message));
          },
        );
        child.send({ type: 'record', outcome: sent, ttlMs });
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'stop' });
      }),
  };
}
