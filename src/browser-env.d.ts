// What browser code may assume of its environment, for `tsc -p tsconfig.browser.json` (which
// checks src/core, src/react and src/vanilla without Node's types): bundlers replace
// `process.env.NODE_ENV`, and nothing else of Node exists in a browser.
declare const process: { readonly env: { readonly NODE_ENV?: string } };
