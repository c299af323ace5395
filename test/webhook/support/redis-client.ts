// A Redis server and a client connected to it, for a test file or describe block: started
// before its tests, both ended after them.
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { startRedis } from './servers.mjs';
import type { RedisServer } from './servers.mjs';

/** A Redis server (startRedis) and a client connected to it. */
export interface RedisClient {
  server: RedisServer;
  client: ReturnType<typeof createClient>;
}

/** Hooks of the calling file or describe: startRedis(options) and a client on it, then ended. */
export function redisClient(options?: Parameters<typeof startRedis>[0]): RedisClient {
  const redis = {} as RedisClient;
  beforeAll(async () => {
    redis.server = (await startRedis(options)) as RedisServer;
    redis.client = createClient({ url: redis.server.url });
    await redis.client.connect();
  }, 60_000);
  afterAll(async () => {
    await redis.client?.quit();
    await redis.server?.stop();
  });
  return redis;
}
