// @vitest-environment node
// The receiver's side of "exactly once" when the store misbehaves around a handler: a claim
// answered so late that it had lapsed, and a completion lost to a dropped connection (a real
// PostgreSQL whose backends are terminated between the handler and the completion) or to a
// store that stays unavailable for a while. In each, the notification's handler must run once.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore } from '../../../src/webhook/index';
import type { IdempotencyStore } from '../../../src/webhook/index';
import { createPostgresStore } from '../../../src/webhook/stores/postgres';
import { deferred } from '../../helpers/deferred';
import { delay } from '../support/http';
import { serviceKeys } from '../support/keys';
import { notification, signed } from '../support/notifications';
import { recorder, RecordingStore, statusOf } from '../support/receivers';
import type { Recorder } from '../support/receivers';
import { startPostgres } from '../support/servers.mjs';
import type { TestServer } from '../support/servers.mjs';

const keys = serviceKeys();

/** A receiver on `store` with 1 s claims, recording into `record`. */
const receiver = (store: IdempotencyStore, record: Recorder) =>
  statusOf({ store, claimTtlMs: 1000, ...record });

describe('a claim answered after its lifetime', () => {
  it('is confirmed by a renewal before the handler starts; when it lapsed and was taken, 409 and no second run', async () => {
    const memory = new MemoryIdempotencyStore();
    const answer = deferred<void>();
    // The claim is written at once, its answer held back (a slow store or network).
    const slowAnswers: IdempotencyStore = {
      claim: async (key, ttl) => {
        const claim = memory.claim(key, ttl);
        await answer.promise;
        return claim;
      },
      renew: (...args) => memory.renew(...args),
      complete: (...args) => memory.complete(...args),
      release: (...args) => memory.release(...args),
    };
    const gate = deferred<void>();
    const record = recorder(() => gate.promise);
    const a = receiver(slowAnswers, record);
    const b = receiver(memory, record);
    const delivery = signed(notification(), keys.privateKey);
    const first = a(delivery);
    await delay(1500); // past the 1 s claim: the resend reaching b takes the key and runs
    const second = b(delivery);
    await delay(100);
    expect(record.notifications).toHaveLength(0); // b's handler is running (held by the gate)
    answer.resolve(); // a learns, 1.6 s late, that it "claimed" the key
    expect(await first).toBe(409);
    gate.resolve();
    expect(await second).toBe(200);
    expect(record.notifications).toHaveLength(1);
    expect((record.errors[0]?.error as Error).message).toMatch(
      /^servicepay: the claim on .* was answered after \d+ ms, longer than claimTtlMs \(1000 ms\) allows/,
    );
  });

  it('a late answer whose claim still stands is renewed first, then handled', async () => {
    const recording = new RecordingStore(new MemoryIdempotencyStore());
    const slow: IdempotencyStore = {
      claim: async (key, ttl) => {
        const claim = await recording.claim(key, ttl);
        await delay(600); // more than a third of the claim's life
        return claim;
      },
      renew: (...args) => recording.renew(...args),
      complete: (...args) => recording.complete(...args),
      release: (...args) => recording.release(...args),
    };
    const record = recorder();
    expect(await receiver(slow, record)(signed(notification(), keys.privateKey))).toBe(200);
    expect(recording.calls.map((c) => c.split(' ')[0])).toEqual(['claim', 'renew', 'complete']);
    expect(record.notifications).toHaveLength(1);
  }, 30_000);
});

describe('a completion that fails', () => {
  it('is retried while the claim is kept: resends here are 200, elsewhere 409, and nothing runs twice', async () => {
    const memory = new MemoryIdempotencyStore();
    let down = true;
    const failures: string[] = [];
    const flaky: IdempotencyStore = {
      claim: (...args) => memory.claim(...args),
      renew: (...args) => memory.renew(...args),
      complete: (...args) => {
        if (down) {
          failures.push('complete');
          throw new Error('connection terminated unexpectedly');
        }
        return memory.complete(...args);
      },
      release: (...args) => memory.release(...args),
    };
    const record = recorder();
    const a = receiver(flaky, record);
    const b = receiver(memory, record);
    const delivery = signed(notification(), keys.privateKey);
    expect(await a(delivery)).toBe(200); // handled: the service may stop
    expect(failures.length).toBe(4); // the first try and three quick retries
    expect(record.errors.map(({ context }) => [context.outcome, context.status])).toEqual([
      ['store-unavailable', 200],
    ]);
    await delay(1500); // past the claim's first lifetime: it is being renewed
    expect(await a(delivery)).toBe(200); // this process knows it was handled
    expect(await b(delivery)).toBe(409); // another instance sees the claim held
    down = false;
    // The background retry records it; from then on every instance answers a duplicate.
    let answer = 0;
    for (let round = 0; round < 40 && answer !== 200; round++) {
      await delay(250);
      answer = await b(delivery);
    }
    expect(answer).toBe(200);
    expect(memory.claim(JSON.parse(delivery.body).paymentId + ':COMPLETED', 1000)).toEqual({
      state: 'completed',
    });
    expect(record.notifications).toHaveLength(1);
  }, 30_000);
});

describe('on a real PostgreSQL', () => {
  let server: TestServer;
  let pool: pg.Pool;
  let admin: pg.Pool;

  beforeAll(async () => {
    server = await startPostgres();
    // The store's own pool: a merchant's, with the 'error' listener every pool needs.
    pool = new pg.Pool({ connectionString: server.url, max: 4, application_name: 'store' });
    pool.on('error', () => {});
    admin = new pg.Pool({ connectionString: server.url, max: 3 });
    admin.on('error', () => {});
  }, 120_000);

  afterAll(async () => {
    await pool?.end();
    await admin?.end();
    await server?.stop();
  });

  it('the completion’s connection terminated mid-statement: the completion is retried, a later resend is a duplicate', async () => {
    const table = `t_${randomUUID().replaceAll('-', '')}`;
    const store = createPostgresStore({ pool, table });
    const locker = await admin.connect();
    const record = recorder(async () => {
      // Hold the table, so the completion that follows waits on the database, in flight.
      await locker.query('BEGIN');
      await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    });
    const handle = receiver(store, record);
    const delivery = signed(notification(), keys.privateKey);
    const answered = handle(delivery);
    // The completion is waiting on the lock: an administrator (or a failover) cuts the
    // store's connections, the one carrying the completion among them.
    const waiting = async (): Promise<boolean> =>
      (
        await admin.query(
          "SELECT 1 FROM pg_stat_activity WHERE application_name = 'store' AND datname = current_database() AND wait_event_type = 'Lock'",
        )
      ).rows.length > 0;
    for (let i = 0; i < 200 && !(await waiting()); i++) await delay(25);
    expect(await waiting()).toBe(true);
    await admin.query(
      // This file's database only: the server is shared with other files.
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'store' AND datname = current_database()",
    );
    await locker.query('COMMIT');
    locker.release();
    expect(await answered).toBe(200);
    await delay(1500); // past the claim's lifetime: only a recorded completion stops a rerun
    expect(await receiver(store, record)(delivery)).toBe(200);
    expect(record.notifications).toHaveLength(1);
  }, 30_000);
});
