// The few jsdom members the accessibility test uses (@types/jsdom is not installed; the React
// tests get jsdom through vitest's environment instead of importing it).
declare module 'jsdom' {
  export class JSDOM {
    constructor(
      html: string,
      options?: { url?: string; runScripts?: 'outside-only' | 'dangerously' },
    );
    readonly window: Window & { eval(source: string): unknown; close(): void };
  }
}
