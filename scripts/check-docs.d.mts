// Types of scripts/check-docs.mjs, for its test (test/build/docs-check.test.ts).

/** The fenced code blocks of a Markdown text. */
export function extractBlocks(markdown: string): {
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** The path of an `<!-- include: path -->` line right before the block. */
  include: string | undefined;
}[];

/** README.md, CONTRIBUTING.md and docs/**\/*.md of the repository. */
export function defaultDocFiles(root?: string): string[];

/** Type-checks the ts/tsx blocks of the given Markdown files (default: defaultDocFiles()). */
export function checkDocs(options?: { files?: string[]; root?: string; cacheDir?: string }): {
  /** One line per error: `docs/react.md:42: error TS2304: …`; empty when all compile. */
  errors: string[];
  /** How many blocks and included files were type-checked. */
  checked: number;
};
