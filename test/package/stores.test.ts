// servicepay/webhook/postgres, servicepay/webhook/redis and servicepay/webhook/testing as
// `import` and `require`, installed from the tarball into an app without pg or redis: the
// stores take the merchant's driver as an argument and import none themselves.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smokeApps } from './apps';
import { runFixture } from './support';

const { bare } = await smokeApps();

describe('the store entries, with no pg or redis installed', () => {
  it('installs neither driver (optional peer dependencies)', () => {
    expect(existsSync(join(bare, 'node_modules/pg'))).toBe(false);
    expect(existsSync(join(bare, 'node_modules/redis'))).toBe(false);
  });

  it.each([
    ['import', 'stores.mjs', /\.mjs$/],
    ['require', 'stores.cjs', /\.cjs$/],
  ])('%s: they load, and the conformance kit passes the memory store', async (_, file, ext) => {
    const result = await runFixture<{
      resolved: Record<string, string>;
      exports: string[];
      kit: string;
    }>(bare, file);
    for (const path of Object.values(result.resolved)) {
      expect(path).toContain('/node_modules/servicepay/dist/webhook-');
      expect(path).toMatch(ext);
    }
    expect(result.exports).toEqual(['function', 'function', 'function']);
    expect(result.kit).toBe('passed');
  });
});
