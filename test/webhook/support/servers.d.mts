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
   * Only on a server of its own (not REDIS_URL). SIGTERM: a clean shutdown; SIGKILL: a crash.
   * `whileDown` runs after it stopped and before it starts again.
   */
  restart?(options?: {
    signal?: 'SIGTERM' | 'SIGKILL';
    whileDown?: () => Promise<void>;
  }): Promise<void>;
}
export function startPostgres(flags?: string[]): Promise<RestartableServer>;
export function redisServerPath(): string | null;
export const REDIS_MISSING: string;
export function startRedis(options?: {
  persistence?: 'none' | 'aof' | 'rdb';
  flags?: string[];
}): Promise<RedisServer | null>;
