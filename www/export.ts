/**
 * Getting things out of the page: a run as CSV (named columns, pinned runs beside it),
 * a plot as PNG, the session as JSON (and back in, pins included). The builders are pure and unit-tested; `download`
 * is the only part that touches the DOM.
 */
import { describeRun, resample, seriesOf } from './run';
import type { Run } from './run';
import type { RunSettings } from './settings';
import { SHARE_VERSION, decodeSettings, encodeSettings } from './share';

/** A run as CSV: t, the states and the outputs by name; full double precision. */
export function runToCsv(
  t: ArrayLike<number>,
  y: ArrayLike<number>,
  names: string[],
  outputs: Record<string, ArrayLike<number>> = {},
): string {
  const dim = names.length;
  const outNames = Object.keys(outputs);
  const quote = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [['t', ...names, ...outNames].map(quote).join(',')];
  for (let i = 0; i < t.length; i++) {
    const row = [t[i]];
    for (let j = 0; j < dim; j++) row.push(y[i * dim + j]);
    for (const o of outNames) row.push(outputs[o][i]);
    lines.push(row.map((v) => String(v)).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The current run as CSV with the pinned runs as more columns, `pin k (method, h): name`
 * for each state and output, at the current run's times (linear between a pin's own
 * points, exact where the grids agree; NaN outside a pin's interval).
 */
export function runsToCsv(run: Run, pins: Run[]): string {
  const extra: Record<string, ArrayLike<number>> = { ...run.outputs };
  for (const [k, pin] of pins.entries()) {
    for (const name of [...pin.names, ...Object.keys(pin.outputs)]) {
      const series = seriesOf(pin, name);
      if (series) extra[`pin ${k + 1} (${describeRun(pin)}): ${name}`] = resample(pin.t, series, run.t);
    }
  }
  return runToCsv(run.t, run.y, run.names, extra);
}

/** The session file: the settings with a format version, as pretty JSON. */
export function sessionToJson(settings: RunSettings): string {
  return `${JSON.stringify({ odelab: SHARE_VERSION, settings }, null, 2)}\n`;
}

/**
 * Reads a session file; the settings go through the same checks as a share link, so a
 * hand-edited or hostile file cannot inject anything.
 */
export function sessionFromJson(text: string): { settings?: RunSettings; error?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { error: 'This file is not an odelab session (it is not JSON).' };
  }
  const r = raw as { odelab?: unknown; settings?: unknown };
  if (typeof r !== 'object' || r === null || typeof r.odelab !== 'number' || typeof r.settings !== 'object') {
    return { error: 'This file is not an odelab session.' };
  }
  if (r.odelab > SHARE_VERSION) return { error: `This session was saved by a newer odelab (version ${r.odelab}).` };
  return decodeSettings(encodeSettings(r.settings as RunSettings));
}

/** Offers `data` to the user as a file named `name`. */
export function download(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
