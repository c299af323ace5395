// The root entry in a React 18 app and a React 19 app, installed from the tarball: the
// component tests' main flow (test/react/ServicePay.test.tsx) with each app's own React and
// testing libraries, a server render in plain Node (import and require), and hydration of
// that server markup.
import { describe, expect, it } from 'vitest';
import { smokeApps } from './apps';
import { runFixture } from './support';
import { WHOLE_PAYMENT } from '../helpers/events';
import { APP_ID } from '../helpers/merchant';

const apps = await smokeApps();

interface MainFlow {
  react: string;
  reactDom: string;
  resolved: string;
  afterOpen: { expanded: string; focused: boolean; tiles: number; logo: string };
  afterPay: { status: string; listShown: boolean };
  log: string[];
  payments: unknown[];
  opened: string[];
  consoleErrors: string[];
}

interface ServerRender {
  react: string;
  window: string;
  document: string;
  resolved: string;
  html: string;
  requests: number;
}

interface Hydration {
  serverFetches: number;
  sameButton: boolean;
  button: string;
  log: string[];
  fetches: number;
  consoleErrors: string[];
}

describe.each([
  ['React 18', apps.react18, /^18\./],
  ['React 19', apps.react19, /^19\./],
])('%s app', (_, app, version) => {
  it('takes a whole payment by clicks, with the events in order and one payment', async () => {
    const result = await runFixture<MainFlow>(app, 'main-flow.mjs');
    expect(result.react).toMatch(version);
    expect(result.reactDom).toBe(result.react);
    expect(result.resolved).toMatch(/\/node_modules\/servicepay\/dist\/index\.mjs$/);
    expect(result.afterOpen).toEqual({
      expanded: 'true',
      focused: true,
      tiles: 3,
      logo: 'https://icons.test/barclays.svg',
    });
    expect(result.log).toEqual(WHOLE_PAYMENT);
    expect(result.payments).toEqual([
      {
        environment: 'SANDBOX',
        applicationId: APP_ID,
        institutionId: 'barclays',
        paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
        merchantPaymentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        agentType: 'WEB_BROWSER',
      },
    ]);
    expect(result.opened).toEqual(['https://bank.test/authorise/1']);
    expect(result.afterPay).toEqual({
      status: 'Continue in your bank’s page or app.',
      listShown: false,
    });
    expect(result.consoleErrors).toEqual([]);
  });

  it.each([
    ['import', 'ssr.mjs', /\/dist\/index\.mjs$/],
    ['require', 'ssr.cjs', /\/dist\/index\.cjs$/],
  ])('server-renders with %s, with no window and no request', async (__, file, entry) => {
    const result = await runFixture<ServerRender>(app, file);
    expect(result.react).toMatch(version);
    expect(result.resolved).toMatch(entry);
    expect(result.window).toBe('undefined');
    expect(result.document).toBe('undefined');
    expect(result.html).toContain('data-state="idle"');
    expect(result.html).toContain('Pay &lt;b&gt;now&lt;/b&gt;');
    expect(result.html).toMatch(/<button[^>]*>Pay £(<!-- -->)?12\.50<\/button>/);
    expect(result.requests).toBe(0);
  });

  it.each([
    ['import', 'ssr-hosted.mjs', /\/dist\/hosted\.mjs$/],
    ['require', 'ssr-hosted.cjs', /\/dist\/hosted\.cjs$/],
  ])(
    'server-renders servicepay/hosted with %s: its placeholder, no script',
    async (__, file, entry) => {
      const result = await runFixture<ServerRender>(app, file);
      expect(result.react).toMatch(version);
      expect(result.resolved).toMatch(entry);
      expect(result.window).toBe('undefined');
      expect(result.html).toContain('data-servicepay-hosted="loading"');
      expect(result.html).toContain('Pay &lt;b&gt;now&lt;/b&gt;');
      expect(result.html).toMatch(/<button[^>]*disabled[^>]*>Pay £(<!-- -->)?12\.50<\/button>/);
      expect(result.html).not.toContain('<script');
    },
  );

  it('hydrates the server markup without a mismatch', async () => {
    const result = await runFixture<Hydration>(app, 'hydrate.mjs');
    expect(result).toEqual({
      serverFetches: 0,
      sameButton: true,
      button: 'Pay £12.50',
      log: ['mounted', 'institutions_fetched'],
      fetches: 1,
      consoleErrors: [],
    });
  });
});
