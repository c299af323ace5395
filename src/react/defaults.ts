import { DEFAULT_MESSAGES } from '../core/index';
import type { ServiceMessages } from '../core/index';

// A call marked pure rather than a property read, which a bundler must keep in case it has
// side effects: a page that imports only the component then carries none of these.
const read = (key: keyof ServiceMessages) => DEFAULT_MESSAGES[key] as string;

/** The spec's defaults (2.2) for the title, label and Pay label, from the messages table. */
export const DEFAULT_TITLE = /* @__PURE__ */ read('title');
export const DEFAULT_LABEL = /* @__PURE__ */ read('label');
export const DEFAULT_PAY_LABEL = /* @__PURE__ */ read('payLabel');
