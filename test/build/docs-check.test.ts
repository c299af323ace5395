// The docs check (scripts/check-docs.mjs, `npm run check:docs` in `npm test`) fails when a
// snippet stops compiling, naming the Markdown file and line, and passes when every snippet
// compiles; it also fails when a reference table lacks a member of its interface, or when a
// `spec N.N` cited in src/ is not a section of docs/spec.md. Checked in-process on Markdown files written here (the command `npm run check:docs`
// prints these same lines and exits 1 when there are any).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkDefaults,
  checkDocs,
  checkReadme,
  checkReferences,
  checkSafety,
  checkTestNames,
  checkVersion,
  README_MAX_BYTES,
} from '../../scripts/check-docs.mjs';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'sp-docs-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fence = '```';

function markdown(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

// Each run builds a TypeScript program with React's, Node's and Express's types: seconds each
// on a busy machine.
describe('check:docs', { timeout: 120_000 }, () => {
  it('fails on a snippet that does not compile, naming the file and the line', () => {
    const file = markdown('broken.md', [
      '# Broken', // 1
      '', // 2
      `${fence}ts`, // 3
      "import { createWebhookHandler } from 'servicepay/webhook';", // 4
      '', // 5
      "export const handler = createWebhookHandler({ publicKey: process.env.KEY, expectedPayment: 'unreconciled', onNotification });", // 6
      fence,
      '',
      `${fence}tsx`, // 9
      "import { ServicePay } from 'servicepay';", // 10
      'export const Pay = () => <ServicePay environment="PROD" applicationId="x" />;', // 11
      fence,
      '',
      `${fence}sh`,
      'this is not TypeScript and is not checked',
      fence,
    ]);
    const { errors } = checkDocs({ files: [file] });
    expect(errors).toEqual([
      expect.stringMatching(`^${file}:6: error TS2552: Cannot find name 'onNotification'`),
      expect.stringMatching(`^${file}:11: error TS2322: Type '"PROD"' is not assignable`),
    ]);
  });

  it('passes when every snippet compiles, with named files importing each other', () => {
    const file = markdown('good.md', [
      `${fence}tsx`,
      '// app/checkout/pay-button.tsx',
      "'use client';",
      "import { ServicePay, ServiceEvent } from 'servicepay';",
      '',
      'export function PayButton({ amount }: { amount: number }) {',
      '  return (',
      '    <ServicePay',
      '      environment="SANDBOX"',
      '      applicationId="3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6"',
      "      payment={{ amount, paymentReference: 'ORDER-1' }}",
      '      eventConsumer={(event) => event === ServiceEvent.MOUNTED && console.log(event)}',
      '    />',
      '  );',
      '}',
      fence,
      '',
      `${fence}tsx`,
      '// app/checkout/page.tsx',
      "import { PayButton } from './pay-button';",
      '',
      'export default function Page() {',
      '  return <PayButton amount={12.5} />;',
      '}',
      fence,
      '',
      `${fence}ts`,
      "import express from 'express';",
      "import { verifyWebhookSignature } from 'servicepay/webhook';",
      "import { verifyWebhookSignature as verifyOnTheEdge } from 'servicepay/webhook/web';",
      '',
      'console.log(express, verifyWebhookSignature, verifyOnTheEdge);',
      fence,
    ]);
    expect(checkDocs({ files: [file] })).toEqual({ errors: [], checked: 3 });
  });

  it('requires an included block to equal its file, and type-checks the file', async () => {
    const text = (await readFile(join(root, 'examples/webhook-node/server.ts'), 'utf8')).trim();
    const include = '<!-- include: examples/webhook-node/server.ts -->';
    const same = markdown('included.md', [include, '', `${fence}ts`, text, fence]);
    expect(checkDocs({ files: [same] })).toEqual({ errors: [], checked: 1 });

    const stale = markdown('stale.md', [
      '# Stale',
      include,
      `${fence}ts`,
      text.replace('3000', '3001'),
      fence,
    ]);
    expect(checkDocs({ files: [stale] }).errors).toEqual([
      `${stale}:3: error: block differs from examples/webhook-node/server.ts; paste the file's current text`,
    ]);

    // The included file is type-checked, and its errors name the file itself.
    const example = join(dir, 'broken-example.ts');
    const exampleText = "export const port: number = process.env.PORT ?? '3000';";
    writeFileSync(example, `${exampleText}\n`);
    const failing = markdown('failing.md', [
      `<!-- include: ${example} -->`,
      `${fence}ts`,
      exampleText,
      fence,
    ]);
    const { errors } = checkDocs({ files: [failing] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(`${example}:1: error TS2322:`);
  });
});

