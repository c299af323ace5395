import type { PaymentResultState } from '../core/index';

/** Each state's inner shape; a circle around all but `waiting`'s spinner. */
const SHAPES: Record<Exclude<PaymentResultState, 'waiting'>, string> = {
  // Three dots: still under way, and calm (no spinner: the shopper may close the page).
  'still-confirming': 'M8 12h.01M12 12h.01M16 12h.01',
  received: 'M7.5 12.5l3 3 6-6.5',
  'not-completed': 'M9 9l6 6m0-6l-6 6',
  // A question: the shop checks it (neither the tick nor the cross).
  'needs-review': 'M9.1 9a3 3 0 0 1 5.8 1c0 2-2.9 3-2.9 3m0 4v.01',
  'not-heard': 'M12 7v5l3 2',
  'not-found': 'M12 7v6m0 4v.01',
};

/**
 * A payment outcome's picture (the result page's, and the handoff panel's for `needs-review`):
 * a shape of its own as well as a colour, hidden from screen readers (no `focusable`: only
 * Internet Explorer made an SVG a tab stop, and it runs none of these builds). Attributes that mean the
 * same in React and Preact's core only (no `strokeWidth`, which Preact's core would write as it
 * is): the stroke's width is in the stylesheets.
 */
export function ResultIcon({
  state,
  className,
}: {
  state: PaymentResultState;
  className?: string;
}) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width="48"
      height="48"
      fill="none"
      stroke="currentColor"
      aria-hidden="true"
    >
      {state === 'waiting' ? (
        <path className="service-result-spinner" d="M12 2a10 10 0 0 1 10 10" />
      ) : (
        <>
          <circle cx="12" cy="12" r="10" />
          <path d={SHAPES[state]} />
        </>
      )}
    </svg>
  );
}
