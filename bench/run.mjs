// `npm run bench`: runs every bench/*.bench.mjs, prints one table of figures beside the
// baseline measured in the same run, and exits non-zero when a budget is missed.
// A bench module exports `async function run(): Promise<Row[]>` with
// Row = { name, unit, value, baseline?, ratio?, budget: string, ok: boolean }; a row with no
// budget is a reference figure, printed for review and never failing the run.
// `npm run bench -- size webhook` runs only the modules whose file name contains a word;
// `--markdown` prints the table as Markdown. A run of every module also writes the table, with
// the date and the machine, to docs/benchmarks.md (a partial run would leave rows out),
// keeping the file's hand-written "## Notes".
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
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
// Markdown: `|` in a figure's name is escaped; prettier aligns the columns afterwards.
const markdownLine = (row) => `| ${row.map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`;
const markdownTable = [
  markdownLine(table[0]),
  markdownLine(table[0].map(() => '---')),
  ...table.slice(1).map(markdownLine),
].join('\n');
if (markdown) {
  console.log(markdownTable);
} else {
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)));
  for (const row of table) console.log(row.map((c, i) => String(c).padEnd(widths[i])).join('  '));
}
const cpu = cpus();
const measured = new Date();
const machine = `node ${process.version}, ${process.platform}/${process.arch}, ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores`;
console.log(`\nmeasured ${measured.toISOString()} on ${machine}`);
const NOTES = '\n## Notes\n';
if (only.length === 0) await writeReport();

/**
 * docs/benchmarks.md: this run's table, formatted as prettier would (it is checked in). Its
 * "## Notes" section, written by hand (what a figure measured in which runs, and why), is kept.
 */
async function writeReport() {
  const file = join(here, '..', 'docs', 'benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const notes = previous.includes(NOTES) ? previous.slice(previous.indexOf(NOTES)) : '';
  const when = `${measured.toISOString().slice(0, 10)} (${measured.toISOString().slice(11, 16)} UTC)`;
  const text = `<!-- Written by \`npm run bench\` (bench/run.mjs) on every full run: do not edit by hand. -->

# Benchmarks

Measured ${when} on a shared machine:
${machine}.

Speed figures are measured beside a baseline in the same run, in alternating rounds, and
compared by the median of the per-round ratios: on a shared, noisy machine read the ratio
rather than the times. Sizes are min+gzip bytes
(1 kB = 1000 B) as a merchant's production bundle receives them.

${markdownTable}

How each figure is measured: [CONTRIBUTING.md](../CONTRIBUTING.md#benchmarks). Why the budgets
are what they are: [decisions.md](decisions.md#budgets-and-measurement).
${notes}`;
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
  console.log(`wrote ${file}`);
}

const missed = rows.filter((r) => r.budget !== undefined && !r.ok);
if (missed.length > 0) {
  console.error(`\nbudget missed: ${missed.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
