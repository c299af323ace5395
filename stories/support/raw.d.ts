// A file's text, as Vite's `?raw` import gives it (the hosted stories serve a script from it).
declare module '*.js?raw' {
  const text: string;
  export default text;
}
