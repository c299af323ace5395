// `npm run sync:integrity` (after `npm run build`): writes the SRI hashes of the standalone files
// (dist/standalone/integrity.json, which the build makes) into docs/script-tag.md's table, so
// that the docs a merchant copies from always match the release. test/build/dist.test.ts fails
// when they differ; this is the fix it names.
import { readFile, writeFile } from 'node:fs/promises';

const root = new URL('..', import.meta.url);
const hashes = JSON.parse(await readFile(new URL('dist/standalone/integrity.json', root), 'utf8'));
const docsUrl = new URL('docs/script-tag.md', root);
const docs = await readFile(docsUrl, 'utf8');
let changed = 0;
const next = docs.replace(/^\| `([^`]+)`(\s*)\| `(sha384-[^`]+)` \|$/gm, (row, file, pad, hash) => {
  const now = hashes[file];
  if (now === undefined || now === hash) return row;
  changed += 1;
  return `| \`${file}\`${pad}| \`${now}\` |`;
});
await writeFile(docsUrl, next);
console.log(`sync:integrity: ${changed} hash(es) updated in docs/script-tag.md`);
