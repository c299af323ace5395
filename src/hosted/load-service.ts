/**
 * Loading the service's own script (spec 4.3): one `<script>` per address for the whole page,
 * however many components, remounts and StrictMode effects ask for it. Framework-free, and it
 * touches `document` only when called, so importing it on a server is safe.
 */
import { said } from '../core/protocol';
import { withFix } from './advice';
import type { ServiceConstructor } from './types';

/** Options of {@link loadService}. Read from the object's own properties only. */
export interface LoadServiceOptions {
  /**
   * Subresource Integrity of the script (`sha384-…`); sets `crossorigin="anonymous"` too, as
   * browsers check integrity only on a CORS request. Part of what identifies a load: a call
   * with an integrity that a load of the same address, pending or done, was not made with is
   * refused (the script already ran unchecked, or checked against another hash); a call
   * without one shares a load made with one.
   */
  integrity?: string;
  /**
   * The page's CSP nonce for the `<script>` element. Used when this call inserts the element:
   * a call that shares a load already made leaves it as it is.
   */
  nonce?: string;
  /**
   * The global the script defines its constructor under (a white-label build may name another):
   * an identifier, and not a name the page's window has already (`constructor`, `Array`,
   * `alert`, …).
   * @default 'Service'
   */
  globalName?: string;
  /**
   * How long to wait for the script before giving up (the tag is removed, a later call tries
   * again).
   * @default 10000
   */
  timeoutMs?: number;
}

/**
 * The options the caller gave, in an object without a prototype: a polluted `Object.prototype`
 * (`Object.prototype.integrity = …`) is never read as an option.
 */
export const ownOptions = <T extends object>(options: T | undefined): T =>
  Object.assign(Object.create(null) as T, options);

/** Why the service's script did not load: its address and the cause, in the message. */
export class ServiceScriptError extends Error {
  /** The script's address (set by the constructor: `declare` emits no field of its own). */
  declare readonly src: string;
  constructor(src: string, cause: string) {
    super(said(`could not load the service's script from ${src}: ${cause}`));
    this.name = 'ServiceScriptError';
    this.src = src;
  }
}

/**
 * The pending or settled load of each address, with the integrity it was made with; a
 * rejection is removed, never memoised.
 */
const loads = new Map<string, { integrity?: string; load: Promise<ServiceConstructor> }>();

const constructorOf = (name: string): ServiceConstructor | undefined => {
  const value = (window as unknown as Record<string, unknown>)[name];
  return typeof value == 'function' ? (value as ServiceConstructor) : undefined;
};

/**
 * A name the script cannot be the one to define: not an identifier, one every object inherits
 * (`constructor`, `toString`), or a function the browser's window already has (`Window`,
 * `Array`, `alert`: its code is the browser's own). Read as a constructor, any of these would
 * resolve a load that never defined one.
 */
function unusable(name: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || name in Object.prototype) return true;
  const value = constructorOf(name);
  return !!value && /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(value));
}

/**
 * Why the browser did not run the script, as far as it tells a page: the status in its resource
 * timing entry. A 404 and a script host that does not answer are told apart there, and a
 * content that does not match `integrity` arrives with its 2xx; a script of another origin
 * loaded without `integrity` (a no-cors request) hides its status, and a CORS refusal looks
 * like no answer, so those messages name both causes. No entry (a full timing buffer, a
 * browser without `responseStatus`): what it can be.
 */
function refused(src: string, integrity: string | undefined): string {
  const entry = performance.getEntriesByName?.(src, 'resource').pop() as
    PerformanceResourceTiming | undefined;
  const status = entry?.responseStatus;
  if (status == undefined) {
    return integrity
      ? 'the request failed, or its content did not match integrity'
      : withFix('the request failed (network or server)', 'address');
  }
  if (status >= 400) return withFix(`the script host answered ${status}`, 'versionedAddress');
  if (status) {
    return integrity
      ? withFix(`its content did not match integrity (${integrity})`, 'hash')
      : withFix(`it answered ${status}, but the browser did not run it`, 'contentType');
  }
  return integrity
    ? withFix(
        'the script host did not answer, or refused the CORS request that integrity needs',
        'cors',
      )
    : withFix('the script host did not answer, or answered an error status', 'hostUp');
}

/**
 * Loads the service's script from `src` (its versioned address from the service's onboarding)
 * and resolves with its constructor, `window.Service` (or `options.globalName`). Rejects with
 * a {@link ServiceScriptError} on a network failure, a CSP or integrity block, a timeout, or a
 * script that defines no constructor; a later call then loads it again with a fresh tag.
 */
export function loadService(
  src: string,
  options: LoadServiceOptions = {},
): Promise<ServiceConstructor> {
  const { integrity, nonce, globalName = 'Service', timeoutMs = 10_000 } = ownOptions(options);
  // JavaScript callers may pass nothing: never a request to "undefined" beside the page.
  if (typeof src != 'string' || !src) {
    return Promise.reject(new ServiceScriptError(String(src), withFix('no address', 'noAddress')));
  }
  if (typeof document == 'undefined') {
    return Promise.reject(
      new ServiceScriptError(src, 'loadService runs in a browser, not on a server'),
    );
  }
  if (typeof globalName != 'string' || unusable(globalName)) {
    return Promise.reject(
      new ServiceScriptError(
        src,
        withFix(
          `globalName ${JSON.stringify(globalName)} is not a name the script can define its constructor under`,
          'globalName',
        ),
      ),
    );
  }
  const key = `${globalName} ${src}`;
  const made = loads.get(key);
  if (made) {
    // Integrity is part of what a load is: never satisfied by a script unchecked, or checked
    // against another hash.
    if (!integrity || integrity == made.integrity) return made.load;
    return Promise.reject(
      new ServiceScriptError(
        src,
        made.integrity
          ? withFix(
              `it is already loaded (or loading) with another integrity (${made.integrity}), not ${integrity}`,
              'sameIntegrity',
            )
          : withFix(
              `it is already loaded (or loading) without integrity, so ${integrity} cannot be checked`,
              'integrityEverywhere',
            ),
      ),
    );
  }
  const load = new Promise<ServiceConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    let blocked = '';
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.blockedURI == script.src) {
        blocked = withFix(
          `blocked by the page's Content-Security-Policy (${event.effectiveDirective})`,
          'allowInCsp',
        );
      }
    };
    const settle = (cause?: string) => {
      clearTimeout(timer);
      removeEventListener('securitypolicyviolation', onViolation);
      script.onload = script.onerror = null;
      const found = constructorOf(globalName);
      if (!cause && found) return resolve(found);
      loads.delete(key);
      script.remove();
      reject(
        new ServiceScriptError(
          src,
          cause ??
            withFix(
              `it loaded but defined no window.${globalName} constructor`,
              'addressAndGlobal',
            ),
        ),
      );
    };
    const timer = setTimeout(
      () => settle(withFix(`no answer within ${timeoutMs} ms`, 'addressAndNetwork')),
      timeoutMs,
    );
    addEventListener('securitypolicyviolation', onViolation);
    script.onload = () => settle();
    // CSP violations are reported in a task of their own, which may come after the error.
    script.onerror = () => setTimeout(() => settle(blocked || refused(script.src, integrity)));
    script.src = src;
    script.async = true;
    if (integrity) {
      script.integrity = integrity;
      script.crossOrigin = 'anonymous';
    }
    if (nonce) script.nonce = nonce;
    document.head.append(script);
  });
  loads.set(key, { integrity, load });
  return load;
}
