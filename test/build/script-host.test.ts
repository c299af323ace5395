// @vitest-environment node
// The sandbox serves the package's own built standalone script by default (spec 4.3): a test
// of the build, so it lives here, where \`npm run test:quick\` (which builds nothing) leaves it
// out. The script host's other rules are test/sandbox/contract/script-host.test.ts's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../sandbox/support/sandbox';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

describe('the sandbox as the script host, on the build', () => {
  it('serves the built files by default (after npm run build)', async () => {
    const version = (
      JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
        componentVersion: string;
      }
    ).componentVersion;
    const sandbox = await testSandbox();
    const response = await fetch(`${sandbox.url}/js/Service-${version}.min.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      readFileSync(join(REPO, 'dist', 'standalone', `Service-${version}.min.js`), 'utf8'),
    );
  });
});
