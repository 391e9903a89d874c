/**
 * CodeMirror 6 over a `<textarea>` (loaded by www/editor.ts on the text's first focus):
 * the system language highlighted (www/system-language.ts), the core's located error
 * as a lint mark, completion of the declared names, the functions, the constants and
 * the keywords, dark mode from www/theme.ts, and the textarea kept in step both ways.
 *
 * Keyboard: Tab is not bound, so it always moves the focus on (no trap); Escape closes
 * a completion list; F8 goes to the marked error, Ctrl-Shift-M lists it.
 */
import { Annotation, Compartment, EditorSelection, EditorState } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { EditorView, drawSelection, highlightSpecialChars, keymap } from '@codemirror/view';
import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { lintKeymap, setDiagnostics } from '@codemirror/lint';
import type { Diagnostic } from '@codemirror/lint';
import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { tags } from '@lezer/highlight';
import { StyleModule } from 'style-mod';
import type { EditorEntry, EditorHandle, TextProblem } from './editor';
import { CONSTANTS, FUNCTIONS, KEYWORDS, NAME, SHAPES, declaredNames, locate, shortMessage, startState, token } from './system-language';
import { onSchemeChange, prefersDark } from './theme';

/**
 * CodeMirror's styles under the page's Content Security Policy (`style-src 'self'`, no
 * inline styles): CodeMirror writes its styles with style-mod, which puts a `<style>`
 * element into a document's head (refused by the policy) but gives a shadow root a
 * constructed style sheet (`adoptedStyleSheets`, CSSOM, which the policy allows). The
 * document is handed to style-mod as such a root: the same rules, in a constructed
 * sheet of the document, with no inline `<style>` and no nonce in the policy.
 */
function adoptStyles(): void {
  const mount = StyleModule.mount.bind(StyleModule);
  const root = {
    ownerDocument: document,
    get adoptedStyleSheets(): readonly CSSStyleSheet[] {
      return document.adoptedStyleSheets;
    },
    set adoptedStyleSheets(sheets: readonly CSSStyleSheet[]) {
      document.adoptedStyleSheets = [...sheets];
    },
  };
  StyleModule.mount = (target, modules, options) => mount(target === document ? (root as unknown as ShadowRoot) : target, modules, options);
}
adoptStyles();

const systemLanguage = StreamLanguage.define({ name: 'odelab-system', startState, token, languageData: { commentTokens: { line: '#' } } });

const LIGHT_HIGHLIGHT = HighlightStyle.define([
  { tag: tags.keyword, color: '#862e9c', fontWeight: 'bold' },
  { tag: tags.number, color: '#0b7285' },
  { tag: tags.comment, color: '#6b7280', fontStyle: 'italic' },
  { tag: tags.standard(tags.variableName), color: '#1f5fbf' },
  { tag: tags.atom, color: '#9c6644' },
  { tag: tags.definition(tags.variableName), color: '#2b8a3e', fontWeight: 'bold' },
  { tag: tags.meta, color: '#d9480f', fontWeight: 'bold' },
]);
const DARK_HIGHLIGHT = HighlightStyle.define([
  { tag: tags.keyword, color: '#d0a2ff', fontWeight: 'bold' },
  { tag: tags.number, color: '#66d9e8' },
  { tag: tags.comment, color: '#9aa3b5', fontStyle: 'italic' },
  { tag: tags.standard(tags.variableName), color: '#8fb8ff' },
  { tag: tags.atom, color: '#e0b080' },
  { tag: tags.definition(tags.variableName), color: '#8ce99a', fontWeight: 'bold' },
  { tag: tags.meta, color: '#ffa94d', fontWeight: 'bold' },
]);

