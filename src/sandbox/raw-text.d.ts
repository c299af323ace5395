// The pages' browser script, imported as text (`?raw`: Vite in tests, rollup.config.mjs's rawText in the
// build) and served as a file; its types are checked on its own (tsconfig.browser.json).
declare module '*.js?raw' {
  const source: string;
  export default source;
}
