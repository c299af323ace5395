// The docs check (scripts/check-docs.mjs, `npm run check:docs` in `npm test`) fails when a
// snippet stops compiling, naming the Markdown file and line, and passes when every snippet
// compiles. Checked in-process on Markdown files written here (the command `npm run check:docs`
// prints these same lines and exits 1 when there are any).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDocs } from '../../scripts/check-docs.mjs';

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
