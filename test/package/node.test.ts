// servicepay/webhook, servicepay/webhook/web, servicepay/core and servicepay/sandbox as
// `import` and `require` in plain Node, installed from the tarball into an app with nothing
// else: React is an optional peer, none of these needs it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smokeApps } from './apps';
import { APP_ID } from '../helpers/merchant';
import { run, runFixture, startFixture } from './support';

const { bare } = await smokeApps();

interface NodeChecks {
  resolved: Record<string, string>;
  signature: Record<string, unknown>;
  vector: { node: boolean; web: boolean } | null;
  core: {
    events: Record<string, string>;
    invalid: boolean;
    valid: boolean;
    log: string[];
    requests: unknown[];
  };
}

describe('in plain Node, with no React installed', () => {
  it('installs no React (an optional peer dependency)', () => {
    expect(existsSync(join(bare, 'node_modules/servicepay/package.json'))).toBe(true);
    expect(existsSync(join(bare, 'node_modules/react'))).toBe(false);
  });

  it.each([
    ['import', 'node-esm.mjs', /\.mjs$/],
    ['require', 'node-cjs.cjs', /\.cjs$/],
  ])('%s: webhook signs and verifies, core takes a payment', async (_, file, extension) => {
    const result = await runFixture<NodeChecks>(bare, file);
    // Each format loads its own build from the installed package.
    for (const path of Object.values(result.resolved)) {
      expect(path).toContain('/node_modules/servicepay/dist/');
      expect(path).toMatch(extension);
    }
    expect(result.signature).toEqual({
      header: 'SHA256withRSA',
      valid: true,
      tampered: false,
      web: true,
      webTampered: false,
    });
    // The service's own signed example (test/fixtures), verified by the installed package.
    expect(result.vector).toEqual({ node: true, web: true });

    expect(result.core.events.MOUNTED).toBe('mounted');
    expect(result.core.invalid).toBe(false);
    expect(result.core.valid).toBe(true);
    expect(result.core.log).toEqual([
      'error:payWithBankInstitution:Input validation error: field=[paymentRequest.amount], value=[-1], error=[must be greater than 0]',
      'mounted',
      'institutions_fetched',
      'bank_selection_opened',
      'payment_initiated',
      'institution_selected',
      'open:https://bank.test/authorise/1',
      'awaiting_authorisation',
    ]);
    expect(result.core.requests).toEqual([
      {
        environment: 'SANDBOX',
        applicationId: APP_ID,
        institutionId: 'monzo',
        paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
        merchantPaymentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        agentType: 'WEB_BROWSER',
      },
    ]);
  });

  it('the servicepay-sandbox command runs', async () => {
    const { stdout } = await run(join(bare, 'node_modules/.bin/servicepay-sandbox'), ['--help'], {
      cwd: bare,
    });
    expect(stdout).toContain('Usage:\n  servicepay-sandbox [options]');
  });

  it('servicepay/sandbox serves the banks, and the standalone script from the package', async () => {
    const sandbox = await startFixture<{ url: string; applicationId: string }>(bare, 'sandbox.mjs');
    try {
      const base = sandbox.info.url.replace(/\/$/, '');
      const banks = await fetch(
        `${base}/v1/institutions?environment=SANDBOX&applicationId=${sandbox.info.applicationId}`,
      );
      expect(banks.status).toBe(200);
      expect(((await banks.json()) as { institutions: unknown[] }).institutions).toHaveLength(20);

      // The script host finds dist/standalone inside the installed package.
      // Named by the component's version (package.json componentVersion), not the package's.
      const { componentVersion: version } = JSON.parse(
        readFileSync(join(bare, 'node_modules/servicepay/package.json'), 'utf8'),
      ) as { componentVersion: string };
      const script = await fetch(`${base}/js/Service-${version}.min.js`);
      expect(script.status).toBe(200);
      expect(await script.text()).toBe(
        readFileSync(
          join(bare, `node_modules/servicepay/dist/standalone/Service-${version}.min.js`),
          'utf8',
        ),
      );
    } finally {
      await sandbox.stop();
    }
  });
});

describe('telemetry, with no @opentelemetry/api installed', () => {
  it('the receiver and the status endpoint work, and no OpenTelemetry global is made', async () => {
    const result = await runFixture<Record<string, unknown>>(bare, 'telemetry.mjs');
    expect(result).toEqual({
      apiInstalled: false,
      delivered: 200,
      status: '{"status":"COMPLETED"}',
      registry: 'undefined',
    });
  });
});
