/**
 * The tables that stack on a narrow screen (scrollTable's `stack`), and their columns. On a
 * narrow screen each cell is labelled with its column's header; the labels are made here from
 * the same headers the tables print, so a renamed column cannot leave a stale label behind.
 */

/** Each stacked table's column headers; the first column is the row's own header, unlabelled. */
export const STACK_COLUMNS = {
  attempts: ['Answer', 'Outcome', 'Copy', 'Attempt', 'Took', 'Time', 'Next attempt'],
  check: ['Case', 'What the sandbox did', 'Expected', 'Answers', 'Result'],
} as const;

export type StackTable = keyof typeof STACK_COLUMNS;

/** Where in sandbox.css (inside its narrow-screen media query) the label rules go. */
export const STACK_LABELS_MARK = '/* stack labels: stack-tables.ts */';

/** One `::before` rule per labelled column, e.g. `.stack-attempts td:nth-child(2)::before`. */
export function stackLabelRules(): string {
  return Object.entries(STACK_COLUMNS)
    .flatMap(([table, headers]) =>
      headers
        .slice(1)
        // JSON's string is a valid CSS string for these plain headers.
        .map(
          (header, i) =>
            `.stack-${table} td:nth-child(${i + 2})::before { content: ${JSON.stringify(`${header}: `)}; }`,
        ),
    )
    .join('\n  ');
}
