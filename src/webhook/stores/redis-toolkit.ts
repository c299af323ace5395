/**
 * What both halves of the Redis store (redis.ts, redis-outcomes.ts) share: the client they
 * need, a Lua script run by its hash with one fallback, and the PX lifetime.
 */
import { createHash } from 'node:crypto';

/**
 * What the store needs of a Redis client: node-redis's (the `redis` package, v4 or v5,
 * connected) `sendCommand(args)`. For ioredis, pass
 * `{ sendCommand: ([command, ...args]) => ioredis.call(command, ...args) }`.
 */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A Lua script of one key: EVALSHA, then EVAL once when the server answers NOSCRIPT (after a
 * SCRIPT FLUSH, a restart or a failover), which also loads it again for the next call.
 */
export function luaScript(
  client: RedisCommandClient,
  source: string,
): (key: string, ...args: string[]) => Promise<unknown> {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (key, ...args) => {
    const rest = ['1', key, ...args];
    try {
      return await client.sendCommand(['EVALSHA', sha, ...rest]);
    } catch (error) {
      if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
      return client.sendCommand(['EVAL', source, ...rest]);
    }
  };
}

/** A lifetime as PX takes it: whole milliseconds, at least 1. */
export function px(ttlMs: number): string {
  return String(Math.max(1, Math.ceil(ttlMs)));
}
