// globalSetup of the node project: says once, before the tests, whether the Redis store can be
// tested here. Without a redis-server on PATH or REDIS_URL its tests are skipped with one line
// printed; under CI (CI set, as .ci/run runs) that is a failure instead.
import { REDIS_MISSING, redisServerPath } from './servers.mjs';

export default function checkRedis(): void {
  if (process.env.REDIS_URL || redisServerPath() !== null) return;
  if (process.env.CI) {
    throw new Error(`servicepay tests: CI must test the Redis store. ${REDIS_MISSING}`);
  }
  console.log(REDIS_MISSING);
}