describe('check:docs on the reference pages', { timeout: 120_000 }, () => {
  const page = (path: string) => readFile(join(root, path), 'utf8');

  /** A copy of a repository page with `edit` applied, which must change it. */
  async function edited(path: string, edit: (text: string) => string): Promise<string> {
    const text = await page(path);
    const changed = edit(text);
    expect(changed).not.toBe(text);
    return markdown(path.replace(/\W+/g, '-'), [changed.replace(/\n$/, '')]);
  }

  /** Drops the table row whose first cell is exactly this member. */
  const withoutRow = (member: string) => (text: string) =>
    text.replace(new RegExp(`^\\| \`${member}\` +\\|.*\\n`, 'm'), '');

  it('passes on the repository pages', () => {
    expect(checkReferences()).toEqual([]);
  });

  it('fails when a prop, a field of the hook or an option has no row, naming it and where', async () => {
    const react = await edited('docs/react.md', (text) =>
      withoutRow('text')(withoutRow('messages')(text)),
    );
    const scriptTag = await edited('docs/script-tag.md', withoutRow('onPaymentInitiated'));
    const errors = checkReferences({
      docs: { 'docs/react.md': react, 'docs/script-tag.md': scriptTag },
    });
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${react}:\\d+: error: the props table .* has no row for \`messages\`, a member of ServicePayProps \\(src/react/ServicePayView.tsx\\): add one`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${react}:\\d+: error: .*useServicePayment.* has no row for \`text\`, a member of ServicePaymentApi`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${scriptTag}:\\d+: error: .*window.Service.* has no row for \`onPaymentInitiated\`, a member of ServiceOptions`,
        ),
      ),
    ]);
  });

  it('fails on a row for a member the interface does not have, and on a missing table', async () => {
    const react = await edited('docs/react.md', (text) =>
      text.replace('| `className`', '| `classNames`'),
    );
    const scriptTag = await edited('docs/script-tag.md', (text) =>
      text.replace('<!-- reference: ServiceOptions -->', ''),
    );
    const errors = checkReferences({
      docs: { 'docs/react.md': react, 'docs/script-tag.md': scriptTag },
    });
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^${react}:\\d+: error: .* no row for \`className\``)),
      expect.stringMatching(
        new RegExp(
          `^${react}:\\d+: error: .* documents \`classNames\`, which ServicePayProps .* does not have`,
        ),
      ),
      `${scriptTag}: error: the options table of \`window.Service\` is missing: put <!-- reference: ServiceOptions --> on the line before it, with a row per member of ServiceOptions (src/vanilla/service.ts)`,
    ]);
  });

  it('fails when a section or rule cited as `spec N.N` in src/ is not in docs/spec.md', async () => {
    const spec = await edited('docs/spec.md', (text) =>
      text
        .replace(/^### 4\.2 .*$/m, '### The public key')
        .replace(/^3\. With `isWebView`/m, '- With `isWebView`'),
    );
    const errors = checkReferences({ docs: { 'docs/spec.md': spec } });
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${spec}: error: spec 4\\.2 is cited by src/\\S+:\\d+.* has no section 4\\.2: add a heading \`### 4\\.2 …\``,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${spec}: error: spec 4\\.4\\.3 is cited by src/\\S+:\\d+.* \\(or rule \`3\\.\` under the heading of 4\\.4\\)`,
        ),
      ),
    ]);
  });

  it('passes when every documented default is its @default', () => {
    expect(checkDefaults()).toEqual([]);
  });

  it('fails on a documented default that drifted from its @default, and on a table naming no type', async () => {
    const webhooks = await edited('docs/webhooks.md', (text) =>
      text.replace(
        '| `claimTtlMs`              | `30000` (30 s)',
        '| `claimTtlMs`              | `20000` (20 s)',
      ),
    );
    const stores = await edited('docs/stores.md', (text) =>
      text
        .replace(
          '| `listenerCheckMs` | PostgreSQL, Redis | `10000` |',
          '| `listenerCheckMs` | PostgreSQL, Redis | none    |',
        )
        .replace('<!-- defaults: PostgresStoreOptions, RedisStoreOptions -->', ''),
    );
    const sandbox = await edited('docs/sandbox.md', (text) =>
      text.replace('| `maxAttempts`    | 20      |', '| `maxAttempts`    | 10      |'),
    );
    const errors = checkDefaults({
      docs: { 'docs/webhooks.md': webhooks, 'docs/stores.md': stores, 'docs/sandbox.md': sandbox },
    });
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${sandbox}:\\d+: error: the default of \`maxAttempts\` is documented as \`10\`, but SandboxRetryOptions.maxAttempts \\(src/sandbox/deliveries/sender.ts\\) says @default 20: make them agree$`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${stores}:\\d+: error: this table has a default column but names no type: put <!-- defaults: Type -->`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^${webhooks}:\\d+: error: the default of \`claimTtlMs\` is documented as \`20000\`, but WebhookHandlerOptions.claimTtlMs \\(src/webhook/receiving/options.ts\\) says @default 30000 \\(30 seconds\\): make them agree$`,
        ),
      ),
    ]);
    // With the table's type named again, a default documented as none is checked too.
    const storesNamed = await edited('docs/stores.md', (text) =>
      text.replace(
        '| `listenerCheckMs` | PostgreSQL, Redis | `10000` |',
        '| `listenerCheckMs` | PostgreSQL, Redis | none    |',
      ),
    );
    expect(checkDefaults({ docs: { 'docs/stores.md': storesNamed } })).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${storesNamed}:\\d+: error: the default of \`listenerCheckMs\` is documented as none, but PostgresStoreOptions.listenerCheckMs \\(src/webhook/stores/postgres.ts\\) says @default 10000: make them agree$`,
        ),
      ),
    ]);
  });
});

