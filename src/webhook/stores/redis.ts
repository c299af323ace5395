/**
 * `servicepay/webhook/redis`: an IdempotencyStore in Redis, shared by every receiver instance
 * that uses the server. One key per notification, `<prefix><idempotency key>`, whose value is
 * the owning claim's token while in progress and `completed` once handled, with the claim's or
 * completion's lifetime as the key's expiry (PX), so Redis itself forgets expired entries.
 *
 * Each call is one Lua script (EVALSHA, falling back to EVAL once after a SCRIPT FLUSH or a
 * failover): the claim is `SET key token NX PX ttl` plus, when taken, one GET of the state;
 * renew, complete and release compare the token and act in the same atomic step. Paid orders
 * (OrderStore) are `<prefix>order:<orderId>`, holding the paymentId that paid, claimed by one
 * script that answers the holder or sets this payment in the same atomic step.
 *
 * The store can keep its promise only as well as the server keeps its keys: an evicting
 * maxmemory-policy, or a server without persistence, forgets completion markers, and each
 * forgotten one is a notification whose resend runs the handler again. So on first use it reads
 * those settings (CONFIG GET) and warns once when it sees one that forgets (serverWarnings).
 */
import { COMPLETED_CLAIM, IN_PROGRESS_CLAIM, newClaimToken } from './idempotency';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency';
import type { SharedOrderStore } from './orders';
import { redisOutcomes } from './redis-outcomes';
import type { RedisOutcomeStore, RedisSubscriberClient } from './redis-outcomes';
import { callback, checkOption, FLAG, requiredOption, TEXT, withMethods } from '../option-checks';
import { prefixed } from '../prefixed';
import { luaScript, px } from './redis-toolkit';
import type { RedisCommandClient } from './redis-toolkit';

export type { RedisCommandClient } from './redis-toolkit';

/** Options of createRedisStore. */
export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). */
  client: RedisCommandClient;
  /**
   * Put before every idempotency key, so several apps (or environments) can share a server.
   * @default 'servicepay:idempotency:'
   */
  prefix?: string;
  /**
   * On the first claim, read the server's `maxmemory-policy`, `appendonly` and `save` (CONFIG
   * GET) and warn once, through `onWarning`, for each that lets Redis forget handled
   * notifications: a policy other than `noeviction` (evicted markers), no persistence (a restart
   * forgets them all), or snapshots alone (a crash forgets those since the last one). It runs
   * beside the claim: no claim waits for it or fails because of it. Where CONFIG is refused
   * (managed services rename or forbid it) it warns once that it could not check. Turn it off
   * when you know your server's settings.
   * @default true
   */
  checkServerConfig?: boolean;
  /**
   * Where the server check's warnings go, each at most once per store, as a message starting
   * "servicepay: " that names the setting, its value and the fix.
   * @default console.warn
   */
  onWarning?: (message: string) => void;
  /**
   * A node-redis client for pub/sub (payment outcomes reaching every instance, for
   * createPaymentStatusHandler), connected or not; the store connects it when needed and never
   * disconnects it. Without it the store duplicates `client` (node-redis's `duplicate()`) when
   * the first subscriber waits, and closes that connection when nobody does, or on `close()`.
   * @default client.duplicate()
   */
  subscriber?: RedisSubscriberClient;
  /**
   * How often the connection listening for payment outcomes (for createPaymentStatusHandler) is
   * checked with a round trip, which must answer within half of it; opening one must take at
   * most all of it. A listener that died without a word (a NAT or load balancer dropping an idle
   * flow) is so noticed within 1.5 times this and replaced; while it cannot be, event streams end
   * after the current status and return pages poll. At most 2147483647 (setTimeout's bound).
   * @default 10000
   */
  listenerCheckMs?: number;
}

/**
 * The Redis store: claims (IdempotencyStore), payment outcomes (OutcomeStore) and paid orders
 * (OrderStore: `<prefix>order:<orderId>`, holding the paymentId that paid it).
 */
