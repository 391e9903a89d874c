/**
 * The one DOM lookup the views share: an element of index.html by id, or an Error that
 * names the missing id (a page and its script out of step).
 */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el as T;
}

/** A row of `fillTable`: its cells' text, and data-* attributes or a class for it. */
export interface Row {
  cells: string[];
  data?: Record<string, string>;
  className?: string;
}

/** Replaces a table's content with a header row and body rows (text only, never HTML). */
export function fillTable(table: HTMLElement, head: string[], rows: Row[]): void {
  const line = (tag: 'th' | 'td', cells: string[]): HTMLTableRowElement => {
    const tr = document.createElement('tr');
    for (const text of cells) {
      const cell = document.createElement(tag);
      cell.textContent = text;
      tr.append(cell);
    }
    return tr;
  };
  const body = rows.map((r) => {
    const tr = line('td', r.cells);
    Object.assign(tr.dataset, r.data ?? {});
    if (r.className) tr.className = r.className;
    return tr;
  });
  table.replaceChildren(line('th', head), ...body);
}

/**
 * Replaces a <dl>'s content with term/value pairs; each value carries its term in
 * `data-<key>` (e.g. data-stat="steps") so tests and styles can find it.
 */
export function fillDefinitions(list: HTMLElement, key: string, pairs: [string, string][]): void {
  list.replaceChildren(
    ...pairs.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      dd.dataset[key] = term;
      return [dt, dd];
    }),
  );
}
