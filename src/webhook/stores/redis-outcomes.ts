/**
 * Payment outcomes in Redis, live on every instance: the OutcomeStore half of createRedisStore
 * (outcomes.ts has the contract).
 *
 * Each outcome is one key, `<prefix>outcome:<paymentId>`, holding the outcome as JSON with its
 * lifetime as the key's expiry (PX), so Redis forgets it by itself. The idempotency store's keys
 * share the prefix; its default key, `<paymentId>:<status>`, would need a paymentId of `outcome`
 * to meet an outcome key (a custom idempotencyKey must not start with `outcome:`). Recording is
 * one Lua script: SET NX PX, and only when it set the key, PUBLISH of the same JSON to
 * `<prefix>outcomes` in the same atomic step; otherwise it answers the outcome that stands.
 *
 * Live delivery is pub/sub on ONE connection per store: by default a duplicate of the client
 * (node-redis's `duplicate()`), opened when the first subscriber arrives and closed when nobody
 * waits or on close(); or the `subscriber` client the merchant passes, which the store connects
 * if it is not, subscribes and unsubscribes, and never disconnects. node-redis reconnects by
 * itself and subscribes again before it emits 'ready'; on each 'ready' after the first, the
 * store re-reads (MGET) the outcome of every waiting payment: an outcome published while the
 * connection was down reached nobody, and is found there. Should the duplicate give up
 * reconnecting (a reconnectStrategy that stops), the store opens another, with bounded backoff,
 * while anybody waits. A connection that died silently (no FIN, no RST, so node-redis never
 * notices) is found by the checks of outcome-listening.ts, a PING on it, and replaced the same
 * way; the merchant's own subscriber cannot be replaced, so it is subscribed on again.
 */
import { listenerCheckMs, OutcomeListening } from './outcome-listening';
import type { ListeningConnection } from './outcome-listening';
import { toOutcome } from './outcomes';
import type { PaymentOutcome, SharedOutcomeStore } from './outcomes';
import { WebhookConfigError } from '../errors';
import { checkOption, withMethods } from '../option-checks';
import { luaScript, px } from './redis-toolkit';
import type { RedisCommandClient } from './redis-toolkit';
import { prefixed } from '../prefixed';

/** What the store needs of the client it was given: createRedisStore's, plus `duplicate`. */
export interface RedisOutcomesClient extends RedisCommandClient {
  /** node-redis's: a new, unconnected client with the same options, for pub/sub. */
  duplicate?(): unknown;
}

/** What subscribing needs of a node-redis (v4 or v5) client used for pub/sub. */
export interface RedisSubscriberClient {
  readonly isOpen?: boolean;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  on(event: 'ready' | 'error', listener: () => void): unknown;
  removeListener(event: 'ready' | 'error', listener: () => void): unknown;
  /** A round trip, the store's check of the connection (skipped where missing). */
  ping?(): Promise<unknown>;
  /** v5: closes the connection at once. */
  destroy?(): unknown;
  /** v4: closes the connection at once. */
  disconnect?(): unknown;
}

export interface RedisOutcomesOptions {
  client: RedisOutcomesClient;
  /**
   * A node-redis client for pub/sub, connected or not. The store subscribes on it and never
   * disconnects it (it only unsubscribes). Without it, the store duplicates `client`.
   */
  subscriber?: RedisSubscriberClient;
  /** Put before the outcome keys and the channel (the idempotency store's prefix). */
  prefix: string;
  /** How often the pub/sub connection is checked (createRedisStore's). @default 10000 */
  listenerCheckMs?: number;
}

/** The outcome half of the Redis store, and the close() that ends its pub/sub connection. */
export type RedisOutcomeStore = SharedOutcomeStore;

/** Answers the outcome that stands: ours, published, or the one recorded before. */
const RECORD = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('PUBLISH', ARGV[3], ARGV[1])
  return ARGV[1]
