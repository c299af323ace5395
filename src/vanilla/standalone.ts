/**
 * The standalone script (spec 4.3), `Service-<version>.min.js`: defines `window.Service` and
 * `window.ServiceEvent` for a plain `<script src>` tag, with everything bundled.
 */
import { ServiceEvent } from '../core/index';
import { setScriptNonce } from './host';
import { Service } from './service';

// Read while this script runs (currentScript is null afterwards): a page under a strict CSP
// that gave this script a nonce gets the component's styles through with the same nonce.
setScriptNonce((document.currentScript as HTMLScriptElement | null)?.nonce);

Object.assign(window, { Service, ServiceEvent });

declare global {
  interface Window {
    /** The component's constructor (spec 4.3, 4.4). */
    Service: typeof Service;
    /** The event names passed to `eventConsumer` (spec 6.2). */
    ServiceEvent: typeof ServiceEvent;
  }
}
