/**
 * Loading the service's own script (spec 4.3): one `<script>` per address for the whole page,
 * however many components, remounts and StrictMode effects ask for it. Framework-free, and it
 * touches `document` only when called, so importing it on a server is safe.
 */
import type { ServiceConstructor } from './types';

/** Options of {@link loadService}. */
export interface LoadServiceOptions {
  /**
   * Subresource Integrity of the script (`sha384-…`); sets `crossorigin="anonymous"` too, as
   * browsers check integrity only on a CORS request.
   */
  integrity?: string;
  /** The page's CSP nonce for the `<script>` element. */
  nonce?: string;
  /**
   * The global the script defines its constructor under (a white-label build may name another).
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

/** Why the service's script did not load: its address and the cause, in the message. */
export class ServiceScriptError extends Error {
  /** The script's address. */
  readonly src: string;
  constructor(src: string, cause: string) {
    super(`servicepay: could not load the service's script from ${src}: ${cause}`);
    this.name = 'ServiceScriptError';
    this.src = src;
  }
}

/** The pending or settled load of each address; a rejection is removed, never memoised. */
const loads = new Map<string, Promise<ServiceConstructor>>();

const constructorOf = (name: string): ServiceConstructor | undefined => {
  const value = (window as unknown as Record<string, unknown>)[name];
  return typeof value == 'function' ? (value as ServiceConstructor) : undefined;
};

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
  const { integrity, nonce, globalName = 'Service', timeoutMs = 10_000 } = options;
  // JavaScript callers may pass nothing: never a request to "undefined" beside the page.
  if (typeof src != 'string' || !src) {
    return Promise.reject(
      new ServiceScriptError(
        String(src),
        "no address: pass the versioned Service-<version>.min.js address from the service's onboarding",
      ),
    );
  }
  if (typeof document == 'undefined') {
    return Promise.reject(
      new ServiceScriptError(src, 'loadService runs in a browser, not on a server'),
    );
  }
  const key = `${globalName} ${src}`;
  let load = loads.get(key);
  if (load) return load;
  load = new Promise<ServiceConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    let blocked = '';
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (event.blockedURI == script.src) {
        blocked = `blocked by the page's Content-Security-Policy (${event.effectiveDirective}): allow it there`;
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
            `it loaded but defined no window.${globalName} constructor: check the address (the versioned Service-<version>.min.js from the service's onboarding) and globalName`,
        ),
      );
    };
    const timer = setTimeout(
      () => settle(`no answer within ${timeoutMs} ms: check the address and the network`),
      timeoutMs,
    );
    addEventListener('securitypolicyviolation', onViolation);
    script.onload = () => settle();
    // CSP violations are reported in a task of their own, which may come after the error.
    script.onerror = () =>
      setTimeout(() =>
        settle(
          blocked ||
            (integrity
              ? 'the request failed, or its content did not match the integrity hash'
              : 'the request failed (network or server): check the address'),
        ),
      );
    script.src = src;
    script.async = true;
    if (integrity) {
      script.integrity = integrity;
      script.crossOrigin = 'anonymous';
    }
    if (nonce) script.nonce = nonce;
    document.head.append(script);
  });
  loads.set(key, load);
  return load;
}
