/** The key the setup provides the broker's address under. */
export declare const SHARED_FIXTURES: 'servicepaySharedFixtures';
/** The shared server of `kind`, started on first use; null without a broker (outside vitest). */
export declare function sharedFixture(
  kind: 'postgres' | 'redis' | 'chromium',
): Promise<Record<string, string | null> | null>;
