/**
 * The page's side of `<ode-playground>` (www/embed.ts): inside a frame (`?embed=1`) it
 * drops the header and reports its content height to the lecture page; read-only
 * (`&readonly=1`) it shows the caption, one view's plots and exactly the controls the
 * scenario's caption asks for (`controls` in www/scenarios.json), or those of the
 * `controls=h,alpha,beta` query.
 *
 * Controls are named by `data-control` in index.html (h, tolerances, t1, method, events,
 * formulation, stats, scrub, plane-mode, overlay, alpha, beta, methods, nrange, system); `param:k`
 * is model parameter k (its row under #params).
 */

/** The message type www/embed.ts listens for. */
export const HEIGHT_MESSAGE = 'odelab:height';
/** Posted once, when the reader first uses the embed: www/embed.ts then keeps its frame. */
export const TOUCHED_MESSAGE = 'odelab:touched';

export interface EmbedMode {
  embed: boolean;
  readonly: boolean;
  /** The controls a read-only embed shows. */
  controls: string[];
}

/** Reads the embed mode from the page's query; `scenarioControls` when `controls` is absent. */
export function embedMode(query: URLSearchParams, scenarioControls: string[] = []): EmbedMode {
  const listed = query.get('controls');
  return {
    embed: query.get('embed') === '1',
    readonly: query.get('readonly') === '1',
    controls:
      listed === null
        ? scenarioControls
        : listed
            .split(',')
            .map((c) => c.trim())
            .filter((c) => c !== ''),
  };
}

/** Applies the mode to the page: classes on <body>, the shown controls, height reports. */
export function applyEmbedMode(mode: EmbedMode): void {
  document.body.classList.toggle('embed', mode.embed);
  document.body.classList.toggle('readonly', mode.readonly);
  if (mode.readonly) {
    const wanted = new Set(mode.controls);
    const mark = (): void => {
      let any = false;
      for (const el of document.querySelectorAll<HTMLElement>('[data-control]')) {
        const shown = wanted.has(el.dataset.control ?? '');
        el.classList.toggle('shown', shown);
        any ||= shown && el.closest('#controls') !== null;
      }
      // Model parameters are rows that www/trajectory.ts rebuilds with each model.
      for (const row of document.querySelectorAll<HTMLElement>('#params .param')) {
        const name = row.querySelector<HTMLInputElement>('input[data-param]')?.dataset.param ?? '';
        const shown = wanted.has(`param:${name}`);
        row.classList.toggle('shown', shown);
        any ||= shown;
      }
      document.getElementById('params')?.classList.toggle('shown', document.querySelector('#params .param.shown') !== null);
      document.body.classList.toggle('has-controls', any);
    };
    mark();
    const params = document.getElementById('params');
    if (params) new MutationObserver(mark).observe(params, { childList: true });
    placeControls();
    // A run shows or hides figures (no mechanism for a system without a drawing): the
    // controls follow the first figure each time the run's status changes.
    new MutationObserver(placeControls).observe(document.body, { attributes: true, attributeFilter: ['data-status', 'data-ready'] });
  }
  if (mode.embed && window.parent !== window) {
    reportHeight();
    reportTouched();
  }
}

/**
 * Tells the parent frame once that the reader has used this embed (a key, a click, a
 * wheel on a plot, a field changed): from then on its state is the reader's, not its
 * attributes', and the lecture page must not release it.
 */
function reportTouched(): void {
  const events = ['pointerdown', 'keydown', 'wheel', 'input', 'change'] as const;
  const touched = (): void => {
    for (const type of events) window.removeEventListener(type, touched, true);
    window.parent.postMessage({ type: TOUCHED_MESSAGE }, '*');
  };
  for (const type of events) window.addEventListener(type, touched, { capture: true, passive: true });
}

/** Posts the document's height to the parent frame now and whenever it changes. */
function reportHeight(): void {
  let last = 0;
  const post = (): void => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // The height is not a secret: any embedding page may read it.
    window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(post).observe(document.body);
  post();
}

/** The views' tabs as captions name them, and the view each opens. */
const TAB_VIEWS: Record<string, string> = {
  Trajectory: 'trajectory',
  Stability: 'stability',
  'ξ-plane': 'stability',
  'Second-order (ωh)': 'structural',
  Convergence: 'convergence',
  'Your method': 'tableau',
};
const TAB_MENTION = new RegExp(
  `\\b(?:[Tt]he) (${Object.keys(TAB_VIEWS)
    .map((t) => t.replace(/[()]/g, '\\$&'))
    .join('|')}) tab\\b`,
  'g',
);

/**
 * A caption's text cut at each mention of a view's tab ("the Trajectory tab"), which a
 * read-only embed does not have: each mention becomes a link to that view in the full
 * playground.
 */
export function tabMentions(caption: string): (string | { text: string; view: string })[] {
  const parts: (string | { text: string; view: string })[] = [];
  let last = 0;
  for (const m of caption.matchAll(TAB_MENTION)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(caption.slice(last, at));
    parts.push({ text: m[0], view: TAB_VIEWS[m[1]] });
    last = at + m[0].length;
  }
  if (last < caption.length) parts.push(caption.slice(last));
  return parts;
}

/**
 * In a read-only embed, the caption's mentions of other views' tabs link to the full
 * playground at that view and scenario, in a new browser tab: the embed shows one view.
 */
export function linkTabMentions(caption: HTMLElement, scenario: string): void {
  const parts = tabMentions(caption.textContent ?? '');
  if (parts.every((p) => typeof p === 'string')) return;
  caption.replaceChildren(
    ...parts.map((p) => {
      if (typeof p === 'string') return p;
      const url = new URL('index.html', location.href);
      url.search = new URLSearchParams({ scenario, view: p.view }).toString();
      const a = document.createElement('a');
      a.href = url.href;
      a.target = '_blank';
      a.rel = 'noopener';
      // The arrow that marks a link out is the style's (`.tab-link`): the caption's text
      // stays the scenario's, word for word.
      a.textContent = p.text;
      a.className = 'tab-link';
      a.title = 'opens the full playground in a new browser tab';
      a.dataset.view = p.view;
      return a;
    }),
  );
}

/**
 * Read-only, the controls sit directly under the first figure of the view shown (the
 * plot they change), not under every plot of the page: moved into the view after its
 * first visible child that holds a figure. Inside the plots' region they are a region
 * of their own (a complementary landmark may not sit inside another landmark).
 */
export function placeControls(): void {
  const controls = document.getElementById('controls');
  const plots = document.getElementById('plots');
  if (!controls || !plots) return;
  const view = [...plots.querySelectorAll<HTMLElement>(':scope > .view')].find((v) => !v.hidden);
  if (!view) return;
  const visible = (el: Element): boolean => el instanceof HTMLElement && !el.hidden && getComputedStyle(el).display !== 'none';
  const anchor = [...view.children].find(
    (el) => el !== controls && visible(el) && (el.matches('figure') || el.querySelector('figure:not([hidden])') !== null),
  );
  if (!anchor) return;
  controls.setAttribute('role', 'region');
  controls.classList.add('beside-plot');
  if (anchor.nextElementSibling !== controls) anchor.after(controls);
}
