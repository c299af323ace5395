// @vitest-environment node
// Checks the built files as users receive them (`npm test` builds before it tests).
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const dist = new URL('../../dist/', import.meta.url);
const read = (file: string) => readFile(new URL(file, dist), 'utf8');

/** The file and every dist file it imports, transitively. */
async function closure(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = await read(file);
  const base = file.slice(0, file.lastIndexOf('/') + 1);
  for (const [, spec] of code.matchAll(/(?:from|import|require\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    await closure(new URL(spec!, new URL(base, dist)).pathname.slice(dist.pathname.length), seen);
  }
  return seen;
}

async function bareImports(entry: string): Promise<string[]> {
  const found = new Set<string>();
  for (const file of await closure(entry)) {
    const code = await read(file);
    for (const [, spec] of code.matchAll(/(?:from|import|require\()\s*['"]([^'".][^'"]*)['"]/g)) {
      found.add(spec!);
    }
  }
  return [...found].sort();
}

describe('dist', () => {
  it("keeps 'use client' at the top of the component's file and off the root entry, ESM and CJS", async () => {
    for (const ext of ['mjs', 'cjs']) {
      expect((await read(`client.${ext}`)).startsWith("'use client';")).toBe(true);
      // The root entry is a plain module: Server Components get ServiceEvent itself from it.
      const entry = await read(`index.${ext}`);
      expect(entry).not.toContain('use client');
      expect(entry).toContain(`./client.${ext}`);
      expect(entry).not.toMatch(/forwardRef|useSyncExternalStore/);
    }
  });

  it('servicepay/hosted is a client module that imports only React', async () => {
    for (const ext of ['mjs', 'cjs']) {
      expect((await read(`hosted.${ext}`)).startsWith("'use client';")).toBe(true);
    }
    expect(await bareImports('hosted.mjs')).toEqual(['react', 'react/jsx-runtime']);
  });

  it('core imports nothing: no React, no Node built-ins', async () => {
    expect(await bareImports('core.mjs')).toEqual([]);
    expect(await bareImports('core.cjs')).toEqual([]);
  });

  it('the server entries import no OpenTelemetry package: the merchant passes the API (telemetry)', async () => {
    // A static import of an optional package breaks a bundler's build where it is absent.
    for (const entry of ['webhook', 'webhook-web', 'webhook-postgres', 'webhook-redis']) {
      for (const ext of ['mjs', 'cjs']) {
        const imports = await bareImports(`${entry}.${ext}`);
        expect(imports.filter((spec) => spec.includes('opentelemetry'))).toEqual([]);
      }
    }
  });

  it('the React entry imports only React', async () => {
    expect(await bareImports('index.mjs')).toEqual(['react', 'react/jsx-runtime']);
  });

  it('publishes the SRI hash of every standalone file beside them (integrity.json)', async () => {
    const dir = new URL('standalone/', dist);
    const manifest = JSON.parse(await read('standalone/integrity.json')) as Record<string, string>;
    const files = (await readdir(dir)).filter((f) => /\.(js|css)$/.test(f)).sort();
    expect(Object.keys(manifest)).toEqual(files);
    for (const file of files) {
      const bytes = await readFile(new URL(file, dir));
      expect(manifest[file]).toBe(`sha384-${createHash('sha384').update(bytes).digest('base64')}`);
    }
  });

  it('lists the same hashes in docs/script-tag.md (after changing a standalone file: npm run build && npm run sync:integrity)', async () => {
    const manifest = JSON.parse(await read('standalone/integrity.json')) as Record<string, string>;
    const docs = await readFile(new URL('../../docs/script-tag.md', import.meta.url), 'utf8');
    const listed = Object.fromEntries(
      [...docs.matchAll(/^\| `([^`]+)` +\| `(sha384-[^`]+)` +\|$/gm)].map(([, f, h]) => [f, h]),
    );
    expect(listed).toEqual(manifest);
  });

  it('ships both stylesheets under their spec names, and the hosted placeholder’s', async () => {
    const files = await readdir(new URL('css/', dist));
    expect(files.sort()).toEqual(['Service-0.4.css', 'Service-tailwind-0.1.css', 'hosted.css']);
    expect(await read('css/Service-0.4.css')).toContain('.service-root');
  });

  it("gives hosted.css the theme under the placeholder's class, light and dark, and nothing of the components'", async () => {
    const css = await read('css/hosted.css');
    const theme = await readFile(new URL('../../src/styles/theme.css', import.meta.url), 'utf8');
    // Every custom property of the theme, with its value, in both schemes.
    for (const [declaration] of theme.matchAll(/--service-[\w-]+: [^;]+;/g)) {
      expect(css).toContain(declaration);
    }
    expect(css).toMatch(/^\.servicepay-placeholder \{\s*--service-primary: #1d4ed8;/m);
    expect(css).toMatch(
      /@media \(prefers-color-scheme: dark\) \{\s*\.servicepay-placeholder \{\s*--service-primary: #93c5fd;/,
    );
    // It reaches into no markup but the placeholder's (the service's own is the service's).
    expect(css).not.toMatch(/\.service-(root|result)\b/);
    const rules = css.replace(/\/\*[\s\S]*?\*\//g, '');
    for (const [, selectors] of rules.matchAll(/^\s*([^@{}\s][^{}]*)\{/gm)) {
      for (const selector of selectors!.split(',').map((s) => s.trim())) {
        if (/^(\d+%|from|to)$/.test(selector)) continue; // keyframes
        expect(selector).toMatch(/^\.servicepay-placeholder\b/);
      }
    }
  });
});
