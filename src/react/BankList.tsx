'use client';
import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { countWords, MAX_SHOWN_INSTITUTIONS as MAX } from '../core/index';
import type { Institution, ServiceMessages } from '../core/index';

/** Above this many banks a search field is shown (docs/design.md). */
export const SEARCH_THRESHOLD = 8;

/** Accents and case folded away (every combining mark, not only Latin ones): "Société" finds "societe". */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const initials = (name: string) =>
  name
    .split(/\s+/, 2)
    .map((word) => word[0])
    .join('')
    .toUpperCase();

export interface BankListProps {
  institutions: readonly Institution[];
  messages: ServiceMessages;
  /** The words' language (`languageOf`): how the line under the list counts and writes numbers. */
  lang: string;
  /** The live line's `aria-live` while the words change language (useQuietSwitch). */
  quiet: 'off' | undefined;
  /** Class names: the service class (unless unstyled) and the utility classes. */
  cx: (service: string, utility?: string) => string | undefined;
  /** False while a payment is being opened or Pay is disabled: the banks do nothing. */
  choosable: boolean;
  /** The bank whose payment is being opened, shown busy. */
  initiatingId: string | undefined;
  onChoose: (institutionId: string) => void;
}

/**
 * The banks of the open step: a search field above SEARCH_THRESHOLD banks, then one button per
 * bank, at most MAX_SHOWN_INSTITUTIONS of them. The set is one Tab stop; arrows move by row
 * and column (a grid, on wide components) or by item (the single-column list of narrow ones),
 * Home and End to the ends. A bank's accessible name is its name only: the logo is
 * decorative, and the initials are drawn by CSS.
 */
export function BankList(props: BankListProps) {
  const { institutions, onChoose, cx, choosable, initiatingId, messages, lang, quiet } = props;
  const [query, setQuery] = useState('');
  const [active, setActive] = useState<string>();
  // Logos that failed to load: their banks show the initials instead (no broken-image glyph).
  const [broken, setBroken] = useState<Record<string, true>>({});
  const q = fold(query.trim());
  // The search covers every bank (strings only); at most MAX are rendered, the first in the
  // backend's order (core's MAX_SHOWN_INSTITUTIONS says why), and a line says how to find the
  // rest.
  const matches = q ? institutions.filter((i) => fold(i.name).includes(q)) : institutions;
  const shown = matches.slice(0, MAX);
  // The Tab stop is on a rendered bank that can be paid: the keyboard model works on what is
  // shown, and skips unavailable banks as it skips any disabled control.
  const current = (shown.find((i) => i.id === active) ?? shown.find((i) => i.available !== false))
    ?.id;
  const hint = !matches.length
    ? institutions.length
      ? messages.noMatch(query)
      : messages.noBanks
    : matches.length > MAX &&
      countWords(messages.moreBanks, lang, matches.length, MAX, matches.length);

  function move(event: KeyboardEvent<HTMLElement>) {
    // The banks that can take focus: the focused bank's tabindex stays 0, so the list is one
    // Tab stop (APG roving tabindex); an unavailable bank (disabled) is skipped.
    const banks = [...event.currentTarget.querySelectorAll<HTMLElement>('button:enabled')];
    const at = banks.indexOf(document.activeElement as HTMLElement);
    // Columns as laid out: the banks on the first one's row (one in the narrow list).
    const top = (bank: Element) => bank.getBoundingClientRect().top;
    const columns = banks.filter((bank) => top(bank) === top(banks[0]!)).length;
    // The step from the focused bank (Home and End: to the ends). Another key adds undefined:
    // NaN, no bank, and the key does what it did.
    const next =
      at +
      (
        {
          Home: -at,
          End: banks.length - 1 - at,
          ArrowRight: 1,
          ArrowLeft: -1,
          ArrowDown: columns,
          ArrowUp: -columns,
        } as Record<string, number>
      )[event.key]!;
    if (banks[next]) {
      event.preventDefault();
      banks[next].focus();
    }
  }

  return (
    <>
      {institutions.length > SEARCH_THRESHOLD && (
        // The attributes of the search field and of each bank in the order that gzips smallest.
        <input
          type="search"
          value={query}
          className={cx('service-search', 'w-full')}
          aria-label={messages.search}
          onKeyDown={(event) => {
            // Enter or ArrowDown moves into the results (docs/design.md).
            if (event.key !== 'Enter' && event.key !== 'ArrowDown') return;
            event.preventDefault();
            // The list's Tab stop (a disabled one takes no focus, as `move` skips it).
            event.currentTarget.nextElementSibling
              ?.querySelector<HTMLElement>('[tabindex="0"]')
              ?.focus();
          }}
          placeholder={messages.search}
          // onInput, not onChange: both fire on every keystroke in React (and React's
          // controlled-field check accepts either), while in Preact's core onChange is the
          // DOM's change event, on blur. onInput means the same in both builds.
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
      )}
      <ul
        className={cx('service-banks', 'grid gap-2')}
        aria-label={messages.banks}
        onKeyDown={move}
      >
        {shown.map(({ id, name, iconUrl, available }) => (
          <li key={id}>
            <button
              className={cx('service-bank', 'flex items-center gap-3 w-full')}
              tabIndex={id === current ? 0 : -1}
              data-state={id === initiatingId ? 'initiating' : undefined}
              // aria-disabled, not disabled: the chosen bank keeps focus while it works.
              aria-disabled={!choosable || undefined}
              type="button"
              // On the focused element itself, never relied on to bubble: React's onFocus
              // bubbles (focusin) and Preact's is the DOM's focus event, which does not.
              onFocus={() => setActive(id)}
              // Down or refusing payments (docs/http-contract.md): shown, not payable, and its
              // reason is part of its name.
              disabled={available === false}
              onClick={() => choosable && onChoose(id)}
            >
              <span className={cx('service-logo')} aria-hidden="true">
                {iconUrl && !broken[iconUrl] ? (
                  <img
                    src={iconUrl}
                    alt=""
                    height={32}
                    width={32}
                    onError={() => setBroken((b) => ({ ...b, [iconUrl]: true }))}
                  />
                ) : (
                  // Drawn by CSS (attr()), not text: the button's visible text then matches its
                  // accessible name, the bank's name (WCAG 2.5.3).
                  <span className={cx('service-initials')} data-initials={initials(name)} />
                )}
              </span>
              {/* At most two lines on screen; the whole name on hover (title) and to AT (text). */}
              <span className={cx('service-name')} title={name}>
                {name}
              </span>
              {available === false && (
                <span className={cx('service-hint')}>{messages.bankUnavailable}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {hint && (
        // Polite: a search's result (no match, or more matches than shown) is announced.
        <p className={cx('service-hint')} role="status" aria-live={quiet}>
          {hint}
        </p>
      )}
    </>
  );
}
