import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Institution } from '../core/index';

export interface ClassNames {
  (service: string, utility?: string): string | undefined;
}

interface Props {
  id: string;
  institutions: readonly Institution[];
  loading: boolean;
  /** The institution being initiated, if any. */
  busyId: string | undefined;
  /** Whether the shopper may choose (Pay button enabled, nothing initiating). */
  enabled: boolean;
  /** Where focus goes when the list appears: the search field or first tile, or the busy tile. */
  focus: 'first' | 'busy' | undefined;
  onPick(id: string): void;
  cx: ClassNames;
}

/** Above this many banks a search field is shown (DESIGN.md). */
export const SEARCH_THRESHOLD = 8;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

const initials = (name: string) =>
  name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word.charAt(0))
    .join('')
    .toUpperCase();

/** The bank tiles: a disclosure under the Pay button, not a modal. */
export function InstitutionList(props: Props) {
  const { id, institutions, loading, busyId, enabled, focus, onPick, cx } = props;
  const [query, setQuery] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const searchable = institutions.length > SEARCH_THRESHOLD;
  const q = fold(query.trim());
  const shown = q ? institutions.filter((i) => fold(i.name).includes(q)) : institutions;

  useEffect(() => {
    if (!focus || loading) return;
    const selector =
      focus === 'busy' ? '[data-state="initiating"]' : searchable ? 'input' : 'button';
    root.current?.querySelector<HTMLElement>(selector)?.focus();
  }, [focus, loading, searchable]);

  // Arrow keys move between tiles (DESIGN.md); Tab still walks them in order.
  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    const tiles = Array.from(event.currentTarget.querySelectorAll('button'));
    const at = tiles.indexOf(document.activeElement as HTMLButtonElement);
    const next = tiles[at + step];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  return (
    <div
      id={id}
      ref={root}
      className={cx('service-list', 'flex flex-col gap-2')}
      aria-busy={loading}
    >
      {loading ? (
        <ul className={cx('service-grid', 'grid grid-cols-3 gap-2')} aria-hidden="true">
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <li key={n} className={cx('service-skeleton')} />
          ))}
        </ul>
      ) : (
        <>
          {searchable && (
            <input
              type="search"
              className={cx('service-search', 'w-full')}
              aria-label="Search for your bank"
              placeholder="Search for your bank"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
          )}
          <ul
            className={cx('service-grid', 'grid grid-cols-3 gap-2')}
            aria-label="Banks"
            onKeyDown={onKeyDown}
          >
            {shown.map((institution, index) => {
              const nameId = `${id}-${index}`;
              const busy = institution.id === busyId;
              return (
                <li key={institution.id}>
                  <button
                    type="button"
                    className={cx('service-tile', 'flex flex-col items-center gap-1 w-full')}
                    aria-labelledby={nameId}
                    // aria-disabled, not disabled: the chosen tile keeps focus while it works.
                    aria-disabled={!enabled || undefined}
                    data-state={busy ? 'initiating' : undefined}
                    onClick={() => enabled && onPick(institution.id)}
                  >
                    {institution.iconUrl ? (
                      <img
                        className={cx('service-icon')}
                        src={institution.iconUrl}
                        alt={`${institution.name} logo`}
                        width={40}
                        height={40}
                      />
                    ) : (
                      <span className={cx('service-initials')} aria-hidden="true">
                        {initials(institution.name)}
                      </span>
                    )}
                    <span id={nameId}>{institution.name}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          {shown.length === 0 && (
            <p className={cx('service-hint')} role="status">
              {institutions.length === 0
                ? 'No banks are available.'
                : `No bank matches “${query}”.`}
            </p>
          )}
        </>
      )}
    </div>
  );
}
