// The docs check (scripts/check-docs.mjs, `npm run check:docs` in `npm test`) fails when a
// snippet stops compiling, naming the Markdown file and line, and passes when every snippet
// compiles: run as `npm test` runs it, on Markdown files written here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'sp-docs-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fence = '```';

function check(name: string, markdown: string) {
  const file = join(dir, name);
  writeFileSync(file, markdown);
  const run = spawnSync(process.execPath, ['scripts/check-docs.mjs', file], {
    cwd: root,
    encoding: 'utf8',
  });
  return { file, status: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Each run builds a TypeScript program with React's, Node's and Express's types: seconds each.
describe('check:docs', { timeout: 60_000 }, () => {
  it('fails on a snippet that does not compile, naming the file and the line', () => {
    const result = check(
      'broken.md',
      [
        '# Broken', // 1
        '', // 2
        `${fence}ts`, // 3
        "import { createWebhookHandler } from 'servicepay/webhook';", // 4
        '', // 5
        'export const handler = createWebhookHandler({ publicKey: process.env.KEY, onNotification });', // 6
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
        '',
      ].join('\n'),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${result.file}:6: error TS2552: Cannot find name 'onNotification'`,
    );
    expect(result.stderr).toContain(`${result.file}:11: error TS2322:`);
    expect(result.stderr).not.toContain(':15:');
  });

  it('passes when every snippet compiles, with named files importing each other', () => {
    const result = check(
      'good.md',
      [
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
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('3 code block(s)');
    expect(result.status).toBe(0);
  });

  it('requires an included block to equal its file, and type-checks the file', async () => {
    const text = (await readFile(join(root, 'examples/webhook-node/server.ts'), 'utf8')).trim();
    const include = '<!-- include: examples/webhook-node/server.ts -->';
    const same = check('included.md', [include, '', `${fence}ts`, text, fence, ''].join('\n'));
    expect(same.stderr).toBe('');
    expect(same.stdout).toContain('1 code block(s)');
    expect(same.status).toBe(0);

    const stale = check(
      'stale.md',
      ['# Stale', include, `${fence}ts`, text.replace('3000', '3001'), fence, ''].join('\n'),
    );
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain(
      `${stale.file}:3: error: block differs from examples/webhook-node/server.ts`,
    );
  });
});
