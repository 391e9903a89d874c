/**
 * Keyboard and screen-reader behaviour the views share, attached to index.html by
 * element ids so the views themselves stay about numerics:
 *
 * - `tabs`: the WAI-ARIA tabs pattern on #tabs (roving tabindex; ←/→/Home/End switch).
 * - `describeSliders`: each range input says its value, not its position ("h = 0.011",
 *   "rtol = 1e-6", "k = 120", "t = 3.2"), and one arrow press always moves to a
 *   different value (a logarithmic slider has more positions than its rounded values).
 *   A slider names the element showing its value with `data-value-field="<id>"` (an
 *   input's value, else the element's text) and, for an input, `data-value-name="h"`;
 *   a model parameter's slider (`data-slider="k"`) pairs with `input[data-param="k"]`.
 * - `markFieldErrors`: when a run, a parse or a study fails, the field last edited
 *   gets `aria-invalid` and `aria-describedby` pointing at the message; cleared when
 *   the failure is.
 */

/** Tabs under `list` ([role=tab][data-view]); `select` shows a view. */
export function tabs(list: HTMLElement, select: (name: string) => void): void {
  const all = (): HTMLElement[] => [...list.querySelectorAll<HTMLElement>('[role="tab"]')];
  for (const tab of all()) tab.addEventListener('click', () => select(tab.dataset.view ?? ''));
  list.addEventListener('keydown', (e) => {
    const items = all().filter((t) => !t.hidden);
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: items.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const tab = items[(next + items.length) % items.length];
    tab.focus();
    select(tab.dataset.view ?? '');
  });
}

/** Marks `name`'s tab selected (the only one in the tab order) and shows its panel. */
export function selectTab(list: HTMLElement, name: string): void {
  for (const tab of list.querySelectorAll<HTMLElement>('[role="tab"]')) {
    const selected = tab.dataset.view === name;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(tab.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !selected;
  }
}

/** What a slider's value reads as, from the field it drives ('' if it has none). */
function valueText(slider: HTMLInputElement): string {
  const field = (name: string, input: HTMLInputElement | null): string => (input && input.value !== '' ? `${name} = ${input.value}` : '');
  const param = slider.dataset.slider;
  if (param) return field(param, document.querySelector(`#params input[data-param="${CSS.escape(param)}"]`));
  const shown = pairedField(slider);
  if (shown instanceof HTMLInputElement) return field(slider.dataset.valueName ?? shown.id, shown);
  return shown?.textContent ?? '';
}

/** The element a slider's `data-value-field` names. */
function pairedField(slider: HTMLInputElement): HTMLElement | null {
  const id = slider.dataset.valueField;
  return id ? document.getElementById(id) : null;
}

const STEP_KEYS: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };

/**
 * Keeps `aria-valuetext` of every range input under `root` in step with its field, and
 * makes one arrow press move the value, not just the position.
 */
export function describeSliders(root: HTMLElement): () => void {
  const refresh = (): void => {
    for (const slider of root.querySelectorAll<HTMLInputElement>('input[type="range"]')) {
      const text = valueText(slider);
      if (text) slider.setAttribute('aria-valuetext', text);
      else slider.removeAttribute('aria-valuetext');
    }
  };
  root.addEventListener('input', refresh);
  root.addEventListener('focusin', refresh);
  root.addEventListener('keydown', (e) => {
    const slider = e.target;
    const step = STEP_KEYS[e.key];
    if (!(slider instanceof HTMLInputElement) || slider.type !== 'range' || step === undefined) return;
    const before = valueText(slider);
    // Only a slider driving a rounded number field skips positions (each time step is its own value).
    if (!before || !(pairedField(slider) instanceof HTMLInputElement || slider.dataset.slider)) return;
    e.preventDefault();
    const min = Number(slider.min || 0);
    const max = Number(slider.max || 100);
    const direction = Math.sign(step);
    let moved = 0;
    // Positions that round to the same value are skipped; the field is updated by the
    // slider's own input handler, which is also what runs the new value.
    for (let p = Number(slider.value) + direction; p >= min && p <= max; p += direction) {
      slider.value = String(p);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      if (valueText(slider) !== before && ++moved === Math.abs(step)) break;
    }
    refresh();
  });
  // A slider whose value is shown as text (the ξ-plane's #scrub, the time cursor) is
  // often moved by code, not by the user: follow the text itself.
  const shown = new MutationObserver(refresh);
  for (const slider of root.querySelectorAll<HTMLInputElement>('input[type="range"][data-value-field]')) {
    const field = pairedField(slider);
    if (field && !(field instanceof HTMLInputElement)) shown.observe(field, { childList: true, characterData: true, subtree: true });
  }
  refresh();
  return refresh;
}

/** Where a failure is reported, and which fields it can be about. */
interface ErrorScope {
  /** The element showing the failure (aria-describedby points here). */
  message: string;
  /** Fields whose edit can cause it. */
  fields: string;
  failed: (message: HTMLElement) => boolean;
}

const SCOPES: ErrorScope[] = [
  { message: 'system-error', fields: '#system', failed: (m) => !m.hidden },
  { message: 'message', fields: '#controls, #alpha-beta', failed: (m) => !m.hidden && m.classList.contains('error') },
  { message: 'conv-status', fields: '.conv-controls', failed: (m) => m.classList.contains('error') },
  { message: 'tableau-status', fields: '#view-tableau', failed: (m) => m.classList.contains('error') },
  { message: 'stability-facts', fields: '#alpha-beta', failed: () => document.body.dataset.stability === 'error' },
];

/** Sets or clears `aria-invalid` + `aria-describedby` (keeping other ids) on `field`. */
function markInvalid(field: HTMLElement, messageId: string, invalid: boolean): void {
  const ids = (field.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id !== '' && id !== messageId);
  if (invalid) ids.push(messageId);
  if (ids.length > 0) field.setAttribute('aria-describedby', ids.join(' '));
  else field.removeAttribute('aria-describedby');
  if (invalid) field.setAttribute('aria-invalid', 'true');
  else if (!ids.some((id) => SCOPES.some((s) => s.message === id))) field.removeAttribute('aria-invalid');
}

/** Watches each failure message and marks the field last edited in its scope. */
export function markFieldErrors(): void {
  let lastEdited: HTMLElement | undefined;
  document.addEventListener('input', (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) {
      // A slider stands for the number field it drives.
      const field = t instanceof HTMLInputElement && t.type === 'range' ? pairedField(t) : null;
      lastEdited = field instanceof HTMLInputElement ? field : t;
    }
  });
  for (const scope of SCOPES) {
    const message = document.getElementById(scope.message);
    if (!message) continue;
    const check = (): void => {
      const failed = scope.failed(message);
      for (const field of document.querySelectorAll<HTMLElement>(`[aria-describedby~="${scope.message}"]`)) {
        if (!failed || field !== lastEdited) markInvalid(field, scope.message, false);
      }
      if (failed && lastEdited?.closest(scope.fields)) markInvalid(lastEdited, scope.message, true);
    };
    const observer = new MutationObserver(check);
    observer.observe(message, { attributes: true, attributeFilter: ['hidden', 'class'], childList: true, characterData: true, subtree: true });
    if (scope.message === 'stability-facts') observer.observe(document.body, { attributes: true, attributeFilter: ['data-stability'] });
  }
}
