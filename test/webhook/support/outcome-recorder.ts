// The other process of the outcome tests (stores/outcomes.stores.test.ts): instance A as a
// separate Node process, recording outcomes in the shared PostgreSQL or Redis
// outcome store, while the test itself is instance B. Bundled with esbuild and forked by
// support/outcomes.ts (a child process has no vitest aliases); it talks over IPC:
//   child -> parent: { type: 'ready' }, { type: 'recorded', standing }, { type: 'failed', message }
//   parent -> child: { type: 'record', outcome, ttlMs }, { type: 'stop' }
import pg from 'pg';
import { createClient } from 'redis';
import type { PaymentOutcome } from '../../../src/webhook/stores/outcomes';
import { postgresOutcomes } from '../../../src/webhook/stores/postgres-outcomes';
import { redisOutcomes } from '../../../src/webhook/stores/redis-outcomes';

const env = process.env as Record<string, string>;
const send = (message: object): void => void process.send?.(message);

let store: { recordOutcome(outcome: PaymentOutcome, ttlMs: number): Promise<PaymentOutcome> };
let stop: () => Promise<unknown>;
if (env.STORE === 'redis') {
  const client = createClient({ url: env.REDIS_URL });
  client.on('error', () => {});
  await client.connect();
  store = redisOutcomes({ client, prefix: env.PREFIX as string });
  stop = () => client.quit();
} else {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
  pool.on('error', () => {});
  store = postgresOutcomes({ pool, table: env.TABLE as string });
  stop = () => pool.end();
}

process.on('message', (message: { type?: string; outcome?: PaymentOutcome; ttlMs?: number }) => {
  if (message.type === 'record') {
    store.recordOutcome(message.outcome as PaymentOutcome, message.ttlMs as number).then(
      (standing) => send({ type: 'recorded', standing }),
      (error: unknown) => send({ type: 'failed', message: String(error) }),
    );
  } else if (message.type === 'stop') {
    void stop().finally(() => process.disconnect());
  }
});
send({ type: 'ready' });
