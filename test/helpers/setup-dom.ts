import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

afterEach(cleanup);

// Preact (window.Service's build) runs effects after the next animation frame, with a 35 ms
// timer as the fallback, which calls cancelAnimationFrame when it fires. A file that ends just
// after a render would have that timer fire once the environment had removed
// cancelAnimationFrame: an uncaught ReferenceError that fails the whole run (seen in CI). One
// frame, then one task, at the end of each file: the frame clears Preact's timers and queues
// its effects, the task lets them run, all before the environment goes.
afterAll(async () => {
  if (typeof requestAnimationFrame !== 'function') return;
  await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  await new Promise<void>((resolve) => setTimeout(resolve));
});
