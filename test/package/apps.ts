import { inject } from 'vitest';
import { SMOKE_APPS } from './support';
import type { NextjsApp, SmokeApps } from './support';

const asked = new Map<string, Promise<unknown>>();

/**
 * What global-setup.ts prepares in the background, once it is ready: its endpoint answers when
 * it is, or with why it is not. The endpoint's address is read by key rather than through an
 * augmentation of vitest's `ProvidedContext`: tsc does not see .storybook/ (a dot folder), so a
 * second augmentation would turn the storybook project's own `provide` in vitest.config.ts
 * into a type error.
 */
function ask<T>(name: 'apps' | 'nextjs'): Promise<T> {
  let answer = asked.get(name);
  if (answer === undefined) {
    answer = (async () => {
      const response = await fetch(`${inject(SMOKE_APPS as never) as string}/${name}`);
      const body = (await response.json()) as { error?: string };
      if (!response.ok) throw new Error(body.error);
      return body;
    })();
    asked.set(name, answer);
  }
  return answer as Promise<T>;
}

/** The scratch apps, with the tarball installed. */
export const smokeApps = () => ask<SmokeApps>('apps');

/** examples/nextjs, installed with the tarball and built. */
export const nextjsApp = () => ask<NextjsApp>('nextjs');
