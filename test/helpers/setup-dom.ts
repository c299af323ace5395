import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import * as axeMatchers from 'vitest-axe/matchers';

expect.extend(axeMatchers);
afterEach(cleanup);

// jsdom has no canvas; axe probes it (colour contrast, icon fonts) and jsdom logs a
// "not implemented" error for each probe. Answer as a browser without 2D support would.
// (The server-rendering test runs this setup in plain Node, without a DOM.)
if (typeof HTMLCanvasElement !== 'undefined') HTMLCanvasElement.prototype.getContext = () => null;
