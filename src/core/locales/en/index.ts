// `servicepay/locales/en`: English, the library's own language and the one it falls back to.
// Assembled from one file per screen, so that each front door carries only the words it draws
// (the root entry's Pay button, for one, carries ./pay alone).
import type { Catalogue } from '../../catalogue';
import { handoff } from './handoff';
import { hosted } from './hosted';
import { pay } from './pay';
import { result } from './result';

/** English's tag: British spelling, amounts in pounds. */
export const ENGLISH = 'en-GB';

/** English: every word the library shows a shopper. */
const en: Catalogue = { lang: ENGLISH, pay, result, handoff, hosted };

export default en;
export { en };
