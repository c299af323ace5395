// `servicepay/locales/cy`: Welsh (Cymraeg), complete. Written by the ServicePay maintainers,
// not by a certified translator: corrections are welcome (docs/languages.md). Assembled from
// one file per screen, as English is.
import type { Catalogue } from '../../catalogue';
import { handoff } from './handoff';
import { hosted } from './hosted';
import { pay } from './pay';
import { result } from './result';

/** Welsh's tag. */
export const WELSH = 'cy';

/** Welsh: every word the library shows a shopper. */
const cy: Catalogue = { lang: WELSH, pay, result, handoff, hosted };

export default cy;
export { cy };
