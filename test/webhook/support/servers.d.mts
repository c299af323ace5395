/** A server started for a test; `stop` ends it and deletes its files. */
export interface TestServer {
  url: string;
  stop(): Promise<void>;
}
export function freePort(): Promise<number>;
export function startPostgres(flags?: string[]): Promise<TestServer>;
export function redisServerPath(): string | null;
export const REDIS_MISSING: string;
export function startRedis(): Promise<TestServer | null>;