describe('check:docs on the version the docs tell', () => {
  const read = (file: string) => readFile(join(import.meta.dirname, '../..', file), 'utf8');

  it("passes on the repository: spec.md and the README name package.json's version", () => {
    expect(checkVersion()).toEqual([]);
  });

  it('fails when docs/spec.md names another version, or a released version has no section', async () => {
    const pkg = JSON.parse(await read('package.json')) as { version: string };
    const spec = await read('docs/spec.md');
    // The page wraps its lines: the claim may break anywhere between words.
    const named = (version: string) =>
      new RegExp(`ServicePay\\s+${version.replaceAll('.', '\\.')}`, 'g');
    const stale = spec.replace(named(pkg.version), 'ServicePay 0.10');
    expect(stale).not.toBe(spec);
    expect(checkVersion({ pages: { 'docs/spec.md': stale } })).toEqual([
      expect.stringMatching(/^docs\/spec\.md: error: it must name the package's version/),
    ]);
    // Cut as a release without its CHANGELOG section: the version is not told.
    const released = { ...pkg, version: pkg.version.split('-')[0] };
    const claim = (text: string) =>
      text.replace(named(pkg.version), `ServicePay ${released.version}`);
    expect(
      checkVersion({
        pages: {
          'package.json': JSON.stringify(released),
          'docs/spec.md': claim(spec),
          'README.md': claim(await read('README.md')),
        },
      }),
    ).toEqual([
      expect.stringMatching(
        /^CHANGELOG\.md: error: no dated section "## \d+\.\d+\.\d+ — YYYY-MM-DD"/,
      ),
    ]);
  });
});

// Issue 47: the docs teach one safe way. A receiver in any block says what it decided about
// reconciliation, no SQL marks an order by the payment's merchantPaymentId (which the page
// makes and renews), and the README stays a front page.
describe('check:docs on the one safe way', () => {
  const page = (lines: string[]) => ({ 'docs/planted.md': `${lines.join('\n')}\n` });

  it('passes on the repository: every receiver reconciles or says it does not, no order is updated by merchantPaymentId', () => {
    expect(checkSafety()).toEqual([]);
    expect(checkReadme()).toEqual([]);
  });

  it('fails on a receiver with neither a lookup nor the opt-out, in any fence, naming the page and the line', () => {
    const planted = page([
      '# Planted', // 1
      '', // 2
      `${fence}ts`, // 3
      "import { createWebhookHandler } from 'servicepay/webhook';",
      'export const receive = createWebhookHandler({ publicKey: key, onNotification });',
      fence,
      '',
      `${fence}text`, // 8
      "app.put('/webhooks', createFetchWebhookHandler({ publicKey, onNotification }));",
      fence,
      '',
      `${fence}ts`, // 12: decided, either way
      "listenWebhook({ port: 0, publicKey, expectedPayment: 'unreconciled', onNotification });",
      'createWebhookHandler({ publicKey, expectedPayment: findOrder, onNotification });',
      fence,
    ]);
    expect(checkSafety({ pages: planted })).toEqual([
      `docs/planted.md:3: error: this block builds a receiver (createWebhookHandler) without expectedPayment: reconcile with the order (docs/webhooks.md, "Reconciliation"), or say expectedPayment: 'unreconciled'`,
      `docs/planted.md:8: error: this block builds a receiver (createFetchWebhookHandler) without expectedPayment: reconcile with the order (docs/webhooks.md, "Reconciliation"), or say expectedPayment: 'unreconciled'`,
    ]);
  });

  it('fails on SQL that updates an order by merchantPaymentId, and passes one by the order id', () => {
    const planted = page([
      `${fence}sql`, // 1
      "UPDATE orders SET status = 'paid' WHERE merchant_payment_id = $1;",
      fence,
      `${fence}ts`, // 4: the shape the stack guides had, the id in the parameters
      "await pool.query('UPDATE orders SET status = $1 WHERE id = $2', [",
      '  status,',
      '  notification.merchantPaymentId,',
      ']);',
      fence,
      `${fence}ts`, // 10: by the order the server made
      "await pool.query(`UPDATE orders SET status = 'paid' WHERE id = $1`, [orderId]);",
      fence,
    ]);
    const why =
      "error: this SQL updates a row by the payment's merchantPaymentId, which the page renews after every attempt: update the order by the order id behind it (expectedPayment's orderId)";
    expect(checkSafety({ pages: planted })).toEqual([
      `docs/planted.md:1: ${why}`,
      `docs/planted.md:4: ${why}`,
    ]);
  });

  it(`fails on a README over ${README_MAX_BYTES} bytes, counted in bytes, not characters`, () => {
    expect(checkReadme({ pages: { 'README.md': 'x'.repeat(README_MAX_BYTES) } })).toEqual([]);
    // '£' is two bytes: 7,001 of them are 14,002 bytes.
    expect(checkReadme({ pages: { 'README.md': '£'.repeat(7_001) } })).toEqual([
      `README.md: error: 14002 bytes, over the front page's ${README_MAX_BYTES}: move the detail to a page of docs/ and link it`,
    ]);
  });
});

describe('check:docs on the test files’ names', () => {
  it('passes on the repository: every test file is named for what it tests', () => {
    const { errors, tested, modules } = checkTestNames();
    expect(errors).toEqual([]);
    expect(tested).toBeGreaterThan(0);
    expect(tested).toBeLessThan(modules);
  });

  it('fails on a test file named for no module, and passes one named for a module, a folder or a helper', () => {
    const { errors } = checkTestNames({
      files: [
        'test/core/session.lifecycle.test.ts',
        'test/core/session-reducer.test.ts',
        'test/sandbox/deliveries.test.ts',
        'test/webhook/support/servers.postgres.test.ts',
        'test/react/types.test-d.tsx',
        'test/core/issue-48.test.ts',
        'test/hosted/loader.test.ts',
      ],
    });
    expect(errors).toEqual([
      'test/core/issue-48.test.ts: error: named for no module: name it <module>[.<aspect>].test.ts after src/core/issue-48.ts, or list it in TESTS_OF_NO_ONE_MODULE (scripts/check-docs.mjs) with its reason',
      'test/hosted/loader.test.ts: error: named for no module: name it <module>[.<aspect>].test.ts after src/hosted/loader.ts, or list it in TESTS_OF_NO_ONE_MODULE (scripts/check-docs.mjs) with its reason',
    ]);
  });
});
