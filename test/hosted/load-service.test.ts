// servicepay/hosted's loader (src/hosted/load-service.ts) in jsdom, which inserts the tag and
// never fetches it: the test plays the browser, defining the constructor and firing the tag's
// load or error event. What the page sees: the tags, the constructor, the errors. A real
// browser's requests, integrity checks, CSP and resource timing: test/e2e/hosted.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadService, ServiceScriptError } from '../../src/hosted/index';

/** A fresh address per test: the loader remembers each address's load for the whole page. */
let n = 0;
const address = () => `https://scripts.service.test/${++n}/Service-0.9.3.min.js`;

const tags = (src: string) =>
  [...document.head.querySelectorAll('script')].filter((script) => script.src == src);

/** The browser's part: the script ran (defining `global`, unless null) and its load event fired. */
function loaded(src: string, global: string | null = 'Service') {
  const tag = tags(src).at(-1)!;
  if (global) Object.assign(window, { [global]: class Service {} });
  tag.dispatchEvent(new Event('load'));
}
const failed = (src: string) => tags(src).at(-1)!.dispatchEvent(new Event('error'));

const outcome = (load: Promise<unknown>) =>
  load.then(
    (Service) => (Service as { name: string }).name,
    (error: Error) => error.message,
  );

afterEach(() => {
  for (const name of ['Service', 'AcmePay']) Reflect.deleteProperty(window, name);
  document.head.replaceChildren();
});

