import { configureAxe } from 'vitest-axe';

/**
 * axe for jsdom tests. jsdom has no canvas, so colour contrast cannot be computed here: it is
 * checked in the real browser (Storybook's axe run and the end-to-end tests) instead.
 */
export const axe = configureAxe({ rules: { 'color-contrast': { enabled: false } } });