/** The page's textarea look (www/style.css `textarea`), and its dark scheme. */
const BASE_THEME = EditorView.theme({
  '&': { borderWidth: '1px', borderStyle: 'solid', borderRadius: '4px', fontSize: '0.85rem' },
  // The page's focus ring (www/style.css `:focus-visible`), on the editor's frame.
  '&.cm-focused': { outlineWidth: '2px', outlineStyle: 'solid', outlineOffset: '2px' },
  '.cm-content:focus-visible': { outline: 'none' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'DejaVu Sans Mono', monospace", lineHeight: '1.35', minHeight: '12.9em', maxHeight: '30em', overflow: 'auto' },
  '.cm-content': { padding: '0.4rem 0' },
  '.cm-line': { padding: '0 0.4rem' },
  '.cm-tooltip': { fontFamily: 'system-ui, sans-serif', fontSize: '0.85rem' },
  // The page marks an invalid field with a red frame (www/style.css `[aria-invalid]`):
  // on the editor's frame, not around its lines.
  '.cm-content[aria-invalid="true"]': { boxShadow: 'none' },
  '&:has(.cm-content[aria-invalid="true"])': { borderColor: '#e03131', boxShadow: '0 0 0 1px #e03131' },
});
const LIGHT_THEME = EditorView.theme({
  '&': { background: '#ffffff', color: '#1d2330', borderColor: '#b8bfd0' },
  '&.cm-focused': { outlineColor: '#1f5fbf' },
});
const DARK_THEME = EditorView.theme(
  {
    '&': { background: '#1b202b', color: '#e4e8f2', borderColor: '#4a5468' },
    '&.cm-focused': { outlineColor: '#5b8def' },
    '.cm-cursor, .cm-dropCursor': { borderLeftColor: '#e4e8f2' },
    '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground': { background: '#34405a' },
    '.cm-tooltip': { background: '#1b202b', color: '#e4e8f2', border: '1px solid #4a5468' },
    '.cm-tooltip-autocomplete > ul > li[aria-selected]': { background: '#34405a', color: '#ffffff' },
    '.cm-diagnostic-error': { borderLeftColor: '#ff6b6b' },
  },
  { dark: true },
);

function schemeExtensions(dark: boolean): Extension {
  return dark ? [DARK_THEME, syntaxHighlighting(DARK_HIGHLIGHT)] : [LIGHT_THEME, syntaxHighlighting(LIGHT_HIGHLIGHT)];
}

const NAME_WHOLE = new RegExp(`^${NAME.source}$`, 'u');
const KIND_ORDER = { parameter: 0, state: 1, definition: 2, output: 3, event: 4, name: 5 } as const;

/** Completion of what the text declares, what the page last described, and the language's own words. */
function completions(entry: EditorEntry): (context: CompletionContext) => CompletionResult | null {
  return (context) => {
    const word = context.matchBefore(new RegExp(`${NAME.source}$`, 'u'));
    if (!word && !context.explicit) return null;
    const from = word?.from ?? context.pos;
    const line = context.state.doc.lineAt(context.pos);
    // In a comment nothing is offered.
    if (/#/.test(line.text.slice(0, context.pos - line.from))) return null;
    const typed = context.state.sliceDoc(from, context.pos);
    const text = context.state.doc.toString();
    const names = new Map<string, keyof typeof KIND_ORDER>();
    for (const d of declaredNames(text)) names.set(d.name, d.kind);
    for (const n of entry.hooks.names?.() ?? []) if (NAME_WHOLE.test(n) && !names.has(n)) names.set(n, 'name');
    names.delete(typed);
    const options: Completion[] = [...names].map(([label, kind]) => ({ label, type: 'variable', detail: kind, boost: 10 - KIND_ORDER[kind] }));
    for (const [label, args] of FUNCTIONS) options.push({ label, type: 'function', detail: `(${args})` });
    for (const label of CONSTANTS) options.push({ label, type: 'constant' });
    for (const label of KEYWORDS) if (!FUNCTIONS.some(([f]) => f === label)) options.push({ label, type: 'keyword', boost: -10 });
    if (/^\s*draw\s/.test(line.text)) for (const [label, args] of SHAPES) options.push({ label, type: 'function', detail: `(${args})`, boost: 20 });
    return { from, options, validFor: new RegExp(`^[\\p{L}\\p{N}_]*$`, 'u') };
  };
}

/** The core's problem as a lint mark (a located one at its place; none without a place). */
function diagnostics(problem: TextProblem | undefined, text: string): Diagnostic[] {
  if (!problem || problem.line === undefined || problem.column === undefined) return [];
  const { from, to } = locate(text, problem.line, problem.column, problem.message);
  return [{ from, to, severity: 'error', source: 'odelab', message: shortMessage(problem.message) }];
}

/** A change that came from the textarea (so it is not sent back to it). */
const fromTextarea = Annotation.define<boolean>();

const VALUE = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value') as PropertyDescriptor & {
  get(this: HTMLTextAreaElement): string;
  set(this: HTMLTextAreaElement, v: string): void;
};

/** The attributes of the textarea that describe its state to assistive technology, copied to the editor. */
const MIRRORED = ['aria-invalid', 'aria-describedby', 'aria-errormessage'];

/** Puts the editor in `textarea`'s place, with its text, caret and attributes. */
export function mountEditor(textarea: HTMLTextAreaElement, entry: EditorEntry): EditorHandle {
  const scheme = new Compartment();
  const label = textarea.labels?.[0];
  const attributes = { 'aria-label': label?.textContent?.trim() || 'text', spellcheck: 'false', autocapitalize: 'off', autocorrect: 'off' };
  const hadFocus = document.activeElement === textarea;
  const length = textarea.value.length;
  const selection = EditorSelection.single(Math.min(textarea.selectionStart, length), Math.min(textarea.selectionEnd, length));

  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      selection,
      extensions: [
        history(),
        drawSelection(),
        highlightSpecialChars(),
        systemLanguage,
        autocompletion({ override: [completions(entry)], activateOnTyping: true, icons: false }),
        keymap.of([...completionKeymap, ...lintKeymap, ...defaultKeymap, ...historyKeymap]),
        BASE_THEME,
        scheme.of(schemeExtensions(prefersDark())),
        EditorView.contentAttributes.of(attributes),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged || update.transactions.some((tr) => tr.annotation(fromTextarea))) return;
          VALUE.set.call(textarea, update.state.doc.toString());
          textarea.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      ],
    }),
  });

  /** Takes the textarea's text into the editor when it differs (set by script, or typed into it). */
  const pull = (): void => {
    const text = VALUE.get.call(textarea);
    if (text === view.state.doc.toString()) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromTextarea.of(true) });
  };
  Object.defineProperty(textarea, 'value', {
    configurable: true,
    enumerable: true,
    get: () => VALUE.get.call(textarea),
    set: (text: string) => {
      VALUE.set.call(textarea, text);
      pull();
    },
  });
  textarea.addEventListener('input', pull);

  // The textarea stays for scripts (its value, its input event) but leaves the eye, the
  // Tab order and the accessibility tree to the editor.
  Object.assign(textarea.style, { position: 'absolute', width: '1px', height: '1px', padding: '0', border: '0', margin: '0', overflow: 'hidden', clipPath: 'inset(50%)', opacity: '0', resize: 'none' });
  textarea.tabIndex = -1;
  textarea.setAttribute('aria-hidden', 'true');
  textarea.after(view.dom);
  for (const l of textarea.labels ?? []) {
    l.addEventListener('click', (e) => {
      e.preventDefault();
      view.focus();
    });
  }
  // The textarea's state for assistive technology (set by www/a11y.ts on the field last
  // edited) is copied onto the editor, and put back when a script takes it off the editor
  // alone: the textarea's attributes are the truth.
  const mirror = (): void => {
    for (const name of MIRRORED) {
      const value = textarea.getAttribute(name);
      if (view.contentDOM.getAttribute(name) === value) continue;
      if (value === null) view.contentDOM.removeAttribute(name);
      else view.contentDOM.setAttribute(name, value);
    }
  };
  const watch = new MutationObserver(mirror);
  watch.observe(textarea, { attributes: true, attributeFilter: MIRRORED });
  watch.observe(view.contentDOM, { attributes: true, attributeFilter: MIRRORED });
  mirror();
  onSchemeChange(() => view.dispatch({ effects: scheme.reconfigure(schemeExtensions(prefersDark())) }));
  if (hadFocus) view.focus();

  const handle: EditorHandle = {
    contentDOM: view.contentDOM,
    setProblem(problem) {
      view.dispatch(setDiagnostics(view.state, diagnostics(problem, view.state.doc.toString())));
    },
  };
  if (entry.problem && entry.problemText === textarea.value) handle.setProblem(entry.problem);
  return handle;
}