end
return redis.call('GET', KEYS[1])`;
/** Keys per MGET when re-reading, so no reply grows without bound. */
const MGET_BATCH = 1000;

/** One subscription on a pub/sub connection, or the attempt to make one. */
interface Session extends ListeningConnection {
  sub?: RedisSubscriberClient;
  ours: boolean;
  ended: boolean;
  onMessage(message: string): void;
  onReady(): void;
  onError(): void;
}

const parse = (value: unknown): PaymentOutcome | null => {
  if (typeof value !== 'string') return null;
  try {
    return toOutcome(JSON.parse(value));
  } catch {
    return null;
  }
};

/** Outcomes in Redis (see the module comment). */
export function redisOutcomes(options: RedisOutcomesOptions): RedisOutcomeStore {
  // createRedisStore checked client and prefix; only subscriber is first read here.
  const { client, prefix } = options;
  const subscriber = checkOption(
    'createRedisStore',
    'subscriber',
    options.subscriber,
    undefined,
    withMethods<RedisSubscriberClient>(
      ['subscribe', 'connect'],
      'a node-redis client for pub/sub (client.duplicate(), connected or not)',
    ),
  );
  const checkMs = listenerCheckMs(options.listenerCheckMs, 'createRedisStore');
  const channel = `${prefix}outcomes`;
  const key = (paymentId: string): string => `${prefix}outcome:${paymentId}`;

  /** The pub/sub connection: the merchant's, connected if it was not, or a duplicate of ours. */
  async function connection(entry: Session): Promise<RedisSubscriberClient> {
    if (subscriber !== undefined) {
      if (subscriber.isOpen !== true) await subscriber.connect();
      return subscriber;
    }
    const made = typeof client.duplicate === 'function' ? client.duplicate() : undefined;
    const sub = made as RedisSubscriberClient | undefined;
    if (typeof sub?.subscribe !== 'function' || typeof sub.connect !== 'function') {
      throw new WebhookConfigError(
        'subscribing to outcomes needs { client } to be a node-redis client (it is duplicated for pub/sub), or a subscriber client: pass createRedisStore({ client, subscriber: client.duplicate() }).',
        'client',
      );
    }
    entry.sub = sub;
    // Ours, so its errors are ours: node-redis reconnects after them, and we re-read on 'ready'.
    sub.on('error', entry.onError);
    await sub.connect();
    return sub;
  }

  const listening: OutcomeListening<Session> = new OutcomeListening<Session>({
    checkMs,
    create: (lost) => {
      const entry: Session = {
        ready: Promise.resolve(),
        ours: subscriber === undefined,
        over: false,
        ended: false,
        onMessage(message) {
          const outcome = parse(message);
          if (outcome !== null) listening.listeners.deliver(outcome);
        },
        onReady() {
          // Reconnected and subscribed again (node-redis resubscribes before 'ready').
          if (!entry.over) listening.reread().catch(() => {});
        },
        onError() {
          // A connection that gave up reconnecting is closed for good: open another.
          if (entry.over || entry.sub?.isOpen !== false) return;
          lost();
        },
      };
      return entry;
    },

    async connect(entry, wanted) {
      const sub = await connection(entry);
      entry.sub = sub;
      wanted();
      sub.on('ready', entry.onReady);
      await sub.subscribe(channel, entry.onMessage);
    },

    ping: (entry) => entry.sub?.ping?.() ?? Promise.resolve(),

    // Unsubscribes, and closes the connection when it is ours.
    end(entry) {
      if (entry.ended) return;
      entry.ended = true;
      const sub = entry.sub;
      if (sub === undefined) return;
      sub.removeListener('ready', entry.onReady);
      if (!entry.ours) {
        sub.unsubscribe(channel, entry.onMessage).catch(() => {});
        return;
      }
      try {
        // At once, not after pending replies: a server that stopped answering must not hold it.
        const closing = typeof sub.destroy === 'function' ? sub.destroy() : sub.disconnect?.();
        Promise.resolve(closing).catch(() => {});
      } catch {
        // Closed already.
      }
    },

    async reread(waiting, listeners) {
      for (let i = 0; i < waiting.length; i += MGET_BATCH) {
        const keys = waiting.slice(i, i + MGET_BATCH).map(key);
        const values = await client.sendCommand(['MGET', ...keys]);
        for (const value of Array.isArray(values) ? values : []) {
          const outcome = parse(value);
          if (outcome !== null) listeners.deliver(outcome);
        }
      }
    },
  });

  const recordScript = luaScript(client, RECORD);
  const record = (outcome: PaymentOutcome, ttlMs: number): Promise<unknown> =>
    recordScript(key(outcome.paymentId), JSON.stringify(outcome), px(ttlMs), channel);

  return {
    async recordOutcome(given, ttlMs) {
      const outcome = toOutcome(given);
      if (outcome === null) {
        throw new TypeError(
          prefixed(
            'recordOutcome needs an outcome with paymentId, merchantPaymentId and a final status (COMPLETED, FAILED or NEEDS_REVIEW).',
          ),
        );
      }
      const standing = parse(await record(outcome, ttlMs));
      if (standing === null) {
        throw new Error(
          prefixed(
            `the Redis key ${key(outcome.paymentId)} holds something that is not a payment outcome. Delete it, and keep other data out of the store's prefix (${prefix}).`,
          ),
        );
      }
      // Those waiting in this process hear the outcome that stands now; the published message
      // then finds them gone.
      listening.listeners.deliver(standing);
      return standing;
    },

    async readOutcome(paymentId) {
      return parse(await client.sendCommand(['GET', key(paymentId)]));
    },

    subscribeOutcome(paymentId, listener, onLost) {
      const session = listening.current;
      // The merchant closed their subscriber client since: connect it again.
      if (session?.ours === false && subscriber?.isOpen === false) {
        listening.finish(session, 'idle');
      }
      return listening.subscribe(paymentId, listener, onLost);
    },

    async close() {
      listening.close();
    },
  };
}
