/**
 * The markup of a rendered component as comparable text: one line per element with its
 * attributes sorted, one per run of text. Generated ids are renamed in order of appearance
 * (`id1`, `id2`, ... in `id` and in the attributes that refer to ids), since React and Preact
 * make different ones; an input's value is read from the element, since React also writes
 * it as an attribute and Preact only sets the property.
 *
 * Self-contained (no imports, no outer names): end-to-end tests pass it to the browser with
 * playwright's `page.evaluate`.
 */
export function describeMarkup(root: Element): string {
  const ids = new Map<string, string>();
  for (const element of [root, ...Array.from(root.querySelectorAll('[id]'))]) {
    if (element.id && !ids.has(element.id)) ids.set(element.id, `id${ids.size + 1}`);
  }
  const references = ['id', 'for', 'aria-labelledby', 'aria-describedby', 'aria-controls'];
  const lines: string[] = [];
  const walk = (element: Element, depth: number) => {
    const attributes = Array.from(element.attributes)
      .filter((attribute) => attribute.name !== 'value')
      .map(({ name, value }) =>
        references.includes(name)
          ? `${name}="${value
              .split(' ')
              .map((id) => ids.get(id) ?? id)
              .join(' ')}"`
          : `${name}="${value}"`,
      )
      .sort();
    if (element.localName === 'input') {
      attributes.push(`.value="${(element as HTMLInputElement).value}"`);
    }
    const pad = '  '.repeat(depth);
    lines.push(`${pad}<${[element.localName, ...attributes].join(' ')}>`);
    let text = '';
    const flush = () => {
      if (text.trim()) lines.push(`${pad}  ${JSON.stringify(text.trim())}`);
      text = '';
    };
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === 3) text += child.textContent;
      else if (child.nodeType === 1) {
        flush();
        walk(child as Element, depth + 1);
      }
    }
    flush();
  };
  walk(root, 0);
  return lines.join('\n');
}
