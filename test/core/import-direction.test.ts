import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// docs/architecture.md: core imports nothing of the other layers, no React and no Node
// built-ins (it runs in browsers and is the base of every entry).

const CORE = fileURLToPath(new URL('../../src/core', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier in a file: static and type imports, re-exports, import(), require(). */
function specifiers(source: string): string[] {
  const found: { at: number; specifier: string }[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern))
      found.push({ at: match.index, specifier: match[1]! });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.specifier);
}

const builtins = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]));

function forbidden(specifier: string): string | undefined {
  if (/^react(-dom)?(\/|$)/.test(specifier)) return 'React';
  if (specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!)) {
    return 'a Node built-in';
  }
  if (/^\.\.\/(react|vanilla|webhook|sandbox)(\/|$)/.test(specifier)) return 'another layer';
  if (/(^|\/)src\/(react|vanilla|webhook|sandbox)(\/|$)/.test(specifier)) return 'another layer';
  return undefined;
}

describe('import direction of src/core', () => {
  const files = sourceFiles(CORE);

  it('finds the core sources and their imports', () => {
    expect(files.map((f) => relative(CORE, f))).toContain('session.ts');
    const all = files.flatMap((f) => specifiers(readFileSync(f, 'utf8')));
    expect(all).toContain('./validation');
  });

  it('no file imports react, react-dom, node:*, or ../react, ../vanilla, ../webhook, ../sandbox', () => {
    const violations = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8')).flatMap((specifier) => {
        const why = forbidden(specifier);
        return why ? [`${relative(CORE, file)} imports ${specifier} (${why})`] : [];
      }),
    );
    expect(violations).toEqual([]);
  });

  it('the check itself recognises each forbidden form', () => {
    const sample = [
      "import { useState } from 'react';",
      "import type { Root } from 'react-dom/client';",
      "import { createHash } from 'node:crypto';",
      "import fs from 'fs';",
      "export { ServicePay } from '../react/ServicePay';",
      "import type { Store } from '../webhook/idempotency';",
      "const v = await import('../vanilla/index');",
      "const s = require('../sandbox/server');",
      "import './ok-local';",
      "import { x } from './validation';",
    ].join('\n');
    expect(specifiers(sample).map(forbidden)).toEqual([
      'React',
      'React',
      'a Node built-in',
      'a Node built-in',
      'another layer',
      'another layer',
      'another layer',
      'another layer',
      undefined,
      undefined,
    ]);
  });
});
