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
//
// With no arguments it also checks that the reference pages name everything the code has
// (checkReferences below): every member of the public interfaces in REFERENCES has a row in
// the table marked `<!-- reference: InterfaceName -->` on its page, and every `spec N.N` that a
// comment in src/ cites is a section (or a numbered rule of one) of docs/spec.md; that every
// documented default is its @default (checkDefaults) and the version is told alike
// (checkVersion); that the docs teach one safe way (checkSafety: every receiver says what it
// decided about reconciliation, no SQL updates an order by merchantPaymentId); and that the
// README is a front page of at most README_MAX_BYTES (checkReadme).
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

// The reference pages --------------------------------------------------------------------

/**
 * The public interfaces whose every member must have a row in a table of a page: the table
 * that follows the line `<!-- reference: <type> -->`, whose first column names the members in
 * backticks (several in one cell are fine: `createPayment`, `toggleButton`). Members are read
 * with TypeScript's checker, so inherited ones (extends, Omit<...>) count. `extra` names rows
 * that document something beside the interface (React's `ref` is not a prop of the type).
 */
const REFERENCES = [
  {
    type: 'ServicePayProps',
    source: 'src/react/ServicePayView.tsx',
    doc: 'docs/react.md',
    table: 'the props table (`<ServicePay>` props)',
    extra: ['ref'],
  },
  {
    type: 'ServicePaymentApi',
    source: 'src/react/useServicePayment.ts',
    doc: 'docs/react.md',
    table: 'the table of what `useServicePayment` returns',
    extra: [],
  },
  {
    type: 'ServiceOptions',
    source: 'src/vanilla/service.ts',
    doc: 'docs/script-tag.md',
    table: 'the options table of `window.Service`',
    extra: [],
  },
  {
    type: 'PaymentResultProps',
    source: 'src/react/PaymentResult.tsx',
    doc: 'docs/after-the-bank.md',
    table: 'the props table (`<PaymentResult>` props)',
    extra: [],
  },
  {
    type: 'PaymentReceipt',
    source: 'src/core/protocol.ts',
    doc: 'docs/after-the-bank.md',
    table: 'the table of what was paid (`paid`)',
    extra: [],
  },
  {
    type: 'ExposedFields',
    source: 'src/webhook/status/status-expose.ts',
    doc: 'docs/after-the-bank.md',
    table: 'the table of what `expose` returns',
    extra: [],
  },
  {
    type: 'ExpectedPayment',
    source: 'src/webhook/receiving/expected-payment.ts',
    doc: 'docs/webhooks.md',
    table: 'the table of what `expectedPayment` answers',
    extra: [],
  },
  {
    type: 'PaymentMismatch',
    source: 'src/webhook/receiving/reconcile.ts',
    doc: 'docs/webhooks.md',
    table: 'the table of what `onMismatch` is given',
    extra: [],
  },
  {
    type: 'WebhookNotificationContext',
    source: 'src/webhook/verification/notification.ts',
    doc: 'docs/webhooks.md',
    table: 'the table of the context the receiver’s hooks are given',
    extra: [],
  },
  {
    type: 'SandboxOptions',
    source: 'src/sandbox/api/options.ts',
    doc: 'docs/sandbox.md',
    table: 'the options table of `startSandbox`',
    extra: [],
  },
  {
    type: 'Sandbox',
    source: 'src/sandbox/api/types.ts',
    doc: 'docs/sandbox.md',
    table: 'the table of what `startSandbox` resolves with',
    extra: [],
  },
];

/** Where `spec N.N` citations must lead. */
const SPEC_DOC = 'docs/spec.md';

const MARKER = /^<!--\s*reference:\s*([\w$]+)\s*-->$/;

