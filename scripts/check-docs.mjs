// `npm run check:docs`: every ```ts and ```tsx block of README.md, CONTRIBUTING.md and
// docs/**/*.md must compile as pasted. Each block is written as a module of its own and the
// whole set is type-checked in one TypeScript program, with `servicepay/*` resolved to the
// sources through tsconfig.json's alias map and other packages (express, react, node's types)
// from node_modules. Errors are reported at the Markdown line: `docs/react.md:42: error TS2304`.
//
// Conventions (also in CONTRIBUTING.md):
// - A first line `// app/checkout/page.tsx` names the block's file: blocks of one Markdown file
//   that name their files can import each other (`import { PayButton } from './pay-button'`).
//   A later block naming the same file is an alternative version, checked on its own.
// - `<!-- include: examples/webhook-node/server.ts -->` on the line before a block requires the
//   block to be exactly that file's text; the file itself is type-checked instead.
// - Blocks that are not meant to compile use ```sh, ```text, ```json, ```html, ...
//
// `node scripts/check-docs.mjs [file.md ...]` checks the given files instead of the defaults.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Languages type-checked; every other fence is left alone. */
const CHECKED = new Set(['ts', 'tsx', 'typescript', 'mts']);
const INCLUDE = /^<!--\s*include:\s*(\S+)\s*-->$/;
const FILE_NAME = /^\/\/\s*([\w@.[\]()-]+(?:\/[\w@.[\]()-]+)*\.(?:tsx?|mts))\s*$/;

/** The Markdown files checked by default: README.md, CONTRIBUTING.md, docs/**\/*.md. */
function defaultDocFiles(root) {
  const files = ['README.md', 'CONTRIBUTING.md'].map((f) => join(root, f)).filter(existsSync);
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files;
}

/**
 * The fenced code blocks of a Markdown text: language, 1-based line of the opening fence,
 * the code, and the include directive before it if any.
 */
function extractBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j].trimStart();
      if (close.startsWith(fence) && close.slice(fence.length).trim() === '') break;
      // Inside a list item the block is indented: the code is not.
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    const include = k >= 0 ? INCLUDE.exec(lines[k].trim())?.[1] : undefined;
    blocks.push({ lang: lang.toLowerCase(), line: i + 1, code: body.join('\n'), include });
    i = j;
  }
  return blocks;
}

/** Compiler options: tsconfig.json's (its alias map above all), with the docs' settings on top. */
function compilerOptions(root) {
  const configPath = join(root, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  return {
    ...parsed.options,
    strict: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
    // A block without imports is still a module of its own: blocks never share globals.
    moduleDetection: ts.ModuleDetectionKind.Force,
    // The blocks are modules pasted into an app, not part of the project's file list.
    composite: false,
    incremental: false,
  };
}

/**
 * Parsed declaration files (TypeScript's lib, @types/*, packages' .d.ts), kept for the next
 * check in the same process: they do not change between runs, and parsing them is most of a
 * run's time (the checker's own test runs it several times).
 */
const declarations = new Map();

function cachingHost(options) {
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    if (!fileName.endsWith('.d.ts')) return getSourceFile(fileName, languageVersion, ...rest);
    const key = `${JSON.stringify(languageVersion)}:${fileName}`;
    if (!declarations.has(key)) {
      declarations.set(key, getSourceFile(fileName, languageVersion, ...rest));
    }
    return declarations.get(key);
  };
  return host;
}

const display = (root, path) => {
  const rel = relative(root, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/');
};

/**
 * Checks the given Markdown files. Resolves to the list of error lines (empty when every
 * block compiles) and the number of blocks checked.
 *
 * @param {{ files?: string[], root?: string }} [options]
 */
export function checkDocs({ files, root = repoRoot } = {}) {
  const docs = files ?? defaultDocFiles(root);
  // Inside the repository, so that `express`, `react`, ... resolve from its node_modules; one
  // folder per run, so that two runs at once (npm test and the checker's own test) never mix.
  const out = join(root, 'node_modules', '.cache', `check-docs-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  try {
    return checkInto(docs, root, out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function checkInto(docs, root, out) {
  const errors = [];
  /** Written module path -> where its text came from, to map diagnostics back. */
  const origin = new Map();
  const roots = [];
  let checked = 0;

  docs.forEach((docPath, docIndex) => {
    const doc = display(root, docPath);
    const folder = join(out, `${docIndex}-${doc.replace(/[^\w.-]+/g, '_')}`);
    for (const block of extractBlocks(readFileSync(docPath, 'utf8'))) {
      if (block.include) {
        const included = resolve(root, block.include);
        if (!existsSync(included)) {
          errors.push(`${doc}:${block.line}: error: included file ${block.include} not found`);
          continue;
        }
        const text = readFileSync(included, 'utf8').replace(/\n$/, '');
        if (text !== block.code.replace(/\n$/, '')) {
          errors.push(
            `${doc}:${block.line}: error: block differs from ${block.include}; paste the file's current text`,
          );
        }
        if (/\.(tsx?|mts)$/.test(included) && !origin.has(included)) {
          origin.set(included, { doc: display(root, included), firstLine: 1 });
          roots.push(included);
          checked++;
        }
        continue;
      }
      if (!CHECKED.has(block.lang)) continue;
      const named = FILE_NAME.exec(block.code.split('\n', 1)[0] ?? '')?.[1];
      const extension = block.lang === 'tsx' ? 'tsx' : 'ts';
      let file = join(folder, named ?? `line-${block.line}.${extension}`);
      // Two blocks naming the same file are alternatives (say, two versions of a route): the
      // later one gets a folder of its own.
      if (origin.has(file)) file = join(folder, `alternative-${block.line}`, named ?? '');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${block.code}\n`);
      origin.set(file, { doc, firstLine: block.line + 1 });
      roots.push(file);
      checked++;
    }
  });

  if (roots.length > 0) {
    const options = compilerOptions(root);
    const program = ts.createProgram({ rootNames: roots, options, host: cachingHost(options) });
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...roots.flatMap((file) => {
        const source = program.getSourceFile(file);
        return source
          ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
          : [];
      }),
    ];
    for (const d of diagnostics) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
      const where = d.file ? origin.get(resolve(d.file.fileName)) : undefined;
      if (d.file && d.start !== undefined && where) {
        const { line } = d.file.getLineAndCharacterOfPosition(d.start);
        errors.push(`${where.doc}:${where.firstLine + line}: error TS${d.code}: ${message}`);
      } else {
        errors.push(
          `${d.file ? display(root, d.file.fileName) : 'tsc'}: error TS${d.code}: ${message}`,
        );
      }
    }
  }
  return { errors, checked };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).map((f) => resolve(f));
  const { errors, checked } = checkDocs({ files: args.length > 0 ? args : undefined });
  for (const line of errors) console.error(line);
  if (errors.length > 0) {
    console.error(`\ncheck:docs: ${errors.length} error(s) in the code blocks of the docs`);
    process.exit(1);
  }
  console.log(`check:docs: ${checked} code block(s) and included files compile`);
}
