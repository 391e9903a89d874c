/**
 * The words and the shape of the system language (the core's `src/expr/`), as the
 * editor needs them: a line-by-line tokenizer for highlighting, the names a text
 * declares for completion, and where a located error of the core sits in the text.
 * No CodeMirror here: www/code-editor.ts turns these into its extensions, and the
 * tests exercise them as plain functions.
 */

/**
 * The words that start or shape a statement: `param`, `output`, `event` (and its options
 * `falling`, `rising`, `terminal`), `for` of an indexed family, `sum`, `if`, `draw`, and
 * the words of mechanisms written as text. One list: a new keyword of the language is
 * one more entry here.
 */
export const KEYWORDS: readonly string[] = [
  'param',
  'output',
  'event',
  'falling',
  'rising',
  'terminal',
  'for',
  'sum',
  'if',
  'draw',
  'coordinates',
  'mass',
  'force',
  'constraint',
  'body',
  'joint',
];

/** The built-in functions (`src/expr/compile.rs` `FUNCTIONS`) with their arguments. */
export const FUNCTIONS: readonly (readonly [name: string, args: string])[] = [
  ['sin', 'x'],
  ['cos', 'x'],
  ['tan', 'x'],
  ['asin', 'x'],
  ['acos', 'x'],
  ['atan', 'x'],
  ['atan2', 'y, x'],
  ['exp', 'x'],
  ['log', 'x'],
  ['sqrt', 'x'],
  ['abs', 'x'],
  ['sinh', 'x'],
  ['cosh', 'x'],
  ['tanh', 'x'],
  ['min', 'a, b'],
  ['max', 'a, b'],
  ['sign', 'x'],
  ['if', 'condition, then, else'],
  ['sum', 'expression for i = a..b'],
];

/** The built-in constants (`src/expr/compile.rs` `CONSTANTS`) and the time. */
export const CONSTANTS: readonly string[] = ['pi', 'e', 't'];

/** The shapes of a `draw` line (`src/expr/draw.rs` `SHAPES`) with their arguments. */
export const SHAPES: readonly (readonly [name: string, args: string])[] = [
  ['rod', 'x1, y1, x2, y2'],
  ['ball', 'x, y, r'],
  ['spring', 'x1, y1, x2, y2'],
  ['ground', 'y'],
  ['box', 'x, y, w, h'],
];

const keywords = new Set(KEYWORDS);
const functions = new Set(FUNCTIONS.map(([name]) => name));
const constants = new Set(CONSTANTS);
const shapes = new Set(SHAPES.map(([name]) => name));

/** A name as the core's lexer reads one: a letter (any script) or `_`, then letters, digits, `_`. */
export const NAME = /[\p{L}_][\p{L}\p{N}_]*/u;
const NAME_AT_START = new RegExp(`^${NAME.source}`, 'u');

/** The part of CodeMirror's `StringStream` the tokenizer uses. */
export interface Stream {
  sol(): boolean;
  eatSpace(): boolean;
  match(pattern: string | RegExp, consume?: boolean): boolean | RegExpMatchArray | null;
  skipToEnd(): void;
  next(): string | void;
}

/** What the tokenizer remembers along a line. */
export interface LineState {
  /** The keyword the current statement started with ('' if none). */
  statement: string;
  /** At the statement's first word. */
  first: boolean;
  /** Whether the next name is the one the statement declares. */
  declaring: boolean;
}

export function startState(): LineState {
  return { statement: '', first: true, declaring: false };
}

/** Keywords that may stand inside any statement. */
const INLINE = new Set(['for', 'sum', 'if']);
/** Statements whose declared names come after a keyword (`param a = …, b = …`). */
const DECLARING = new Set(['param', 'output', 'event']);

/**
 * One token of the system language, named by CodeMirror's legacy token names
 * (`keyword`, `number`, `comment`, `builtin` for functions and shapes, `atom` for
 * constants, `def` for a name being declared, `variableName`, `operator`, `meta` for the
 * prime of a derivative, `punctuation`), or null for a blank. A keyword is one as the
 * first word of a statement (unless a state or definition takes its name: `mass' = …`,
 * `mass = …`, `mass(0) = …`), anywhere for `for`, `sum` and `if`, and inside a
 * statement a keyword other than `param` and `output` started (`event e: x, falling`).
 */
