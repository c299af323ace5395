// @vitest-environment node
// The standalone script and the servicepay/vanilla entry as users receive them (`npm test`
// builds before it tests): what they define, what they import, what they carry.
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ServiceEvent } from '../../src/core/index';
import { APP_ID } from '../helpers/merchant';
import {
  componentVersion,
  dist,
  pageWithScript as page,
  readDist as read,
  version,
} from './standalone-page';

const SCRIPT = `Service-${componentVersion}.min.js`;

/** The checkout page: the script, and the element the component goes in. */
const pageWithScript = (nonce = '') =>
  page(SCRIPT, '<div id="service-component"></div>', 'https://shop.example/checkout', nonce);

describe('the standalone script (spec 4.3)', () => {
  it('is built as dist/standalone/Service-<version>.min.js, beside both stylesheets', async () => {
    expect((await readdir(new URL('standalone/', dist))).sort()).toEqual(
      [
        'Service-0.4.css',
        SCRIPT,
        // The result page's script (test/build/standalone-result.test.ts).
        `Service-result-${componentVersion}.min.js`,
        // The extras the component's script loads beside itself (the handoff, remembered and
        // featured banks) when a page's options ask for them.
        `Service-extras-${componentVersion}.min.js`,
        'Service-tailwind-0.1.css',
        // The SRI hash of each of them (test/build/dist.test.ts).
        'integrity.json',
      ].sort(),
    );
    for (const css of ['Service-0.4.css', 'Service-tailwind-0.1.css']) {
      expect(await read(`standalone/${css}`)).toBe(await read(`css/${css}`));
    }
  });

  it('defines window.Service and window.ServiceEvent, and no other global', async () => {
    const { window, added } = await pageWithScript();
    expect(added.sort()).toEqual(['Service', 'ServiceEvent']);
    expect(typeof window.Service).toBe('function');
    expect({ ...window.ServiceEvent }).toEqual({ ...ServiceEvent });
  });

  it('works as the spec shows it: new Service, createPayment, injectComponent, events', async () => {
    const { window } = await pageWithScript();
    // Page script, run in the page (objects from this test's realm are not the page's).
    const page = window.eval(`
      const events = [];
      const service = new window.Service({
        environment: 'SANDBOX',
        applicationId: ${JSON.stringify(APP_ID)},
        transport: {
          fetchInstitutions: async () => [{ id: 'monzo', name: 'Monzo' }],
          initiatePayment: async () => ({ paymentId: 'p', authorisationUrl: 'https://bank.test/a' }),
        },
        eventConsumer: (event) => events.push(event),
      });
      const prepared = service.createPayment({ amount: 12.5, paymentReference: 'ORDER-1042' });
      service.injectComponent('service-component');
      ({ service, events, prepared });
    `) as { service: { injectComponent(id: string): void }; events: string[]; prepared: boolean };
    expect(page.prepared).toBe(true);
    const root = window.document.querySelector('#service-component [data-state]')!;
    expect(root.getAttribute('data-state')).toBe('idle');
    expect(root.querySelector('button')!.textContent).toBe('Pay £12.50');
    expect(page.events).toEqual(['mounted']);
    expect(() => page.service.injectComponent('nope')).toThrow(/^servicepay: injectComponent/);
  });

  it("gives the component's styles the nonce of its own script tag", async () => {
    const { window } = await pageWithScript('r4nd0m');
    new window.Service({
      environment: 'SANDBOX',
      applicationId: APP_ID,
    }).injectComponent('service-component');
    const styles = [...window.document.querySelectorAll('style[data-servicepay]')];
    expect(styles.map((style) => style.getAttribute('nonce'))).toEqual(['r4nd0m', 'r4nd0m']);
  });

  it('is minified production code with everything bundled and its licences', async () => {
    const code = await read(`standalone/${SCRIPT}`);
    expect(code.startsWith(`/*! servicepay ${version} | MIT | includes Preact (MIT`)).toBe(true);
    expect(code).not.toMatch(/process\.env|\brequire\(|\bimport\s*[({'"]|^export /m);
    // Development-only warnings are gone with NODE_ENV=production.
    expect(code).not.toContain('must not be used on iOS');
    expect(code.split('\n').length).toBeLessThanOrEqual(3);
  });
});

describe('servicepay/vanilla', () => {
  it('imports nothing but its own chunks: Preact is bundled in, React is not needed', async () => {
    // Its chunks: what it shares with the extras it loads with import() when a page's options
    // ask for them (the extras, and the QR encoder in a chunk of its own).
    const chunks = (await readdir(new URL('chunks/', dist)))
      .filter((f) => f.startsWith('vanilla-'))
      .map((f) => `chunks/${f}`);
    expect(chunks.some((f) => f.startsWith('chunks/vanilla-qr-'))).toBe(true);
    for (const file of [
      'vanilla.mjs',
      'vanilla.cjs',
      'vanilla.d.mts',
      'vanilla.d.cts',
      ...chunks,
    ]) {
      const code = await read(file);
      // Statements only (a doc comment may quote an import).
      const specifiers = [
        ...code.matchAll(
          /^(?:import|export)\b[^'"\n]*?from\s*['"]([^'"]+)['"]|(?:\bimport|\brequire)\(\s*['"]([^'"]+)['"]/gm,
        ),
      ].map(([, from, call]) => from ?? call);
      for (const specifier of specifiers) {
        expect(specifier, file).toMatch(/^\.\.?\/(?:chunks\/)?vanilla-[\w-]+\.[cm]js$/);
      }
    }
  });

  it('leaves the React entry free of Preact', async () => {
    const files = [
      'index.mjs',
      'index.cjs',
      ...(await readdir(new URL('chunks/', dist)))
        .filter((f) => !f.startsWith('vanilla-'))
        .map((f) => `chunks/${f}`),
    ];
    for (const file of files.filter((f) => /\.[cm]?js$/.test(f))) {
      expect(await read(file), file).not.toMatch(/preact/i);
    }
  });
});
