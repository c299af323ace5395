/**
 * The result page's standalone script, `Service-result-<version>.min.js`: defines
 * `window.ServiceResult` for a plain `<script src>` tag on the page the bank sends the shopper
 * back to. A file of its own, so that the checkout's `Service-<version>.min.js` stays within
 * its budget and the result page does not load the bank list.
 */
import { runningScript, setScriptNonce } from './host';
import { ServiceResult } from './result';

// Read while this script runs (currentScript is null afterwards), as the main script does.
setScriptNonce(runningScript()?.nonce);

window.ServiceResult = ServiceResult;

declare global {
  interface Window {
    /** The result page's constructor: `new ServiceResult({ statusUrl })`. */
    ServiceResult: typeof ServiceResult;
  }
}
