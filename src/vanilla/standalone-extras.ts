/**
 * The component's extras as a file of their own, `Service-extras-<version>.min.js`: the
 * handoff panel with its QR encoder and its words in English and Welsh, the remembered and the
 * featured banks. The component's
 * script loads it beside itself when a page's options ask for them (load-extras-script.ts);
 * it renders with that script's Preact (`Service.runtime`), so it is never loaded alone.
 */
import { extras } from './extras';

window.ServiceExtras = extras;
