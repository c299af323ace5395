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

/**
 * Checks that the reference pages name every public member of their interfaces
 * (`ServicePayProps` and `ServicePaymentApi` in docs/react.md, `ServiceOptions` in
 * docs/script-tag.md, `ExpectedPayment`, `PaymentMismatch` and `WebhookNotificationContext` in
 * docs/webhooks.md, in the tables marked `<!-- reference: Name -->`) and no member the code
 * lacks, and that docs/spec.md has every section that a `spec N.N` comment in src/ cites.
 * `docs` reads another file in place of a page (repository path -> file).
 *
 * @returns One line per error (`docs/react.md:117: error: … has no row for \`messages\` …`);
 *   empty when the pages are complete.
 */
export function checkReferences(options?: {
  root?: string;
  docs?: Record<string, string>;
}): string[];

/**
 * Checks each default documented in a table with a `default` column (marked with the types it
 * documents: `<!-- defaults: Type -->` or `<!-- reference: Type -->`) against the `@default`
 * tag of that member's JSDoc. `docs` reads another file in place of a page.
 *
 * @returns One line per error (`docs/webhooks.md:654: error: the default of \`claimTtlMs\` is
 *   documented as \`20000\`, but … says @default 30000 …: make them agree`); empty when all agree.
 */
export function checkDefaults(options?: { root?: string; docs?: Record<string, string> }): string[];

/**
 * Checks the version the docs tell: docs/spec.md and README.md name package.json's version
 * (`ServicePay <version> implements component version <componentVersion>`), and CHANGELOG.md
 * has one section per released version (a pre-release's changes under `[Unreleased]`).
 * `pages` reads a text in place of a file (repository path -> text).
 *
 * @returns One line per error; empty when the version is told the same everywhere.
 */
export function checkVersion(options?: { root?: string; pages?: Record<string, string> }): string[];

/**
 * Checks that the docs teach one safe way: every code block (any fence, an included file's
 * text too) that builds a receiver names `expectedPayment` (a lookup, or the opt-out
 * `'unreconciled'`), and no SQL updates a row found by the payment's merchantPaymentId.
 * `pages` reads a text in place of a page, or adds one (repository path -> text).
 *
 * @returns One line per offending block (`docs/stores.md:44: error: this block builds a
 *   receiver …`); empty when every block is safe.
 */
export function checkSafety(options?: { root?: string; pages?: Record<string, string> }): string[];

/** The most bytes README.md may have: a front page, its detail in docs/. */
export const README_MAX_BYTES: number;

/**
 * Checks that README.md is at most README_MAX_BYTES bytes. `pages` reads a text in place of it.
 *
 * @returns One line when it is larger; empty otherwise.
 */
export function checkReadme(options?: { root?: string; pages?: Record<string, string> }): string[];

/** The test files that test no one module, each with its reason. */
export const TESTS_OF_NO_ONE_MODULE: Record<string, string>;

/**
 * Checks that every test file of a layer's folder (test/<layer>/…) is named for what it tests:
 * a module of src/<layer> at the same path, a folder of modules, a test helper beside it, or
 * one of TESTS_OF_NO_ONE_MODULE. `files` replaces the repository's test files.
 *
 * @returns The errors (one line per file named for no module), and how many of the layers'
 *   modules have a test file of their own.
 */
export function checkTestNames(options?: { root?: string; files?: string[] }): {
  errors: string[];
  tested: number;
  modules: number;
};
