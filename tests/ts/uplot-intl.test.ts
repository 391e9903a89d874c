// The build's rewrite of uPlot's module (vite.config.ts, `deferUplotIntl`): evaluating
// the rewritten module builds no Intl formatter, the formatters it builds on first use
// give what uPlot's own gave, and a uPlot whose text no longer matches fails the build.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { deferUplotIntl } from '../../vite.config';

const UPLOT = readFileSync(new URL('../../node_modules/uplot/dist/uPlot.esm.js', import.meta.url), 'utf8');

interface UplotStatics {
  fmtNum: (v: number) => string;
  tzDate: (date: Date, tz: string) => Date;
}

/** Counts the Intl formatters built while `run` runs (constructed or called). */
async function countingIntl<T>(run: (built: string[]) => Promise<T>): Promise<T> {
  const built: string[] = [];
  const originals = { NumberFormat: Intl.NumberFormat, DateTimeFormat: Intl.DateTimeFormat };
  for (const name of ['NumberFormat', 'DateTimeFormat'] as const) {
    const count: ProxyHandler<typeof Intl.NumberFormat> = {
      construct: (target, args) => {
        built.push(name);
        return Reflect.construct(target, args) as object;
      },
      apply: (target, self, args) => {
        built.push(name);
        return Reflect.apply(target, self, args) as unknown;
      },
    };
    Object.defineProperty(Intl, name, { value: new Proxy(originals[name] as typeof Intl.NumberFormat, count), configurable: true, writable: true });
  }
  try {
    return await run(built);
  } finally {
    for (const name of ['NumberFormat', 'DateTimeFormat'] as const) {
      Object.defineProperty(Intl, name, { value: originals[name], configurable: true, writable: true });
    }
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Evaluates `code` as a fresh ES module (a file of its own, so nothing is cached) and returns its default export. */
async function evaluate(code: string): Promise<UplotStatics> {
  const dir = mkdtempSync(join(tmpdir(), 'odelab-uplot-'));
  dirs.push(dir);
  const file = join(dir, 'uPlot.mjs');
  writeFileSync(file, code);
  const module = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: UplotStatics };
  return module.default;
}

describe("uPlot's Intl formatters, built on first use", () => {
  it('uplot_as_published_builds_two_intl_formatters_when_evaluated', async () => {
    // The premise: without the rewrite, evaluating the module already pays for Intl.
    const built = await countingIntl(async (built) => (await evaluate(UPLOT), [...built]));
    expect(built.sort()).toEqual(['DateTimeFormat', 'NumberFormat']);
  });

  it('rewritten_uplot_builds_no_intl_formatter_until_one_is_used', async () => {
    await countingIntl(async (built) => {
      const uPlot = await evaluate(deferUplotIntl(UPLOT));
      expect(built).toEqual([]);
      // Node has no window: uPlot formats for 'en-US', as it did before.
      expect(uPlot.fmtNum(1234567.891)).toBe(new Intl.NumberFormat('en-US').format(1234567.891));
      expect(uPlot.fmtNum(-0.5)).toBe('-0.5');
      expect(built.filter((b) => b === 'NumberFormat')).toHaveLength(2); // ours above, and uPlot's once
      uPlot.fmtNum(2);
      expect(built.filter((b) => b === 'NumberFormat')).toHaveLength(2);
      // The local zone is still recognised (the date comes back as it is); UTC is shifted.
      const tz = process.env.TZ;
      process.env.TZ = 'Europe/Berlin'; // not UTC, which tzDate treats before the local zone
      try {
        const date = new Date(Date.UTC(2024, 0, 15, 12, 0, 0));
        expect(uPlot.tzDate(date, 'Europe/Berlin')).toBe(date);
        expect(uPlot.tzDate(date, 'UTC').getHours()).toBe(12);
      } finally {
        if (tz === undefined) delete process.env.TZ;
        else process.env.TZ = tz;
      }
    });
  });

  it('deferUplotIntl_fails_loudly_when_uplot_text_has_changed', () => {
    expect(() => deferUplotIntl('export default function uPlot() {}')).toThrow(/has uPlot changed/);
    const twice = `${UPLOT}\nconst localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;`;
    expect(() => deferUplotIntl(twice)).toThrow(/exactly one/);
  });
});
