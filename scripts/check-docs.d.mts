// Types of scripts/check-docs.mjs, for its test (test/build/docs-check.test.ts).

/**
 * Type-checks the ts/tsx blocks of the given Markdown files (default: README.md,
 * CONTRIBUTING.md and docs/**\/*.md of the repository).
 */
export function checkDocs(options?: { files?: string[]; root?: string }): {
  /** One line per error: `docs/react.md:42: error TS2304: …`; empty when all compile. */
  errors: string[];
  /** How many blocks and included files were type-checked. */
  checked: number;
};
