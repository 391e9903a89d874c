// The front end's import boundaries (ARCHITECTURE.md): exactly one module imports each
// generated wasm package's code, and only the worker loads the engines' code — the labs
// engine dynamically, so that the first plot fetches the run package alone.
// The page's boot module names the run package's .wasm file (a `?url` import: a string,
// no code) to compile it for the worker.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const WWW = new URL('../../www/', import.meta.url);
const sources = readdirSync(WWW)
  .filter((f) => f.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(new URL(file, WWW), 'utf8') }));

/** The module specifiers of a file's static imports and exports, with whether they are type-only. */
function imports(text: string): { from: string; typeOnly: boolean }[] {
  const found = [];
  for (const m of text.matchAll(/^(import|export)(\s+type)?\b[^;]*?from\s+'([^']+)'/gms)) {
    found.push({ from: m[3], typeOnly: m[2] !== undefined });
  }
  return found;
}

const importers = (target: RegExp): string[] =>
  sources.filter(({ text }) => imports(text).some((i) => target.test(i.from))).map(({ file }) => file);

describe('import boundaries', () => {
  it('www/engine.ts alone imports pkg/, www/engine-labs.ts alone imports pkg-labs/', () => {
    expect(importers(/^\.\.\/pkg\/(?!.*\?url$)/)).toEqual(['engine.ts']);
    expect(importers(/^\.\.\/pkg-labs\//)).toEqual(['engine-labs.ts']);
  });

  it("the boot module alone names the run package's .wasm, as a URL", () => {
    expect(importers(/^\.\.\/pkg\/.*\?url$/)).toEqual(['boot.ts']);
    expect(importers(/\.wasm\?url$/)).toEqual(['boot.ts']);
  });

  it("only the worker runs the engines, and it loads the labs engine with a dynamic import", () => {
    const runtime = (target: string): string[] =>
      sources
        .filter(({ text }) => imports(text).some((i) => i.from === target && !i.typeOnly))
        .map(({ file }) => file);
    expect(runtime('./engine')).toEqual(['worker.ts']);
    expect(runtime('./engine-labs')).toEqual([]);
    const worker = sources.find(({ file }) => file === 'worker.ts')?.text ?? '';
    expect(worker).toMatch(/import\('\.\/engine-labs'\)/);
  });

  it('CodeMirror is imported by www/code-editor.ts alone, which www/editor.ts loads with a dynamic import', () => {
    expect(importers(/^@codemirror\/|^@lezer\/|^style-mod$/)).toEqual(['code-editor.ts']);
    const runtime = sources.filter(({ text }) => imports(text).some((i) => i.from === './code-editor' && !i.typeOnly)).map(({ file }) => file);
    expect(runtime).toEqual([]);
    const editor = sources.find(({ file }) => file === 'editor.ts')?.text ?? '';
    expect(editor).toMatch(/import\('\.\/code-editor'\)/);
  });
});
