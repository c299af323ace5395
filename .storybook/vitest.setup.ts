import { afterEach as axeAfterEach } from '@storybook/addon-a11y/preview';
import { beforeEach, inject } from 'vitest';
import type { TestContext } from 'vitest';
import { commands, page } from 'vitest/browser';

// Runs in the browser around each story's test (render, play function, then axe). It writes
// the axe result and the screenshot's path into the test report (vitest --reporter=verbose
// lists them under each story), and a screenshot of the story's final state for review. Then
// the same state in dark: axe again and a second screenshot.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the folder the story screenshots go to (artifacts/storybook/). */
    storybookScreenshots: string;
  }
}
declare module 'vitest/browser' {
  interface BrowserCommands {
    /** prefers-color-scheme for this test's page; null: the browser's own (vitest.config.ts). */
    setColorScheme(scheme: 'light' | 'dark' | null): Promise<void>;
  }
}

interface AxeRule {
  id: string;
}
interface Report {
  type: string;
  status: string;
  result?: { violations?: AxeRule[]; passes?: AxeRule[]; incomplete?: AxeRule[] };
}
interface ComposedStory {
  id: string;
  parameters: Record<string, unknown>;
  globals: Record<string, unknown>;
  reporting: { addReport(report: Report): void };
  run(...args: unknown[]): Promise<void>;
}

// Each story is checked in light, then in dark (prefers-color-scheme): one screenshot each,
// marked -390 for the stories shown at a phone's width.
const scheme = () =>
  (innerWidth <= 480 ? '-390' : '') +
  (matchMedia('(prefers-color-scheme: dark)').matches ? '-dark' : '');
const screenshotName = (story: ComposedStory) => `${story.id}${scheme()}.png`;

function annotateAxe(context: TestContext, story: ComposedStory, report: Report): void {
  const { violations = [], passes = [], incomplete = [] } = report.result ?? {};
  const failed = violations.length ? ` (${violations.map((v) => v.id).join(', ')})` : '';
  // Colour contrast is the check jsdom cannot make: say where it stands.
  const contrast = (['violations', 'incomplete', 'passes'] as const).find((key) =>
    report.result?.[key]?.some((rule) => rule.id === 'color-contrast'),
  );
  void context.annotate(
    `axe ${report.status}: ${violations.length} violations${failed}, ${passes.length} rules ` +
      `passed (color-contrast: ${contrast ?? 'not applicable'}), ${incomplete.length} to review`,
    'a11y',
  );
  void context.annotate(`artifacts/storybook/${screenshotName(story)}`, 'screenshot');
}

/** The story's frame as it is now (Storybook unmounts it only when the next story starts). */
async function screenshot(story: ComposedStory): Promise<void> {
  const frames = document.querySelectorAll<HTMLElement>('[data-story-frame]');
  const frame = frames[frames.length - 1];
  if (!frame) return;
  await page.screenshot({
    element: frame,
    path: `${inject('storybookScreenshots')}/${screenshotName(story)}`,
  });
}

/**
 * The story's final state in dark: the page switched to prefers-color-scheme: dark, the a11y
 * addon's own check once more (the story's a11y parameters, its report, and the test failed
 * on any violation), and a screenshot; then back to the browser's own scheme.
 */
async function checkDark(story: ComposedStory): Promise<void> {
  await commands.setColorScheme('dark');
  try {
    await axeAfterEach({ ...story, viewMode: 'story' } as unknown as Parameters<
      typeof axeAfterEach
    >[0]);
    await screenshot(story);
  } finally {
    await commands.setColorScheme(null);
  }
}

beforeEach((context) => {
  // addon-vitest hands the composed story to the test context, then runs it: the checks below
  // go into that run, as vitest accepts annotations only while the test runs.
  let story: ComposedStory | undefined;
  Object.defineProperty(context, 'story', {
    configurable: true,
    enumerable: true,
    get: () => story,
    set(value: ComposedStory) {
      story = value;
      // The dark check needs both: a newer addon without them fails here rather than skip it.
      if (typeof value?.reporting?.addReport !== 'function' || typeof value.run !== 'function') {
        throw new Error('.storybook/vitest.setup.ts: the composed story has no run or reporting');
      }
      const addReport = value.reporting.addReport.bind(value.reporting);
      value.reporting.addReport = (report) => {
        addReport(report);
        if (report.type === 'a11y') annotateAxe(context, value, report);
      };
      const run = value.run.bind(value);
      value.run = async (...args) => {
        try {
          await run(...args);
        } finally {
          await screenshot(value);
        }
        await checkDark(value);
      };
    },
  });
});
