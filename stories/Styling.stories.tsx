import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { ServicePay } from 'servicepay';
import { servicePayArgs, servicePayArgTypes } from './support/meta';
import type { ServicePayStoryArgs } from './support/meta';
import { BACKEND_WAIT, banksArrived } from './support/play';
import { fakeBackendLoader, withFakeBackend } from './support/with-fake-backend';

const meta = {
  title: 'ServicePay/Styling',
  component: ServicePay,
  tags: ['autodocs'],
  loaders: [fakeBackendLoader],
  decorators: [withFakeBackend],
  args: servicePayArgs,
  argTypes: servicePayArgTypes,
  parameters: {
    docs: {
      description: {
        component:
          'Three ways to make the component look like the page around it: the CSS custom ' +
          'properties (keeping the service styling), the page’s own CSS on the unstyled markup ' +
          '(`disableVolumeStyling`), or the page’s own utility classes (`disableTailwindStyling`, ' +
          'deprecated). The component never uses `style` attributes, so all of them work under a ' +
          'strict CSP.',
      },
    },
  },
} satisfies Meta<ServicePayStoryArgs>;

export default meta;
type Story = StoryObj<ServicePayStoryArgs>;

/** Two copies side by side, each under a caption (the page's layout, not the component's). */
const SIDE_BY_SIDE_CSS = `
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 24px; align-items: start; }
.side-by-side figure { margin: 0; }
.side-by-side figcaption { margin: 0 0 8px; font: 600 0.875rem/1.4 system-ui, sans-serif; color: #374151; }
`;

/**
 * A merchant's stylesheet for the unstyled markup. It selects by role and element only: with
 * `disableVolumeStyling` there are no service class names to hold on to.
 */
const PAGE_CSS = `
.acme-checkout [role='group'] {
  max-width: 420px; padding: 16px; border: 2px solid #14532d; background: #f0fdf4; color: #052e16;
  font: 1rem/1.5 Georgia, 'Times New Roman', serif;
}
.acme-checkout [role='group'] p { margin: 0; }
.acme-checkout [role='group'] > p:first-child { font-size: 1.25rem; font-weight: 700; }
/* Empty live regions stay in the accessibility tree, out of the layout. */
.acme-checkout p[role]:empty { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
.acme-checkout p[role='alert'] { color: #991b1b; }
.acme-checkout button, .acme-checkout input {
  min-height: 44px; padding: 8px 12px; border: 2px solid #14532d; border-radius: 0;
  background: #fff; color: #052e16; font: inherit; cursor: pointer;
}
.acme-checkout button[aria-expanded] { width: 100%; background: #14532d; color: #fff; font-weight: 700; }
.acme-checkout button:disabled { background: #e5e7eb; color: #374151; border-color: #6b7280; cursor: not-allowed; }
.acme-checkout ul { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin: 0; padding: 0; list-style: none; }
.acme-checkout ul button { display: flex; flex-direction: column; align-items: center; gap: 4px; width: 100%; height: 100%; font-size: 0.8125rem; }
.acme-checkout ul span[aria-hidden] { display: grid; place-items: center; width: 40px; height: 40px; border-radius: 50%; background: #bbf7d0; font-weight: 700; }
.acme-checkout :focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
`;

export const Unstyled: Story = {
  name: 'Unstyled, beside a page-supplied theme',
  args: { disableVolumeStyling: true },
  parameters: {
    frame: 'wide',
    docs: {
      description: {
        story:
          '`disableVolumeStyling`: no service stylesheet and no `service-*` classes, only ' +
          'semantic markup. Left, the markup as the browser draws it; right, the same markup ' +
          'styled by the page’s own CSS (selecting by role and element).',
      },
      source: {
        code: `<style>{\`${PAGE_CSS.trim()}\`}</style>
<div className="acme-checkout">
  <ServicePay disableVolumeStyling {...options} />
</div>`,
      },
    },
  },
  render: (args) => (
    <div className="side-by-side">
      <style>{SIDE_BY_SIDE_CSS + PAGE_CSS}</style>
      <figure>
        <figcaption>The markup alone</figcaption>
        <ServicePay {...args} />
      </figure>
      <figure className="acme-checkout">
        <figcaption>Styled by the page’s own CSS</figcaption>
        <ServicePay {...args} />
      </figure>
    </div>
  ),
  play: async ({ args, canvasElement }) => {
    const [plain, themed] = canvasElement.querySelectorAll<HTMLElement>('figure');
    await expect(canvasElement.querySelector('[class*="service-"]')).toBeNull();
    await expect(
      canvasElement.querySelector('[role="group"] [style], [role="group"][style]'),
    ).toBeNull();
    await banksArrived(args);
    await userEvent.click(within(themed!).getByRole('button', { name: 'Pay £12.50' }));
    await expect(await within(themed!).findByRole('button', { name: 'Monzo' })).toBeVisible();
    await expect(
      getComputedStyle(within(themed!).getByRole('button', { name: 'Pay £12.50' })).backgroundColor,
    ).toBe('rgb(20, 83, 45)');
    await expect(within(plain!).getByRole('button', { name: 'Pay £12.50' })).toBeEnabled();
  },
};

