// The editor's reading of the system language: tokens for highlighting, the names a
// text declares (for completion), and where the core's located error sits in the text.
import { describe, expect, it } from 'vitest';
import { StringStream } from '@codemirror/language';
import { KEYWORDS, declaredNames, locate, shortMessage, startState, token } from '../../www/system-language';

/** The tokens of one line as [text, type] pairs (blanks left out). */
function tokens(line: string): [string, string][] {
  const stream = new StringStream(line, 4, 2);
  const state = startState();
  const out: [string, string][] = [];
  while (!stream.eol()) {
    stream.start = stream.pos;
    const type = token(stream, state);
    if (type) out.push([stream.current(), type]);
  }
  return out;
}

describe('system language tokens', () => {
  it('marks keywords, declared names, functions, numbers, primes and comments', () => {
    expect(tokens('param k = 100, c = 0.5 # stiff')).toEqual([
      ['param', 'keyword'],
      ['k', 'def'],
      ['=', 'operator'],
      ['100', 'number'],
      [',', 'punctuation'],
      ['c', 'def'],
      ['=', 'operator'],
      ['0.5', 'number'],
      ['# stiff', 'comment'],
    ]);
    expect(tokens("v' = -k*x + sin(pi*t)")).toEqual([
      ['v', 'variableName'],
      ["'", 'meta'],
      ['=', 'operator'],
      ['-', 'operator'],
      ['k', 'variableName'],
      ['*', 'operator'],
      ['x', 'variableName'],
      ['+', 'operator'],
      ['sin', 'builtin'],
      ['(', 'punctuation'],
      ['pi', 'atom'],
      ['*', 'operator'],
      ['t', 'atom'],
      [')', 'punctuation'],
    ]);
  });

  it('reads 1..N as a range and 1d-3 as a number, as the lexer does', () => {
    expect(tokens("u[i]' = -u[i] for i = 1..N").filter(([, type]) => type === 'number' || type === 'keyword')).toEqual([
      ['for', 'keyword'],
      ['1', 'number'],
    ]);
    expect(tokens('param h = 2.5D-3')[3]).toEqual(['2.5D-3', 'number']);
  });

  it('reads a keyword as a name where a state or definition takes it', () => {
    expect(tokens("mass' = 1")[0]).toEqual(['mass', 'variableName']);
    expect(tokens('force = 2*x')[0]).toEqual(['force', 'variableName']);
    expect(tokens('body pendulum')[0]).toEqual(['body', 'keyword']);
    expect(tokens('event crossing: x, falling, terminal')).toEqual([
      ['event', 'keyword'],
      ['crossing', 'def'],
      [':', 'punctuation'],
      ['x', 'variableName'],
      [',', 'punctuation'],
      ['falling', 'keyword'],
      [',', 'punctuation'],
      ['terminal', 'keyword'],
    ]);
  });

  it('keeps every keyword of the language and of mechanisms in one list', () => {
    for (const word of ['param', 'event', 'draw', 'for', 'sum', 'if', 'output', 'coordinates', 'mass', 'force', 'constraint', 'body', 'joint']) {
      expect(KEYWORDS).toContain(word);
    }
  });
});

describe('declared names', () => {
  it('finds parameters, states, definitions, outputs and events, also in a text with a mistake', () => {
    const text = "# a spring\nparam k = 100, c = max(1, 2)\nx' = v\nv' = -kk*x - c*v; F = k*x\nx(0) = 1, v(0) = 0\noutput energy = 0.5*v^2\nevent crossing: x\ndraw ball(x, 0, 0.1)\nu[i]'' = -u[i] for i = 1..3";
    expect(declaredNames(text)).toEqual([
      { name: 'k', kind: 'parameter' },
      { name: 'c', kind: 'parameter' },
      { name: 'x', kind: 'state' },
      { name: 'v', kind: 'state' },
      { name: 'F', kind: 'definition' },
      { name: 'energy', kind: 'output' },
      { name: 'crossing', kind: 'event' },
      { name: 'u', kind: 'state' },
    ]);
  });
});

describe('the place of a located error', () => {
  const text = "param k = 4\nx' = v\nv' = -kk*x\nx(0) = 1, v(0) = 0";

  it('spans the carets of the core message at its line and column', () => {
    const message = 'line 3, column 7: unknown name "kk"; did you mean "k"?\n  v\' = -kk*x\n        ^^';
    const { from, to } = locate(text, 3, 7, message);
    expect(text.slice(from, to)).toBe('kk');
    expect(shortMessage(message)).toBe('unknown name "kk"; did you mean "k"?');
  });

  it('spans the name at the place without carets, counting columns in characters', () => {
    const greek = "param ω = 2\nθ' = -ωω*θ";
    const { from, to } = locate(greek, 2, 7);
    expect(greek.slice(from, to)).toBe('ωω');
    // A character outside the Basic Multilingual Plane is one column and two UTF-16 units.
    const wide = "x' = 𝑥 + yy";
    expect(wide.slice(locate(wide, 1, 10).from, locate(wide, 1, 10).to)).toBe('yy');
  });

  it('clamps a place past the end of its line or of the text', () => {
    expect(locate(text, 1, 99)).toEqual({ from: 11, to: 11 });
    expect(locate(text, 9, 1).from).toBe(text.lastIndexOf('\n') + 1);
  });
});
