import { afterEach, beforeEach, inject } from 'vitest';
import type { TestContext } from 'vitest';
import { page } from 'vitest/browser';

// Runs in the browser around each story's test (render, play function, then axe). It writes
// the axe result and the screenshot's path into the test report (vitest --reporter=verbose
// lists them under each story), and a screenshot of the story's final state for review.

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the folder the story screenshots go to (artifacts/storybook/). */
    storybookScreenshots: string;
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
  reporting: { addReport(report: Report): void };
}

// The project runs twice, in light and in dark (prefers-color-scheme): one screenshot each,
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

beforeEach((context) => {
  // addon-vitest hands the composed story to the test context before running it; its axe
  // report arrives while the test still runs, the only time vitest accepts annotations.
  let story: ComposedStory | undefined;
  Object.defineProperty(context, 'story', {
    configurable: true,
    enumerable: true,
    get: () => story,
    set(value: ComposedStory) {
      story = value;
      // Without the reporting API (a future addon version), the test runs as it is, unannotated.
      if (typeof value?.reporting?.addReport !== 'function') return;
      const addReport = value.reporting.addReport.bind(value.reporting);
      value.reporting.addReport = (report) => {
        addReport(report);
        if (report.type === 'a11y') annotateAxe(context, value, report);
      };
    },
  });
});

afterEach(async (context) => {
  const story = (context as { story?: ComposedStory }).story;
  // The story is still rendered: Storybook unmounts it when the next story starts.
  const frames = document.querySelectorAll<HTMLElement>('[data-story-frame]');
  const frame = frames[frames.length - 1];
  if (!story || !frame) return;
  await page.screenshot({
    element: frame,
    path: `${inject('storybookScreenshots')}/${screenshotName(story)}`,
  });
});
