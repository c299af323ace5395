/**
 * `servicepay/webhook/redis`: an IdempotencyStore in Redis, shared by every receiver instance
 * that uses the server. One key per notification, `<prefix><idempotency key>`, whose value is
 * the owning claim's token while in progress and `completed` once handled, with the claim's or
 * completion's lifetime as the key's expiry (PX), so Redis itself forgets expired entries.
 *
 * Each call is one Lua script (EVALSHA, falling back to EVAL once after a SCRIPT FLUSH or a
 * failover): the claim is `SET key token NX PX ttl` plus, when taken, one GET of the state;
 * renew, complete and release compare the token and act in the same atomic step.
 */
import { createHash } from 'node:crypto';
import { COMPLETED_CLAIM, IN_PROGRESS_CLAIM, newClaimToken } from './idempotency';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency';

/**
 * What the store needs of a Redis client: node-redis's (the `redis` package, v4 or v5,
 * connected) `sendCommand(args)`. For ioredis, pass
 * `{ sendCommand: ([command, ...args]) => ioredis.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/** Options of createRedisStore. */
export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`). */
  client: RedisCommandClient;
  /**
   * Put before every idempotency key, so several apps (or environments) can share a server.
   * @default 'servicepay:idempotency:'
   */
  prefix?: string;
}

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

/** An IdempotencyStore in Redis (see the module comment for its key layout). */
export function createRedisStore(options: RedisStoreOptions): IdempotencyStore {
  const { client } = options ?? {};
  if (typeof client?.sendCommand !== 'function') {
    throw new TypeError(
      'servicepay: createRedisStore needs { client }, a connected node-redis client (createClient from the redis package).',
    );
  }
  const prefix = options.prefix ?? 'servicepay:idempotency:';
  if (typeof prefix !== 'string') {
    throw new TypeError(
      `servicepay: createRedisStore prefix must be a string, got ${typeof prefix}.`,
    );
  }

  const script = (source: string) => {
    const sha = createHash('sha1').update(source).digest('hex');
    return async (key: string, ...args: string[]): Promise<number> => {
      const rest = ['1', prefix + key, ...args];
      try {
        return Number(await client.sendCommand(['EVALSHA', sha, ...rest]));
      } catch (error) {
        if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
        return Number(await client.sendCommand(['EVAL', source, ...rest]));
      }
    };
  };
  const claim = script(CLAIM);
  const renew = script(RENEW);
  const complete = script(COMPLETE);
  const release = script(RELEASE);
  // PX takes whole milliseconds, at least 1.
  const ms = (ttlMs: number): string => String(Math.max(1, Math.ceil(ttlMs)));

  return {
    async claim(key: string, ttlMs: number): Promise<IdempotencyClaim> {
      const token = newClaimToken();
      const answer = await claim(key, token, ms(ttlMs));
      if (answer === 1) return { state: 'claimed', token };
      return answer === 2 ? COMPLETED_CLAIM : IN_PROGRESS_CLAIM;
    },
    // The completed marker's value is no token: whoever passes it owns nothing.
    renew: async (key, token, ttlMs) =>
      token !== COMPLETED && (await renew(key, token, ms(ttlMs))) === 1,
    complete: async (key, token, ttlMs) =>
      token !== COMPLETED && (await complete(key, token, ms(ttlMs))) === 1,
    release: async (key, token) => token !== COMPLETED && (await release(key, token)) === 1,
  };
}
