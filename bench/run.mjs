// `npm run bench`: runs every bench/*.bench.mjs, prints one table of figures beside the
// baseline measured in the same run, and exits non-zero when a budget is missed.
// A bench module exports `async function run(): Promise<Row[]>` with
// Row = { name, unit, value, baseline?, ratio?, budget: string, ok: boolean }; a row with no
// budget is a reference figure, printed for review and never failing the run.
// `npm run bench -- size webhook` runs only the modules whose file name contains a word;
// `--markdown` prints the table as Markdown (the README's "Benchmarks" section).
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
const only = args.filter((arg) => !arg.startsWith('--'));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows = [];
for (const file of files) {
  const mod = await import(pathToFileURL(join(here, file)).href);
  rows.push(...(await mod.run()));
}

const fmt = (n) =>
  typeof n === 'number' ? (Number.isInteger(n) ? String(n) : n.toFixed(2)) : (n ?? '');
const table = [
  ['figure', 'value', 'baseline', 'ratio', 'budget', 'ok'],
  ...rows.map((r) => [
    r.name,
    `${fmt(r.value)} ${r.unit ?? ''}`.trim(),
    r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit ?? ''}`.trim(),
    r.ratio === undefined ? '' : r.ratio.toFixed(3),
    r.budget ?? 'reference',
    r.budget === undefined ? '' : r.ok ? 'yes' : 'NO',
  ]),
];
if (markdown) {
  // Markdown: `|` in a figure's name is escaped; prettier aligns the columns afterwards.
  const line = (row) => `| ${row.map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`;
  console.log(line(table[0]));
  console.log(line(table[0].map(() => '---')));
  for (const row of table.slice(1)) console.log(line(row));
} else {
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)));
  for (const row of table) console.log(row.map((c, i) => String(c).padEnd(widths[i])).join('  '));
}
const cpu = cpus();
console.log(
  `\nmeasured ${new Date().toISOString()} on node ${process.version}, ${process.platform}/${process.arch}, ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores`,
);

const missed = rows.filter((r) => r.budget !== undefined && !r.ok);
if (missed.length > 0) {
  console.error(`\nbudget missed: ${missed.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
