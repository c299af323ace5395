/** A server started for a test; `stop` ends it and deletes its files. */
export interface TestServer {
  url: string;
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
/** A server started for a test that can also be stopped and started again on the same data. */
export interface RestartableServer extends TestServer {
  restart(): Promise<void>;
}
export interface RedisServer extends TestServer {
  /**
   * Only on a server of its own (not REDIS_URL, not the shared one). SIGTERM: a clean shutdown; SIGKILL: a crash.
   * `whileDown` runs after it stopped and before it starts again.
   */
  restart?(options?: {
    signal?: 'SIGTERM' | 'SIGKILL';
    whileDown?: () => Promise<void>;
  }): Promise<void>;
}
/**
 * A fresh database on the run's shared PostgreSQL, or with `own` or `flags` a server of its own
 * (only that one can `restart()`).
 */
export function startPostgres(
  options?: string[] | { own?: boolean; flags?: string[] },
): Promise<RestartableServer>;
export function redisServerPath(): string | null;
/** Whether the Redis store can be tested here: REDIS_URL, or a redis-server to start. */
export const redisAvailable: boolean;
export const REDIS_MISSING: string;
/** The shared Redis (or REDIS_URL), or with any option a server of its own. */
export function startRedis(options?: {
  own?: boolean;
  persistence?: 'none' | 'aof' | 'rdb';
  flags?: string[];
}): Promise<RedisServer | null>;