export function token(stream: Stream, state: LineState): string | null {
  if (stream.sol()) Object.assign(state, startState());
  if (stream.eatSpace()) return null;
  if (stream.match('#')) {
    stream.skipToEnd();
    return 'comment';
  }
  const first = state.first;
  state.first = false;
  // `1..N` is a range, not the number `1.` (the lexer's rule); Fortran's `1d-3` reads as 1e-3.
  if (stream.match(/^(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?/)) {
    state.declaring = false;
    return 'number';
  }
  const name = stream.match(NAME_AT_START);
  if (name && name !== true) {
    const word = name[0];
    if (keywords.has(word)) {
      const statementWord = first && !stream.match(/^\s*(?:['\u2032([]|=(?!=))/, false);
      const inside = state.statement !== '' && !DECLARING.has(state.statement);
      if (statementWord || INLINE.has(word) || inside || (state.statement === 'event' && !state.declaring)) {
        if (statementWord) state.statement = word;
        state.declaring = statementWord && DECLARING.has(word);
        return 'keyword';
      }
    }
    const declared = state.declaring;
    state.declaring = false;
    if (state.statement === 'draw' && shapes.has(word)) return 'builtin';
    if (functions.has(word)) return 'builtin';
    if (constants.has(word)) return 'atom';
    return declared ? 'def' : 'variableName';
  }
  const c = stream.next();
  if (c === undefined) return null;
  if (c === "'" || c === '\u2032') return 'meta';
  if (c === ';') {
    Object.assign(state, startState());
    return 'punctuation';
  }
  if (c === ',' && state.statement === 'param') state.declaring = true;
  if ('()[],:'.includes(c)) return 'punctuation';
  return 'operator';
}

/** What kind of name a text declares. */
export type DeclaredKind = 'parameter' | 'state' | 'definition' | 'output' | 'event';

export interface Declared {
  name: string;
  kind: DeclaredKind;
}

/**
 * The names a system text declares, in order, each once: parameters (`param k = …,
 * c = …`), states (`x' = …`, `u[i]'' = …`), definitions (`F = …`), outputs and
 * events. Read line by line without the parser, so a text with a mistake still
 * offers the names written so far.
 */
export function declaredNames(text: string): Declared[] {
  const out = new Map<string, DeclaredKind>();
  const add = (name: string | undefined, kind: DeclaredKind): void => {
    if (name && !keywords.has(name) && !functions.has(name) && !constants.has(name) && !out.has(name)) out.set(name, kind);
  };
  const name = NAME.source;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '');
    for (const statement of line.split(';')) {
      const s = statement.trim();
      const word = NAME_AT_START.exec(s)?.[0];
      if (word === 'param') {
        for (const m of s.slice(5).matchAll(new RegExp(`(?:^|,)\\s*(${name})\\s*=(?!=)`, 'gu'))) add(m[1], 'parameter');
      } else if (word === 'output') {
        add(new RegExp(`^output\\s+(${name})`, 'u').exec(s)?.[1], 'output');
      } else if (word === 'event') {
        add(new RegExp(`^event\\s+(${name})`, 'u').exec(s)?.[1], 'event');
      } else if (word === 'draw' && /^draw\s+\p{L}/u.test(s)) {
        continue;
      } else if (word !== undefined) {
        // x' = …, u[i]'' = … (a state); F = …, F[i] = … (a definition); x(0) = … (neither).
        const m = new RegExp(`^(${name})\\s*(?:\\[[^\\]]*\\])?\\s*(['\\u2032]*)\\s*=(?!=)`, 'u').exec(s);
        if (m) add(m[1], m[2] ? 'state' : 'definition');
      }
    }
  }
  return [...out].map(([n, kind]) => ({ name: n, kind }));
}

/**
 * Where a located error of the core sits in `text`: UTF-16 offsets `from`..`to` for the
 * core's 1-based `line` and `column` (columns count characters, as the core's do). The
 * width is that of the carets under the source line in the core's message (its last
 * line), else the name or number at the place, else one character; a place past the end
 * of its line marks the end of the line.
 */
export function locate(text: string, line: number, column: number, message = ''): { from: number; to: number } {
  const lines = text.split('\n');
  const index = Math.min(Math.max(1, Math.floor(line)), lines.length) - 1;
  let start = 0;
  for (let i = 0; i < index; i++) start += lines[i].length + 1;
  const chars = [...lines[index]];
  const at = Math.min(Math.max(0, Math.floor(column) - 1), chars.length);
  const from = start + chars.slice(0, at).join('').length;
  const rest = chars.slice(at).join('');
  const carets = /\n[ \t]*(\^+)[ \t]*$/.exec(message)?.[1];
  const word = NAME_AT_START.exec(rest)?.[0] ?? /^[\d.]+/.exec(rest)?.[0] ?? [...rest][0] ?? '';
  const width = [...(carets ?? word)].length;
  return { from, to: from + chars.slice(at, at + width).join('').length };
}

/** The core's message without its "line L, column C: " place and the source snippet under it. */
export function shortMessage(message: string): string {
  return message.split('\n')[0].replace(/^line \d+, column \d+: /, '');
}
