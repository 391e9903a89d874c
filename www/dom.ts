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

/**
 * Gives a canvas a backing store of its CSS size in device pixels and returns its context
 * cleared, drawing in CSS pixels; null when it has no size (hidden) or no 2D context.
 */
export function sizeCanvas(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  if (width === 0 || height === 0) return null;
  const ratio = window.devicePixelRatio || 1;
  // Resizing reallocates the backing store: only when the size changed (animation).
  const [w, h] = [Math.round(width * ratio), Math.round(height * ratio)];
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}
