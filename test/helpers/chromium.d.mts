/** What a closed network needs (CONTRIBUTING.md, "Browsers"); never @sparticuz/chromium's own args. */
export declare const CHROMIUM_ARGS: string[];
/** A real Chromium from npm alone: CHROME_PATH, a system Chromium or Chrome, or @sparticuz/chromium's. */
export declare function chromiumPath(): Promise<string>;
