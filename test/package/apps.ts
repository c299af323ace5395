import { inject } from 'vitest';
import { SMOKE_APPS } from './support';
import type { SmokeApps } from './support';

/**
 * The scratch apps that global-setup.ts installed. Read by key rather than through an
 * augmentation of vitest's `ProvidedContext`: tsc does not see .storybook/ (a dot folder), so
 * a second augmentation would turn the storybook project's own `provide` in vitest.config.ts
 * into a type error.
 */
export function smokeApps(): SmokeApps {
  return inject(SMOKE_APPS as never) as SmokeApps;
}
