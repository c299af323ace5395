// The standalone script's ./load-extras (rollup.config.mjs puts this module in its place): a
// classic script cannot import a chunk, so the extras are a second file beside it,
// `Service-extras-<version>.min.js`, loaded with a <script> element the first time a page's
// options ask for them. That file renders with this script's Preact (standalone.ts hands it
// over as `Service.runtime`), so the extras are part of the same component tree.
import type { ServicePayExtras as Extras } from '../react/extras-contract';
import { scriptNonce } from './host';
import { setScriptAddress } from './script-backend';

let base: string | undefined;
let loading: Promise<Extras> | undefined;

/** Called by the standalone script while it runs, with its own element (the nonce: host.ts). */
export function setExtrasScript(script: HTMLScriptElement | undefined): void {
  // Service-0.9.3.min.js → Service-extras-0.9.3.min.js, from the same host: only the script's
  // own address is rewritten, and no origin holds `Service-` (hosts are lower-cased), so the
  // extras never come from another origin than this script's.
  setScriptAddress(script?.src);
  base = script?.src.replace(/Service-(?=[\d.]+\.min\.js)/, 'Service-extras-');
}

export const loadExtras = (): Promise<Extras> =>
  (loading ??= new Promise<Extras>((resolve, reject) => {
    const script = document.createElement('script');
    // A page that loaded the script without a versioned name (the script host's bare address)
    // gets no extras: the component works without them.
    if (!base?.includes('Service-extras-')) return reject();
    script.src = base;
    if (scriptNonce) script.nonce = scriptNonce;
    script.onload = () => (window.ServiceExtras ? resolve(window.ServiceExtras) : reject());
    script.onerror = reject;
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  }));

declare global {
  interface Window {
    /** Set by Service-extras-<version>.min.js. */
    ServiceExtras?: Extras;
  }
}
