import { inject } from 'vitest';
import { SMOKE_APPS } from './support';
import type { SmokeApps } from './support';

let apps: Promise<SmokeApps> | undefined;

/**
 * The scratch apps that global-setup.ts installs, once they are installed (it installs them in
 * the background; its endpoint answers when they are ready, or with why they are not). Read by
 * key rather than through an augmentation of vitest's `ProvidedContext`: tsc does not see
 * .storybook/ (a dot folder), so a second augmentation would turn the storybook project's own
 * `provide` in vitest.config.ts into a type error.
 */
export function smokeApps(): Promise<SmokeApps> {
  apps ??= (async () => {
    const response = await fetch(inject(SMOKE_APPS as never) as string);
    const body = (await response.json()) as SmokeApps & { error?: string };
    if (!response.ok) throw new Error(body.error);
    return body;
  })();
  return apps;
}
