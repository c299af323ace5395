import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MESSAGE_PREFIX, said } from '../../src/core/protocol';

// The library's own messages get their prefix in one place (issue 48): `said`, which the console
// helpers (src/core/console.ts) and every message of the browser layers use. The spec's own
// messages and a transport's errors never get it: they are tested where they are reported
// (validation.*.test.ts, session.backend-address.test.ts).

describe('said', () => {
  it('puts the one prefix before a message of the library’s own', () => {
    expect(MESSAGE_PREFIX).toBe('servicepay: ');
    expect(said('toggleButton expects true or false, got "yes"')).toBe(
      'servicepay: toggleButton expects true or false, got "yes"',
    );
  });
});

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
/** The browser layers, whose messages all go through `said`. */
const LAYERS = ['core', 'react', 'vanilla', 'hosted'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments (a comment may name the prefix). */
const code = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

describe('the prefix, added in one place', () => {
  it('no message of the browser layers types it, nor adds MESSAGE_PREFIX itself', () => {
    const typed = LAYERS.flatMap((layer) => sourceFiles(join(SRC, layer)))
      .filter((file) => {
        const text = code(readFileSync(file, 'utf8'));
        return /servicepay: /.test(text) || /\$\{\s*(MESSAGE_)?PREFIX\s*\}|PREFIX\s*\+/.test(text);
      })
      .map((file) => relative(SRC, file));
    // protocol.ts defines it and `said`.
    expect(typed).toEqual(['core/protocol.ts']);
  });
});
