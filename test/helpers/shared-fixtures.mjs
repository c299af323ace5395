// The heavy servers of a test run (PostgreSQL, Redis, Chromium), started once per run and shared
// by every file: test/helpers/shared-fixtures-setup.ts (each project's globalSetup) starts each
// one the first time a file asks and hands out its address. Outside vitest (the benches, a
// child process) or in a project without that setup there is no broker: callers start their own.
// Plain JavaScript so that test/webhook/support/servers.mjs, which plain Node imports, can use it.

/** The key the setup provides the broker's address under. */
export const SHARED_FIXTURES = 'servicepaySharedFixtures';

/** @type {Promise<string | null> | undefined} */
let brokerUrl;

function broker() {
  brokerUrl ??= (async () => {
    if (!process.env.VITEST) return null;
    try {
      const { inject } = await import('vitest');
      return (
        /** @type {string | undefined} */ (inject(/** @type {never} */ (SHARED_FIXTURES))) ?? null
      );
    } catch {
      // Not in a test worker (a process a test spawned inherits VITEST): no broker.
      return null;
    }
  })();
  return brokerUrl;
}

/**
 * The shared server of `kind`, started on first use: `{ url }` for 'postgres' (a superuser
 * connection string; callers make a database of their own on it) and 'redis' (null url when
 * neither redis-server nor REDIS_URL exists), `{ wsEndpoint }` for 'chromium'. Null when this
 * process has no broker.
 *
 * @param {'postgres' | 'redis' | 'chromium'} kind
 * @returns {Promise<Record<string, string | null> | null>}
 */
export async function sharedFixture(kind) {
  const url = await broker();
  if (url === null) return null;
  const response = await fetch(`${url}/${kind}`, {
    method: 'POST',
    signal: AbortSignal.timeout(180_000),
  });
  const body = /** @type {{ error?: string } & Record<string, string | null>} */ (
    await response.json()
  );
  if (!response.ok) {
    throw new Error(`servicepay tests: the shared ${kind} could not start: ${body.error}`);
  }
  return body;
}