describe('loadService', () => {
  it('puts one <script> per address in the page, shared by every call, and resolves with the constructor', async () => {
    const src = address();
    const loads = [loadService(src), loadService(src), loadService(src, { nonce: 'n' })];
    expect(tags(src)).toHaveLength(1);
    const [tag] = tags(src);
    // (jsdom reflects neither integrity nor crossOrigin: what the loader set is read back.)
    expect([tag!.async, tag!.nonce, tag!.integrity, tag!.crossOrigin]).toEqual([
      true,
      '',
      undefined,
      null,
    ]);
    loaded(src);
    expect(await Promise.all(loads.map(outcome))).toEqual(['Service', 'Service', 'Service']);
    expect(await outcome(loadService(src))).toBe('Service');
    expect(tags(src)).toHaveLength(1);
  });

  it('gives the tag integrity with crossorigin="anonymous", and the nonce of the call that inserts it', async () => {
    const src = address();
    const load = loadService(src, { integrity: 'sha384-abc', nonce: 'n0nce' });
    const [tag] = tags(src);
    expect([tag!.integrity, tag!.crossOrigin, tag!.nonce]).toEqual([
      'sha384-abc',
      'anonymous',
      'n0nce',
    ]);
    loaded(src);
    await load;
  });

  describe('integrity is part of what identifies a load (issue 46)', () => {
    const refusal = (src: string, cause: string) =>
      `servicepay: could not load the service's script from ${src}: ${cause}`;

    it('a call with integrity after one without, pending or done: refused, saying so', async () => {
      const src = address();
      const unchecked = loadService(src);
      const whilePending = loadService(src, { integrity: 'sha384-abc' });
      loaded(src);
      const cause =
        'it is already loaded (or loading) without integrity, so sha384-abc cannot be checked: give integrity to every load of this address (loadService, useServiceScript, <ServicePay>), the first one included';
      expect(await outcome(whilePending)).toBe(refusal(src, cause));
      expect(await outcome(unchecked)).toBe('Service');
      expect(await outcome(loadService(src, { integrity: 'sha384-abc' }))).toBe(
        refusal(src, cause),
      );
      expect(tags(src)).toHaveLength(1);
    });

    it('a call without integrity shares a load made with one; another hash is refused', async () => {
      const src = address();
      const pinned = loadService(src, { integrity: 'sha384-abc' });
      const shared = loadService(src);
      const other = loadService(src, { integrity: 'sha384-xyz' });
      loaded(src);
      expect(await outcome(pinned)).toBe('Service');
      expect(await outcome(shared)).toBe('Service');
      expect(await outcome(other)).toBe(
        refusal(
          src,
          'it is already loaded (or loading) with another integrity (sha384-abc), not sha384-xyz: give every load of this address the same integrity',
        ),
      );
      expect(tags(src)).toHaveLength(1);
    });
  });

  it('refuses a globalName that is not an identifier or that every object or the window has, with no tag', async () => {
    const src = address();
    // (jsdom's Window and alert are its own JavaScript, not the browser's: Chromium refuses them
    // too, test/e2e/hosted.test.ts.)
    for (const globalName of ['constructor', 'toString', '__proto__', 'Array', 'a-b', '']) {
      const error = await loadService(src, { globalName }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceScriptError);
      expect((error as Error).message).toBe(
        `servicepay: could not load the service's script from ${src}: globalName ${JSON.stringify(globalName)} is not a name the script can define its constructor under: give the identifier it uses (a white-label build's), or leave globalName out for 'Service'`,
      );
    }
    expect(tags(src)).toEqual([]);
    const white = loadService(src, { globalName: 'AcmePay' });
    loaded(src, 'AcmePay');
    expect(await outcome(white)).toBe('Service');
  });

  it('reads its options from their own properties only: a polluted Object.prototype is not inherited (issue 46)', async () => {
    const src = address();
    const prototype = Object.prototype as Record<string, unknown>;
    Object.assign(prototype, { integrity: 'sha384-polluted', globalName: 'constructor' });
    let load: Promise<unknown>;
    try {
      load = loadService(src);
    } finally {
      delete prototype.integrity;
      delete prototype.globalName;
    }
    expect(tags(src)[0]!.integrity).toBeUndefined();
    loaded(src);
    expect(await outcome(load)).toBe('Service');
  });

  it('rejects a script that defines no constructor, removes its tag, and a later call loads it again', async () => {
    const src = address();
    const first = loadService(src);
    loaded(src, null);
    expect(await outcome(first)).toBe(
      `servicepay: could not load the service's script from ${src}: it loaded but defined no window.Service constructor: check the address (the versioned Service-<version>.min.js from the service's onboarding) and globalName`,
    );
    expect(tags(src)).toEqual([]);
    const again = loadService(src);
    expect(tags(src)).toHaveLength(1);
    loaded(src);
    expect(await outcome(again)).toBe('Service');
  });

  it('a failed request: the cause as far as the page can tell (no timing entry here), and a fresh tag next time', async () => {
    const src = address();
    const plain = loadService(src);
    failed(src);
    expect(await outcome(plain)).toBe(
      `servicepay: could not load the service's script from ${src}: the request failed (network or server): check the address`,
    );
    expect(tags(src)).toEqual([]);
    const pinned = loadService(src, { integrity: 'sha384-abc' });
    failed(src);
    expect(await outcome(pinned)).toBe(
      `servicepay: could not load the service's script from ${src}: the request failed, or its content did not match integrity`,
    );
  });

  it('gives up after timeoutMs and removes its tag', async () => {
    const src = address();
    expect(await outcome(loadService(src, { timeoutMs: 20 }))).toBe(
      `servicepay: could not load the service's script from ${src}: no answer within 20 ms: check the address and the network`,
    );
    expect(tags(src)).toEqual([]);
  });

  it('refuses no address without a tag', async () => {
    expect(await outcome(loadService(undefined as unknown as string))).toBe(
      "servicepay: could not load the service's script from undefined: no address: pass the versioned Service-<version>.min.js address from the service's onboarding",
    );
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
  });
  it('in a production build names the cause and its values, without the fix (docs/going-live.md has it)', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      const src = address();
      const first = loadService(src);
      loaded(src);
      await first;
      expect(await outcome(loadService(src, { integrity: 'sha384-abc' }))).toBe(
        `servicepay: could not load the service's script from ${src}: it is already loaded (or loading) without integrity, so sha384-abc cannot be checked`,
      );
      const other = address();
      const failing = loadService(other);
      failed(other);
      expect(await outcome(failing)).toBe(
        `servicepay: could not load the service's script from ${other}: the request failed (network or server)`,
      );
      expect(await outcome(loadService(address(), { timeoutMs: 20 }))).toMatch(
        /: no answer within 20 ms$/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
