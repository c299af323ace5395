import type { ArgTypes, Decorator, Preview, StoryContext } from '@storybook/react-vite';

// Every story sits in a frame: padding keeps focus rings inside the screenshots, and the width
// is what a checkout column gives the component. `parameters.frame: 'wide'` for side-by-side
// stories, `'phone'` for a 390 px phone screen. (A <style> element, as a page would do it: nothing here uses style attributes.)
const FRAME_CSS = `
.story-frame { box-sizing: border-box; width: 100%; max-width: 476px; padding: 12px; }
.story-frame[data-frame='wide'] { max-width: 960px; }
.story-frame[data-frame='phone'] { max-width: 390px; padding: 12px 8px; }
`;

const withFrame: Decorator = (Story, { parameters }) => (
  <div className="story-frame" data-story-frame="" data-frame={parameters.frame ?? 'narrow'}>
    <style>{FRAME_CSS}</style>
    <Story />
  </div>
);

interface DocgenInfo {
  props?: Record<string, { tags?: { deprecated?: string } }>;
}

/**
 * The docs table shows a prop's JSDoc description but not its `@deprecated` tag: add it. And a
 * JSDoc `@default 'text'` arrives quoted twice ("'text'"): show it as written.
 */
function withJsdocTags({ argTypes, component }: StoryContext): ArgTypes {
  const props = (component as { __docgenInfo?: DocgenInfo } | undefined)?.__docgenInfo?.props;
  return Object.fromEntries(
    Object.entries(argTypes).map(([name, argType]) => {
      const deprecated = props?.[name]?.tags?.deprecated;
      const summary = argType.table?.defaultValue?.summary?.replace(/^"('.*')"$/s, '$1');
      return [
        name,
        {
          ...argType,
          ...(deprecated && {
            description: `**Deprecated** ${deprecated}\n\n${argType.description ?? ''}`,
          }),
          ...(summary && {
            table: { ...argType.table, defaultValue: { ...argType.table?.defaultValue, summary } },
          }),
        },
      ];
    }),
  );
}

const preview: Preview = {
  decorators: [withFrame],
  argTypesEnhancers: [withJsdocTags],
  parameters: {
    layout: 'padded',
    // axe runs after every story (and its play function) in the real browser, colour contrast
    // included; any violation fails the story's test.
    a11y: { test: 'error' },
    controls: { expanded: true, sort: 'requiredFirst' },
    // A phone's screen (an iPhone 14's 390 px) for `globals: { viewport: { value: 'phone' } }`:
    // the test run sets the browser's viewport to it (addon-vitest), not only the frame.
    viewport: {
      options: {
        phone: {
          name: 'Phone (390 px)',
          styles: { width: '390px', height: '844px' },
          type: 'mobile',
        },
      },
    },
    // The source snippet shows what a merchant writes, not the stories' fake transport.
    jsx: {
      filterProps: (value: unknown, key: string) => value !== undefined && key !== 'transport',
      functionValue: () => '() => {}',
    },
  },
};

export default preview;
