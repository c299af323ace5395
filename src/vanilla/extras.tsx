/**
 * The component's extras as the plain page's front doors load them: the same extras, with the
 * words of their screens (the handoff panel and its outcomes) in the component's language. The
 * component's script carries only its own screen of each language (./locales); these come with
 * the extras, so a page that never shows a handoff does not carry them. A catalogue object the
 * page gave whole keeps its own words.
 */
import type { Catalogue } from '../core/index';
import { extras as shared } from '../react/extras';
import type { ExtrasContext, ServicePayExtras } from '../react/extras-contract';
import { EXTRAS_WORDS, shippedOf } from './locales';

function Extras(context: ExtrasContext & { step?: boolean }) {
  const { locale } = context.props;
  const words = shippedOf(locale?.lang, EXTRAS_WORDS);
  return (
    <shared.Extras
      {...context}
      props={{
        ...context.props,
        locale: (words ? { ...words, ...locale } : locale) as Catalogue | undefined,
      }}
    />
  );
}

export const extras: ServicePayExtras = { options: shared.options, Extras };
