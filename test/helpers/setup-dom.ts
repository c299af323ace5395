import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { preactEffectsRun } from './preact-effects';

afterEach(cleanup);

// Preact's effect timer (test/helpers/preact-effects.ts) calls cancelAnimationFrame when it
// fires. A file that ends just after a render would have that timer fire once the environment
// had removed cancelAnimationFrame: an uncaught ReferenceError that fails the whole run (seen in
// CI). So each file ends with Preact's scheduled effects run, before the environment goes.
afterAll(preactEffectsRun);