export const WithoutUtilityStylesheet: Story = {
  name: 'Without the utility stylesheet (deprecated)',
  args: { disableTailwindStyling: true },
  // The stylesheets are injected once per document: take out the one other stories injected,
  // so this story shows what the page gets (and, in the docs, it renders in its own iframe).
  beforeEach: () => {
    document.head.querySelector('style[data-servicepay="tailwind"]')?.remove();
  },
  parameters: {
    docs: {
      story: { inline: false, height: '520px' },
      description: {
        story:
          '`disableTailwindStyling` (deprecated since 0.5): the service styling stays, the ' +
          'utility classes (`flex`, `grid`, `gap-*`, `w-full`, ...) are left to the page’s own ' +
          'Tailwind build. Without them, as here, the component still lays out its banks (the ' +
          'service styling does that), but its root is no longer a flex column.',
      },
    },
  },
  play: async ({ args, canvas }) => {
    await banksArrived(args);
    await userEvent.click(canvas.getByRole('button', { name: 'Pay £12.50' }));
    await expect(
      await canvas.findByRole('button', { name: 'Barclays' }, BACKEND_WAIT),
    ).toBeVisible();
    await expect(document.head.querySelector('style[data-servicepay="tailwind"]')).toBeNull();
    await expect(document.head.querySelector('style[data-servicepay="service"]')).not.toBeNull();
    await expect(getComputedStyle(canvas.getByRole('group')).display).toBe('block');
    await expect(getComputedStyle(canvas.getByRole('list', { name: 'Banks' })).display).toBe(
      'grid',
    );
  },
};

/** Brand themes: only the custom properties, on the component's root. */
const THEMES_CSS = `
.brand-teal .service-root {
  --service-primary: #0f766e; --service-primary-text: #ffffff; --service-surface: #f0fdfa;
  --service-text: #042f2e; --service-muted: #115e59; --service-border: #99f6e4;
  --service-radius: 4px; --service-font: Georgia, 'Times New Roman', serif;
}
.brand-night .service-root {
  --service-primary: #fbbf24; --service-primary-text: #1c1917; --service-surface: #1c1917;
  --service-text: #fafaf9; --service-muted: #d6d3d1; --service-border: #57534e;
  --service-error: #fca5a5; --service-radius: 20px;
}
`;

export const ThemedWithCustomProperties: Story = {
  name: 'Theming with CSS custom properties',
  parameters: {
    frame: 'wide',
    docs: {
      description: {
        story:
          'The service styling, re-branded by setting `--service-primary`, ' +
          '`--service-primary-text`, `--service-surface`, `--service-text`, `--service-muted`, ' +
          '`--service-border`, `--service-error`, `--service-radius` and `--service-font` on ' +
          '`.service-root`. Keep text contrast at 4.5:1 or more: axe checks it here.',
      },
      source: {
        code: `.brand-teal .service-root {
  --service-primary: #0f766e;
  --service-primary-text: #ffffff;
  --service-radius: 4px;
  --service-font: Georgia, 'Times New Roman', serif;
}

<div className="brand-teal"><ServicePay {...options} /></div>`,
      },
    },
  },
  render: (args) => (
    <div className="side-by-side">
      <style>{SIDE_BY_SIDE_CSS + THEMES_CSS}</style>
      <figure className="brand-teal">
        <figcaption>Teal, square corners, a serif font</figcaption>
        <ServicePay {...args} />
      </figure>
      <figure className="brand-night">
        <figcaption>Night, round corners</figcaption>
        <ServicePay {...args} />
      </figure>
    </div>
  ),
  play: async ({ args, canvasElement }) => {
    const [teal, night] = canvasElement.querySelectorAll<HTMLElement>('figure');
    const pay = (figure: HTMLElement) => within(figure).getByRole('button', { name: 'Pay £12.50' });
    await expect(getComputedStyle(pay(teal!)).backgroundColor).toBe('rgb(15, 118, 110)');
    await expect(getComputedStyle(pay(night!)).backgroundColor).toBe('rgb(251, 191, 36)');
    await expect(getComputedStyle(pay(night!)).color).toBe('rgb(28, 25, 23)');
    await banksArrived(args);
    await userEvent.click(pay(teal!));
    await expect(await within(teal!).findByRole('button', { name: 'Monzo' })).toBeVisible();
  },
};
