// vitest-axe 0.1.0 registers its matcher types for an older vitest; re-declare them for vitest 4.
import 'vitest';

declare module 'vitest' {
  interface Assertion {
    toHaveNoViolations(): void;
  }
  interface AsymmetricMatchersContaining {
    toHaveNoViolations(): void;
  }
}
