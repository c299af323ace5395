import { useEffect, useState } from 'react';

/**
 * How long a live region stays silent after its words change language: well past the frame in
 * which the browser hands the new words to assistive technology, well short of anything a
 * shopper does next.
 */
const SWITCH_MS = 300;

/**
 * The `aria-live` of a live region whose words are in `lang`: `'off'` in the render that
 * switches language and for a moment after, so that a screen reader does not read out again,
 * in the other language, what it has already said (the text changes, the news does not);
 * undefined otherwise, leaving the region's role its own politeness. The element stays the same
 * (a new `role="alert"` element would be announced as it appears), and so does focus. Hooks
 * that mean the same in React and Preact's core only.
 */
export function useQuietSwitch(lang: string): 'off' | undefined {
  const [settled, settle] = useState(lang);
  useEffect(() => {
    if (settled === lang) return;
    const timer = setTimeout(() => settle(lang), SWITCH_MS);
    return () => clearTimeout(timer);
  }, [lang, settled]);
  return settled === lang ? undefined : 'off';
}
