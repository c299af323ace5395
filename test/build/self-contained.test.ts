// @vitest-environment node
// The repository stands alone: a contributor's or merchant's clone has nothing beside it, so no
// tracked file may read or cite a folder outside the repository (.ci/run also runs the tests in
// a clone placed alone in an empty folder).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && !file.endsWith('package-lock.json') && !file.endsWith('.png'));

/** A path that climbs out of the repository into a sibling folder. */
const OUTSIDE =
  /\.\.\/shared\b|\/work\/shared\b|(?:\.\.\/){3,}(?!node_modules)[\w.-]+\.(?:json|md)\b/;

describe('the repository stands alone', () => {
  it('finds its own files to check', () => {
    expect(tracked).toContain('package.json');
    expect(tracked).toContain('test/fixtures/webhook-signatures.json');
  });

  it('no tracked file reads or cites a folder beside the repository', () => {
    const offenders = tracked.filter((file) => {
      if (file === 'test/build/self-contained.test.ts') return false;
      try {
        return OUTSIDE.test(readFileSync(`${repo}${file}`, 'utf8'));
      } catch {
        return false; // deleted in the work tree
      }
    });
    expect(offenders).toEqual([]);
  });
});