export type RedisStore = IdempotencyStore &
  Required<Pick<IdempotencyStore, 'renewMany'>> &
  RedisOutcomeStore &
  SharedOrderStore;

/** The prefix createRedisStore uses when given none. */
const DEFAULT_PREFIX = 'servicepay:idempotency:';

/** The value of a handled notification's key: never a token (tokens are UUIDs). */
const COMPLETED = 'completed';

/** 1 claimed, 2 completed, 0 in progress. */
const CLAIM = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == '${COMPLETED}' then return 2 end
return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const COMPLETE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], '${COMPLETED}', 'PX', ARGV[2])
return 1`;
const RELEASE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;
/** The order's payment: the one that holds the key, else this one, set in the same step. */
const CLAIM_ORDER = `local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;

/** Replies that a server gives for a while (starting, busy, failing over): check again later. */
const TRANSIENT_REPLIES = new Set(['LOADING', 'BUSY', 'TRYAGAIN', 'MASTERDOWN', 'CLUSTERDOWN']);

/** One setting's value from CONFIG GET: RESP2 answers [name, value], RESP3 a map. */
async function configGet(client: RedisCommandClient, name: string): Promise<string | undefined> {
  const reply = await client.sendCommand(['CONFIG', 'GET', name]);
  let value: unknown;
  if (Array.isArray(reply)) value = reply[1];
  else if (reply instanceof Map) value = reply.get(name);
  else if (typeof reply === 'object' && reply !== null) {
    value = (reply as Record<string, unknown>)[name];
  }
  // Undefined where the server (or a Redis-compatible one) has no such setting: nothing to say.
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * The warnings for the server's settings, none when they keep every completion marker until it
 * expires. The messages are documented in docs/stores.md ("What the server must keep").
 */
async function serverWarnings(client: RedisCommandClient): Promise<string[]> {
  const [policy, appendonly, save] = await Promise.all(
    ['maxmemory-policy', 'appendonly', 'save'].map((name) => configGet(client, name)),
  );
  const warnings: string[] = [];
  // Every key of the store has an expiry, so volatile-* policies evict them as allkeys-* do.
  if (policy !== undefined && policy !== 'noeviction') {
    warnings.push(
      prefixed(
        `the Redis server's maxmemory-policy is ${policy}: when memory runs short it evicts the idempotency store's keys (they all have an expiry, so volatile-* policies evict them too), and a resend of a notification whose marker was evicted runs onNotification again. Set maxmemory-policy noeviction (in redis.conf and with CONFIG SET maxmemory-policy noeviction), or give the store a Redis server of its own with noeviction.`,
      ),
    );
  }
  // appendfsync is not checked: with the append-only file on, each value loses only the last
  // moments of writes (everysec: about a second; no: what the OS had not yet written).
  if (appendonly === 'no' && save !== undefined) {
    warnings.push(
      prefixed(
        save.trim() === ''
          ? `the Redis server keeps nothing on disk (appendonly is no and save is empty): a restart forgets every handled notification, and a resend of one runs onNotification again. Turn on the append-only file: appendonly yes with appendfsync everysec (in redis.conf and with CONFIG SET appendonly yes).`
          : `the Redis server keeps only snapshots on disk (appendonly is no, save is "${save}"): a crash forgets the notifications handled since the last snapshot, and a resend of one runs onNotification again. Turn on the append-only file: appendonly yes with appendfsync everysec (in redis.conf and with CONFIG SET appendonly yes).`,
      ),
    );
  }
  return warnings;
}

/** An IdempotencyStore in Redis (see the module comment for its key layout). */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const client = requiredOption(
    'createRedisStore',
    'client',
    options?.client,
    withMethods<RedisCommandClient>(
      ['sendCommand'],
      'a connected node-redis client (createClient from the redis package)',
    ),
  );
  const prefix = checkOption('createRedisStore', 'prefix', options.prefix, DEFAULT_PREFIX, TEXT);
  const checkServerConfig = checkOption(
    'createRedisStore',
    'checkServerConfig',
    options.checkServerConfig,
    true,
    FLAG,
  );
  const onWarning = checkOption(
    'createRedisStore',
    'onWarning',
    options.onWarning,
    (message: string) => console.warn(message),
    callback<(message: string) => void>('a function (message: string) => void'),
  );

  // 'idle' until the first claim, and again after a check that could not reach the server.
  let check: 'idle' | 'running' | 'done' = checkServerConfig ? 'idle' : 'done';
  const warn = (message: string): void => {
    try {
      onWarning(message);
    } catch {
      // The merchant's logger failed: there is nowhere else to say it, and no claim to fail.
    }
  };
  /** Starts the server check once; never throws, never rejects, is never awaited. */
  const checkServer = (): void => {
    if (check !== 'idle') return;
    check = 'running';
    serverWarnings(client).then(
      (warnings) => {
        check = 'done';
        warnings.forEach(warn);
      },
      (error: unknown) => {
        const message = String((error as Error | undefined)?.message ?? error);
        const code = /^([A-Z]+) /.exec(message)?.[1];
        // A lost connection or a server still loading: the next claim tries again.
        if (code === undefined || TRANSIENT_REPLIES.has(code)) {
          check = 'idle';
          return;
        }
        // Refused (renamed by a managed service, or an ACL): say once that nothing was checked.
        check = 'done';
        warn(
          prefixed(
            `createRedisStore could not read the Redis server's settings (CONFIG GET answered: ${message}), so it cannot tell whether the server keeps handled notifications. Make sure it has maxmemory-policy noeviction and persistence (appendonly yes), in your provider's settings if it runs Redis for you, then pass checkServerConfig: false to skip this check.`,
          ),
        );
      },
    );
  };

  const script = (source: string) => {
    const run = luaScript(client, source);
    return (key: string, ...args: string[]): Promise<number> =>
      run(prefix + key, ...args).then(Number);
  };
  const claim = script(CLAIM);
  const renew = script(RENEW);
  const complete = script(COMPLETE);
  const release = script(RELEASE);
  const claimOrder = luaScript(client, CLAIM_ORDER);
  // Beside the outcomes' `outcome:` keys; a custom idempotencyKey must not start with `order:`.
  const orderKey = (orderId: string): string => `${prefix}order:${orderId}`;

  const outcomes = redisOutcomes({
    client,
    subscriber: options.subscriber,
    prefix,
    listenerCheckMs: options.listenerCheckMs,
  });

  return {
    dbSystem: 'redis',
    async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
      const token = newClaimToken();
      // The claim's command is sent first: the check's commands queue behind it, never ahead.
      const claimed = claim(key, token, px(ttlMs));
      checkServer();
      const answer = await claimed;
      if (answer === 1) return { state: 'claimed', token };
      return answer === 2 ? COMPLETED_CLAIM : IN_PROGRESS_CLAIM;
    },
    // The completed marker's value is no token: whoever passes it owns nothing.
    renew: async (key, token, ttlMs) =>
      token !== COMPLETED && (await renew(key, token, px(ttlMs))) === 1,
    // Every claim a receiver holds, in one round trip: the scripts are sent together, and the
    // client writes them as one pipeline (node-redis does, ioredis with enableAutoPipelining).
    // One script per key rather than one script of many keys, which a Redis Cluster refuses
    // when the keys lie in different slots (CROSSSLOT).
    renewMany: (claims, ttlMs) =>
      Promise.all(
        claims.map(
          async ({ key, token }) =>
            token !== COMPLETED && (await renew(key, token, px(ttlMs))) === 1,
        ),
      ),
    complete: async (key, token, ttlMs) =>
      token !== COMPLETED && (await complete(key, token, px(ttlMs))) === 1,
    release: async (key, token) => token !== COMPLETED && (await release(key, token)) === 1,
    ...outcomes,
    claimOrder: async (orderId, paymentId, ttlMs) =>
      String(await claimOrder(orderKey(orderId), paymentId, px(ttlMs))),
    async orderPaidBy(orderId) {
      const payer = await client.sendCommand(['GET', orderKey(orderId)]);
      return payer === null || payer === undefined ? null : String(payer);
    },
  };
}