/** The names of the public members of each interface, inherited ones included. */
function interfaceMembers(root, references) {
  const options = compilerOptions(root);
  const sources = [...new Set(references.map((r) => resolve(root, r.source)))];
  const program = ts.createProgram({ rootNames: sources, options, host: cachingHost(options) });
  const checker = program.getTypeChecker();
  return references.map(({ type, source }) => {
    const file = program.getSourceFile(resolve(root, source));
    const declaration = file?.statements.find(
      (s) => (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name.text === type,
    );
    if (!declaration) return { error: `${source}: error: no interface ${type} found` };
    const symbol = checker.getSymbolAtLocation(declaration.name);
    const members = checker
      .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
      .map((p) => p.getName());
    return { members };
  });
}

/**
 * The tables of a page that are marked `<!-- reference: Type -->`: type -> the line of the
 * marker and the names in backticks in the first column of each row.
 */
function markedTables(markdown) {
  const lines = markdown.split(/\r?\n/);
  const tables = new Map();
  lines.forEach((text, i) => {
    const type = MARKER.exec(text.trim())?.[1];
    if (!type) return;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === '') j++;
    const rows = [];
    for (; j < lines.length && lines[j].trim().startsWith('|'); j++) {
      const cells = lines[j].trim().split(/(?<!\\)\|/);
      const first = cells[1] ?? '';
      // The header row and the |---| row name nothing in backticks.
      const names = [...first.matchAll(/`([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
      rows.push({ line: j + 1, names });
    }
    tables.set(type, { line: i + 1, rows });
  });
  return tables;
}

/** Every `spec N.N` of the comments under src/, with the file and line citing it. */
function specCitations(root) {
  // `spec 4.1`, `spec 5.1.1-5`, `spec 4.4 rule 3`, `spec 4.1 rules 1-2`, `spec 2.4, 7.3`,
  // `spec 2.4 / 7.2`; a citation may run onto the next comment line (` * rule 3`).
  const gap = '[\\s*/]+';
  const one = `\\d+(?:\\.\\d+)*(?:-\\d+)?(?:${gap}rules?${gap}\\d+(?:-\\d+)?)?`;
  const citation = new RegExp(
    `\\bspec${gap}(${one}(?:(?:,|${gap}/|${gap}and)${gap}${one})*)`,
    'gi',
  );
  const found = [];
  const walk = (dir) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(m?[jt]sx?|css)$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(citation)) {
          const line = text.slice(0, match.index).split('\n').length;
          for (const part of match[1].split(/,|\/|\band\b/)) {
            for (const section of expandCitation(part.replace(/[\s*/]+/g, ' ').trim())) {
              found.push({ section, where: `${display(root, path)}:${line}` });
            }
          }
        }
      }
    }
  };
  if (existsSync(join(root, 'src'))) walk(join(root, 'src'));
  return found;
}

/** `5.1.1-5` -> 5.1.1 ... 5.1.5; `4.4 rule 3` -> 4.4.3; `4.1 rules 1-2` -> 4.1.1, 4.1.2. */
function expandCitation(part) {
  const rule = /^(\S+) rules? (\d+)(?:-(\d+))?$/.exec(part);
  const [base, from, to] = rule
    ? [`${rule[1]}.`, Number(rule[2]), Number(rule[3] ?? rule[2])]
    : (() => {
        const range = /^((?:\d+\.)*)(\d+)(?:-(\d+))?$/.exec(part);
        return range ? [range[1], Number(range[2]), Number(range[3] ?? range[2])] : ['', 0, -1];
      })();
  const sections = [];
  for (let n = from; n <= to && n - from < 50; n++) sections.push(`${base}${n}`);
  return sections;
}

/**
 * The sections of docs/spec.md: each heading that starts with its number (`### 4.1 ...`), and
 * each numbered rule directly under one (`2. ...` under `### 4.1` is 4.1.2).
 */
function specSections(markdown) {
  const sections = new Set();
  let current;
  let fence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const heading = /^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/.exec(line);
    if (heading) {
      current = heading[1];
      sections.add(current);
      continue;
    }
    if (/^#{1,6}\s/.test(line)) current = undefined;
    const rule = /^(\d+)\.\s/.exec(line);
    if (rule && current) sections.add(`${current}.${rule[1]}`);
  }
  return sections;
}

/**
 * Checks that the reference pages name every public member of REFERENCES' interfaces (and no
 * member the code no longer has), and that docs/spec.md has every section that src/ cites.
 * `docs` replaces pages by other files (a page's repository path -> the file to read), for the
 * checker's own test. Resolves to the error lines, empty when the pages are complete.
 *
 * @param {{ root?: string, docs?: Record<string, string> }} [options]
 */
export function checkReferences({ root = repoRoot, docs = {} } = {}) {
  const errors = [];
  const page = (doc) => {
    const path = docs[doc] ?? join(root, doc);
    return { name: display(root, path), text: existsSync(path) ? readFileSync(path, 'utf8') : '' };
  };

  const members = interfaceMembers(root, REFERENCES);
  REFERENCES.forEach((reference, i) => {
    const { type, source, table, extra } = reference;
    const result = members[i];
    if (result.error) return errors.push(result.error);
    const { name, text } = page(reference.doc);
    const marked = markedTables(text).get(type);
    if (!marked) {
      errors.push(
        `${name}: error: ${table} is missing: put <!-- reference: ${type} --> on the line before it, with a row per member of ${type} (${source})`,
      );
      return;
    }
    const documented = new Set(marked.rows.flatMap((row) => row.names));
    for (const member of result.members) {
      if (!documented.has(member)) {
        errors.push(
          `${name}:${marked.line}: error: ${table} has no row for \`${member}\`, a member of ${type} (${source}): add one (its type, default and meaning)`,
        );
      }
    }
    const known = new Set([...result.members, ...extra]);
    for (const row of marked.rows) {
      for (const stale of row.names.filter((n) => !known.has(n))) {
        errors.push(
          `${name}:${row.line}: error: ${table} documents \`${stale}\`, which ${type} (${source}) does not have: remove or rename the row`,
        );
      }
    }
  });

  const spec = page(SPEC_DOC);
  const sections = specSections(spec.text);
  const missing = new Map();
  for (const { section, where } of specCitations(root)) {
    if (sections.has(section)) continue;
    if (!missing.has(section)) missing.set(section, []);
    missing.get(section).push(where);
  }
  const byNumber = (a, b) => a.localeCompare(b, 'en', { numeric: true });
  for (const section of [...missing.keys()].sort(byNumber)) {
    const parts = section.split('.');
    const parent = parts.slice(0, -1).join('.');
    const heading = `${'#'.repeat(Math.min(parts.length + 1, 6))} ${section} …`;
    const rule = parent ? ` (or rule \`${parts.at(-1)}.\` under the heading of ${parent})` : '';
    errors.push(
      `${spec.name}: error: spec ${section} is cited by ${missing.get(section).join(', ')} but ${spec.name} has no section ${section}: add a heading \`${heading}\`${rule}`,
    );
  }
  return errors;
}

// The documented defaults ----------------------------------------------------------------

/**
 * Every table of a page whose header has a `default` column documents the defaults of members
 * of interfaces in src/, and must say which: the line before it (blank lines and other comments
 * aside) is `<!-- reference: Type -->` or `<!-- defaults: Type, OtherType -->`, each type a name
 * declared once under src/ (else `src/path.ts#Type`). Tables that document something else (the
 * service's specification, a CLI's example values) say so: `<!-- defaults: unchecked, why -->`.
 *
 * A row's default (the cell of that column, for each member named in backticks in its first
 * cell) is compared with the `@default` tag of the member's JSDoc, in the first listed type that
 * has the member (inherited members count):
 * - a literal (the cell's first `code span`, or a cell that is a number, true or false) must
 *   begin the tag's text, quotes and digit separators aside: `30000` (30 s) matches
 *   `@default 30000`, `'Service'` matches `@default 'Service'`;
 * - a cell that says there is none (`none`, `—`, `required`, empty) needs a tag that is absent
 *   or starts `undefined`, `none` or `no`;
 * - other prose is read by people only (`English`, `a new UUID`) and is not compared.
 * A member that none of the types has is an error too (a renamed or removed option).
 */
const DEFAULTS_MARKER = /^<!--\s*(?:reference|defaults):\s*(.+?)\s*-->$/;

/** The tables with a `default` column: their marker's types, header line and rows. */
function defaultTables(markdown) {
  const lines = markdown.split(/\r?\n/);
  const tables = [];
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i])) fence = !fence;
    if (fence || !lines[i].trim().startsWith('|')) continue;
    const cells = (line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim());
    const header = cells(lines[i]);
    const column = header.findIndex((cell) => cell.toLowerCase() === 'default');
    const start = i;
    let j = i + 1;
    const rows = [];
    for (; j < lines.length && lines[j].trim().startsWith('|'); j++) {
      if (j === i + 1) continue; // the |---| row
      const row = cells(lines[j]);
      const names = [...(row[0] ?? '').matchAll(/`([A-Za-z_$][\w$]*)/g)].map((m) => m[1]);
      rows.push({ line: j + 1, names, cell: row[column] ?? '' });
    }
    i = j;
    if (column < 0) continue;
    let k = start - 1;
    let marker;
    while (k >= 0 && (lines[k].trim() === '' || lines[k].trim().startsWith('<!--'))) {
      marker ??= DEFAULTS_MARKER.exec(lines[k].trim())?.[1];
      k--;
    }
    tables.push({ line: start + 1, marker, rows });
  }
  return tables;
}

/** Every .ts and .tsx file under src/. */
function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(join(root, 'src'));
  return files.sort();
}

/** `'a_b'` -> `a_b`, `10_000` -> `10000`: the text compared. */
const literalText = (text) =>
  text
    .trim()
    .replace(/^(['"`])(.*?)\1/, '$2')
    .replace(/(?<=\d)_(?=\d)/g, '');

/** What a documented default cell says: nothing, a literal, or prose (not compared). */
function documentedDefault(cell) {
  const text = cell.trim();
  if (/^(|—|-|none\b.*|required\b.*)$/i.test(text)) return { none: true };
  const code = /^(`+)\s?(.*?)\s?\1(?!`)/.exec(text);
  if (code) return { literal: code[2] };
  if (/^(-?\d[\d_]*(\.\d+)?|true|false)$/.test(text)) return { literal: text };
  return {};
}

/**
 * Checks each documented default against the code's `@default` (see defaultTables above).
 * `docs` replaces pages by other files, as checkReferences' does. Resolves to the error lines.
 *
 * @param {{ root?: string, docs?: Record<string, string> }} [options]
 */
export function checkDefaults({ root = repoRoot, docs = {} } = {}) {
  const errors = [];
  const pages = defaultDocFiles(root).map((path) => {
    const doc = display(root, path);
    const file = docs[doc] ?? path;
    return { doc, name: display(root, file), text: readFileSync(file, 'utf8') };
  });
  const options = compilerOptions(root);
  const program = ts.createProgram({
    rootNames: sourceFiles(root),
    options,
    host: cachingHost(options),
  });
  const checker = program.getTypeChecker();
  /** Type name -> its declarations under src/, with their files. */
  const declared = new Map();
  for (const file of program.getSourceFiles()) {
    const path = display(root, file.fileName);
    if (!path.startsWith('src/') || file.isDeclarationFile) continue;
    for (const statement of file.statements) {
      if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
      const list = declared.get(statement.name.text) ?? [];
      list.push({ path, statement });
      declared.set(statement.name.text, list);
    }
  }
  const resolveType = (spec) => {
    const [path, name] = spec.includes('#') ? spec.split('#') : [undefined, spec];
    const found = (declared.get(name) ?? []).filter((d) => path === undefined || d.path === path);
    const reference = REFERENCES.find((r) => r.type === name && path === undefined);
    const chosen = reference ? found.filter((d) => d.path === reference.source) : found;
    if (chosen.length !== 1) {
      return {
        error:
          chosen.length === 0
            ? `no interface or type ${spec} is declared under src/`
            : `${name} is declared in ${chosen.map((d) => d.path).join(' and ')}: name one as \`src/path.ts#${name}\``,
      };
    }
    const { path: source, statement } = chosen[0];
    const type = checker.getTypeAtLocation(statement.name);
    return { name, source, type };
  };

  for (const { name: page, text } of pages) {
    if (text === '') continue;
    for (const table of defaultTables(text)) {
      if (table.marker === undefined) {
        errors.push(
          `${page}:${table.line}: error: this table has a default column but names no type: put <!-- defaults: Type --> (the interface under src/ whose @default tags the column documents) on the line before it, or <!-- defaults: unchecked, <why> -->`,
        );
        continue;
      }
      if (/^unchecked\b/.test(table.marker)) continue;
      const types = table.marker.split(',').map((spec) => resolveType(spec.trim()));
      const unresolved = types.find((t) => t.error);
      if (unresolved) {
        errors.push(`${page}:${table.line}: error: ${unresolved.error}`);
        continue;
      }
      const extras = new Set(
        REFERENCES.filter((r) => types.some((t) => t.name === r.type)).flatMap((r) => r.extra),
      );
      for (const row of table.rows) {
        const said = documentedDefault(row.cell);
        for (const member of row.names) {
          // Rows beside the interface that its reference table allows (React's `ref`).
          if (extras.has(member)) continue;
          const owner = types.find((t) => t.type.getProperty(member) !== undefined);
          if (!owner) {
            errors.push(
              `${page}:${row.line}: error: \`${member}\` is documented, but ${types.map((t) => `${t.name} (${t.source})`).join(', ')} has no such member: rename or remove the row`,
            );
            continue;
          }
          const symbol = owner.type.getProperty(member);
          const tag = symbol.getJsDocTags(checker).find((t) => t.name === 'default');
          const code = tag ? ts.displayPartsToString(tag.text).trim() : undefined;
          // The file that declares the member (an inherited one is in another).
          const declaredIn = symbol.declarations?.[0]?.getSourceFile().fileName;
          const where = `${owner.name}.${member} (${declaredIn ? display(root, declaredIn) : owner.source})`;
          if (said.none) {
            if (code === undefined || /^(undefined|none|no)\b/.test(code)) continue;
            errors.push(
              `${page}:${row.line}: error: the default of \`${member}\` is documented as none, but ${where} says @default ${code}: make them agree`,
            );
          } else if (said.literal !== undefined) {
            const doc = literalText(said.literal);
            const written = code === undefined ? undefined : literalText(code);
            const agrees =
              written !== undefined &&
              (written === doc ||
                (written.startsWith(doc) && /^[\s(,;]/.test(written.slice(doc.length))));
            if (agrees) continue;
            errors.push(
              code === undefined
                ? `${page}:${row.line}: error: the default of \`${member}\` is documented as \`${said.literal}\`, but ${where} has no @default: add \`@default ${said.literal}\` to its JSDoc`
                : `${page}:${row.line}: error: the default of \`${member}\` is documented as \`${said.literal}\`, but ${where} says @default ${code}: make them agree`,
            );
          }
        }
      }
    }
  }
  return errors;
}

// One safe way ------------------------------------------------------------------------------

/** The calls that build a webhook receiver. */
const RECEIVER_CALL = /\b(createWebhookHandler|createFetchWebhookHandler|listenWebhook)\s*\(/;
/** SQL that updates a row found by the payment's merchantPaymentId. */
const UPDATE_BY_MERCHANT_ID =
  /\bUPDATE\b[^;`]*?\bWHERE\b[^;`]*?\b(merchant_?payment_?id|merchantPaymentId)\b/i;

/**
 * The docs teach one safe way (docs/webhooks.md, "Reconciliation"): every code block that builds
 * a receiver says what it decided about reconciliation (`expectedPayment`, a lookup or the
 * opt-out `'unreconciled'`), and no SQL updates an order by the payment's merchantPaymentId,
 * which the page makes and renews after every attempt: an order is found by the order id your
 * server made. Any fence counts (ts, js, sql, …), and so does an included file's text.
 * `pages` reads a text in place of a page (repository path -> text), for the checker's test.
 *
 * @param {{ root?: string, pages?: Record<string, string> }} [options]
 */
export function checkSafety({ root = repoRoot, pages = {} } = {}) {
  const errors = [];
  const files = [
    ...new Set([...defaultDocFiles(root).map((f) => display(root, f)), ...Object.keys(pages)]),
  ];
  for (const file of files) {
    const text = pages[file] ?? readFileSync(join(root, file), 'utf8');
    for (const block of extractBlocks(text)) {
      const code = block.include ? readFileSync(join(root, block.include), 'utf8') : block.code;
      const call = RECEIVER_CALL.exec(code);
      if (call && !/\bexpectedPayment\b/.test(code)) {
        errors.push(
          `${file}:${block.line}: error: this block builds a receiver (${call[1]}) without expectedPayment: reconcile with the order (docs/webhooks.md, "Reconciliation"), or say expectedPayment: 'unreconciled'`,
        );
      }
      if (UPDATE_BY_MERCHANT_ID.test(code)) {
        errors.push(
          `${file}:${block.line}: error: this SQL updates a row by the payment's merchantPaymentId, which the page renews after every attempt: update the order by the order id behind it (expectedPayment's orderId)`,
        );
      }
    }
  }
  return errors;
}

// The front page --------------------------------------------------------------------------

/** The README is a front page: what the package is, a first payment, where the rest is. */
export const README_MAX_BYTES = 14_000;

/**
 * The README's size in bytes, at most README_MAX_BYTES: detail goes to docs/, which the README
 * links. `pages` reads a text in place of a file, for the checker's test.
 *
 * @param {{ root?: string, pages?: Record<string, string> }} [options]
 */
export function checkReadme({ root = repoRoot, pages = {} } = {}) {
  const text = pages['README.md'] ?? readFileSync(join(root, 'README.md'), 'utf8');
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes <= README_MAX_BYTES
    ? []
    : [
        `README.md: error: ${bytes} bytes, over the front page's ${README_MAX_BYTES}: move the detail to a page of docs/ and link it`,
      ];
}

// The test files' names ---------------------------------------------------------------------

/** The folders of test/ that mirror a layer of src/ (the others hold journeys and helpers). */
const TESTED_LAYERS = ['core', 'react', 'vanilla', 'hosted', 'webhook', 'sandbox'];

/**
 * The test files that test no one module, each with the reason (CONTRIBUTING.md, "Tests are
 * named for what they test"). A file named for a module matches itself to the module; only
 * these may name none.
 */
export const TESTS_OF_NO_ONE_MODULE = {
  'test/core/import-direction.test.ts':
    "the layer's imports: what every file of src/core may import",
  'test/react/types.test-d.tsx': "the entry's public types (servicepay)",
  'test/vanilla/types.test-d.ts': "the entry's public types (servicepay/vanilla)",
  'test/webhook/types.test-d.ts': "the entries' public types (servicepay/webhook and its subpaths)",
  'test/webhook/verification/verify.test.ts':
    'verifyWebhookSignature, whose two implementations are node-crypto.ts and web-crypto.ts',
  'test/webhook/verification/verify.properties.test.ts': 'the same, by properties',
  'test/webhook/verification/vectors.test.ts':
    'the shared signature vectors, through both verifiers',
  'test/webhook/stores/store-examples.test.ts':
    "the docs' store examples (examples/stores/) run as pasted",
  'test/sandbox/units.test.ts': "the sandbox's small helpers, several modules",
};

/**
 * Every test file of a layer's folder (test/<layer>/...) is named for what it tests:
 * `<module>[.<aspect>].test.ts(x)` (or `.test-d.ts(x)`) beside the path of
 * `src/<layer>/.../<module>.ts(x)`, of a folder of modules `src/<layer>/.../<module>/`, or of
 * a test helper beside it (`test/.../support/<module>.ts`); or it is one of
 * TESTS_OF_NO_ONE_MODULE. Returns the errors, and how many modules of src/ have a file of
 * their own (the rest are tested through the modules that use them). `files` replaces the
 * repository's test files, for the checker's own test.
 *
 * @param {{ root?: string, files?: string[] }} [options]
 */
export function checkTestNames({ root = repoRoot, files } = {}) {
  const list = (dir) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
          const path = `${dir}/${entry.name}`;
          return entry.isDirectory() ? list(path) : [path];
        })
      : [];
  const tests = (files ?? TESTED_LAYERS.flatMap((layer) => list(`test/${layer}`))).filter((f) =>
    /\.test(-d)?\.tsx?$/.test(f),
  );
  const exists = (path) => existsSync(join(root, path));
  const errors = [];
  const tested = new Set();
  for (const file of tests) {
    if (file in TESTS_OF_NO_ONE_MODULE) continue;
    const folder = dirname(file);
    const module = file.slice(folder.length + 1).split('.')[0];
    const src = `src${folder.slice('test'.length)}/${module}`;
    const found = [
      `${src}.ts`,
      `${src}.tsx`,
      src,
      `${folder}/${module}.ts`,
      `${folder}/${module}.mjs`,
    ].find(exists);
    if (found) tested.add(found);
    else {
      errors.push(
        `${file}: error: named for no module: name it <module>[.<aspect>].test.ts after ${src}.ts, or list it in TESTS_OF_NO_ONE_MODULE (scripts/check-docs.mjs) with its reason`,
      );
    }
  }
  const modules = TESTED_LAYERS.flatMap((layer) => list(`src/${layer}`)).filter(
    (f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'),
  ).length;
  return {
    errors,
    tested: [...tested].filter((f) => f.startsWith('src/') && /\.tsx?$/.test(f)).length,
    modules,
  };
}

// The version the docs name ----------------------------------------------------------------

/**
 * The package's version as the docs tell it: docs/spec.md and the README name package.json's
 * version exactly (`ServicePay 0.12.0-next.0 implements component version 0.9.3`), and the
 * CHANGELOG has one section per released version. A pre-release (`0.12.0-next.0`) is not
 * released: its changes are under `[Unreleased]`, and no section names its version yet; a
 * release has its section, dated. `pages` replaces files by text, for the checker's own test.
 *
 * @param {{ root?: string, pages?: Record<string, string> }} [options]
 */
export function checkVersion({ root = repoRoot, pages = {} } = {}) {
  const read = (file) => pages[file] ?? readFileSync(join(root, file), 'utf8');
  const { version, componentVersion } = JSON.parse(read('package.json'));
  const errors = [];
  const claim = `ServicePay ${version} implements component version ${componentVersion}`;
  for (const file of [SPEC_DOC, 'README.md']) {
    if (!read(file).replace(/\s+/g, ' ').includes(claim)) {
      errors.push(
        `${file}: error: it must name the package's version as package.json has it: "${claim}."`,
      );
    }
  }
  const headings = [...read('CHANGELOG.md').matchAll(/^## (.+)$/gm)].map((m) => m[1].trim());
  const released = headings.filter((h) => h !== '[Unreleased]').map((h) => h.split(/\s/)[0]);
  const repeated = released.filter((v, i) => released.indexOf(v) !== i);
  if (repeated.length > 0) {
    errors.push(`CHANGELOG.md: error: more than one section for ${repeated.join(', ')}`);
  }
  const prerelease = version.includes('-');
  const base = version.split('-')[0];
  if (prerelease && released.includes(base)) {
    errors.push(
      `CHANGELOG.md: error: ${base} has a section, but package.json says ${version}, a pre-release of it: cut the release (version ${base}) or move the section under [Unreleased]`,
    );
  }
  if (
    !prerelease &&
    !headings.some((h) =>
      new RegExp(`^${version.replace(/\./g, '\\.')} — \\d{4}-\\d{2}-\\d{2}$`).test(h),
    )
  ) {
    errors.push(
      `CHANGELOG.md: error: no dated section "## ${version} — YYYY-MM-DD" for the version package.json names`,
    );
  }
  if (prerelease && headings[0] !== '[Unreleased]') {
    errors.push(
      `CHANGELOG.md: error: a pre-release's changes go under "## [Unreleased]", the first section`,
    );
  }
  return errors;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2).map((f) => resolve(f));
  const { errors, checked } = checkDocs({ files: args.length > 0 ? args : undefined });
  for (const line of errors) console.error(line);
  // The reference pages, the one safe way and the front page are checked on a run over the
  // whole repository only.
  const whole = args.length === 0;
  const names = checkTestNames();
  const missing = whole
    ? [...checkReferences(), ...checkDefaults(), ...checkVersion(), ...names.errors]
    : [];
  for (const line of missing) console.error(line);
  const unsafe = whole ? [...checkSafety(), ...checkReadme()] : [];
  for (const line of unsafe) console.error(line);
  if (errors.length > 0 || missing.length > 0 || unsafe.length > 0) {
    if (errors.length > 0) {
      console.error(`\ncheck:docs: ${errors.length} error(s) in the code blocks of the docs`);
    }
    if (missing.length > 0) {
      console.error(`check:docs: ${missing.length} thing(s) the code has that the docs lack`);
    }
    if (unsafe.length > 0) {
      console.error(
        `check:docs: ${unsafe.length} thing(s) the docs teach that they must not (an unreconciled receiver, an order updated by merchantPaymentId, a README past its size)`,
      );
    }
    process.exit(1);
  }
  console.log(`check:docs: ${checked} code block(s) and included files compile`);
  if (args.length === 0) {
    console.log(
      `check:docs: ${REFERENCES.map((r) => r.type).join(', ')} are documented in full; every spec section cited in src/ is in ${SPEC_DOC}; every documented default is its @default`,
    );
    console.log(
      `check:docs: every receiver in the docs says what it decided about reconciliation, no SQL updates an order by merchantPaymentId, and README.md is within ${README_MAX_BYTES} bytes`,
    );
    console.log(
      `check:docs: every test file is named for what it tests (${names.tested} of ${names.modules} modules of src/ have a file of their own)`,
    );
  }
}
