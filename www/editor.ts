/**
 * The code editor over a `<textarea>`: highlighting of the system language, the core's
 * errors as marks at their line and column, completion of the declared names and the
 * built-in functions (www/code-editor.ts, CodeMirror 6).
 *
 * This module is the light part the page loads with its first plot; CodeMirror itself
 * is imported the first time the text is focused, so the first plot never waits for it.
 * Until then, and wherever script fails, the textarea is the editor.
 *
 * The textarea stays the source of truth: its id, `value` and `input` event are what
 * the page, the tests and lecture pages use. Once the editor is shown the textarea is
 * kept in the DOM, hidden from the eye and from Tab; setting its `value` updates the
 * editor, typing into it (as a test's `fill` does) too, and every change made in the
 * editor sets `value` and fires one `input` event on the textarea, so every listener
 * of the textarea (parsing, autosave) keeps working.
 */

/** An error of the core about a text: its message and, when located, its place. */
export interface TextProblem {
  message: string;
  line?: number;
  column?: number;
}

/** What the page knows about the text beyond the text itself. */
export interface EditorHooks {
  /** Names the last good description of the text declared (states, parameters, outputs). */
  names?: () => string[];
}

/** The editor of one textarea, once CodeMirror is loaded. */
export interface EditorHandle {
  /** Shows `problem` as a mark at its place (none: clears the marks). */
  setProblem(problem: TextProblem | undefined): void;
  /** The editor's focusable element. */
  readonly contentDOM: HTMLElement;
}

/** One textarea's editor state, before and after CodeMirror is loaded. */
export interface EditorEntry {
  hooks: EditorHooks;
  problem?: TextProblem;
  /** The text `problem` was found in: a mark for another text waits for its own answer. */
  problemText?: string;
  handle?: EditorHandle;
  loading?: Promise<EditorHandle | undefined>;
}

const entries = new WeakMap<HTMLTextAreaElement, EditorEntry>();

/** Loads CodeMirror and puts the editor over `textarea` (once). */
export function loadEditor(textarea: HTMLTextAreaElement): Promise<EditorHandle | undefined> {
  const entry = entries.get(textarea);
  if (!entry) return Promise.resolve(undefined);
  entry.loading ??= import('./code-editor')
    .then((module) => (entry.handle = module.mountEditor(textarea, entry)))
    .catch((e: unknown) => {
      // The textarea stays the editor: a failed fetch costs highlighting, not editing.
      console.warn('the code editor could not be loaded; the plain text box stays', e);
      return undefined;
    });
  return entry.loading;
}

/**
 * Makes `textarea` a code editor on first use: the first focus (a click, Tab, its label)
 * loads CodeMirror and shows it in the textarea's place with the same text and caret.
 */
export function enhanceEditor(textarea: HTMLTextAreaElement, hooks: EditorHooks = {}): void {
  if (entries.has(textarea)) return;
  entries.set(textarea, { hooks });
  textarea.addEventListener('focus', () => void loadEditor(textarea), { once: true });
}

/**
 * The core's answer about `text`, the textarea's text when it was asked: an error
 * (`EngineError`: `message`, and `line`, `column` when located) is marked at its place,
 * none clears the marks.
 */
export function showProblem(textarea: HTMLTextAreaElement, error: unknown, text: string): void {
  const entry = entries.get(textarea);
  if (!entry) return;
  const problem = toProblem(error);
  entry.problem = problem;
  entry.problemText = text;
  if (text === textarea.value) entry.handle?.setProblem(problem);
}

function toProblem(error: unknown): TextProblem | undefined {
  if (error === undefined || error === null) return undefined;
  const fields = typeof error === 'object' ? (error as Partial<Record<'message' | 'line' | 'column', unknown>>) : {};
  const message = typeof fields.message === 'string' ? fields.message : String(error);
  const place = typeof fields.line === 'number' && typeof fields.column === 'number' ? { line: fields.line, column: fields.column } : {};
  return { message, ...place };
}
