/**
 * Colours a canvas needs that CSS cannot give it: a canvas is painted by script, so it
 * follows the page's colour scheme (`prefers-color-scheme`, www/style.css) only by
 * asking here. One source for the mechanism, the phase portrait, the heat map, the
 * ξ-plane's axes and the PNG exports.
 */

/** Whether the page is shown in its dark scheme. */
export function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export interface Ink {
  /** A figure's background (www/style.css `figure`). */
  background: string;
  /** Text and axis lines. */
  text: string;
  /** Grid lines. */
  grid: string;
  /** Lines of a drawing (rods, springs). */
  stroke: string;
  /** Filled bodies (balls). */
  fill: string;
  /** Boxes (bodies, the vehicle). */
  box: string;
}

const LIGHT: Ink = { background: '#ffffff', text: '#334455', grid: '#e1e5ee', stroke: '#343a40', fill: '#1f5fbf', box: '#ced4da' };
const DARK: Ink = { background: '#1b202b', text: '#c9d1e3', grid: '#2e3647', stroke: '#d0d6e2', fill: '#5b8def', box: '#4a5468' };

/** The ink of the current scheme (or of `dark` when given, for exports and tests). */
export function ink(dark = prefersDark()): Ink {
  return dark ? DARK : LIGHT;
}

/** Calls `redraw` whenever the colour scheme changes (a canvas keeps its old colours otherwise). */
export function onSchemeChange(redraw: () => void): void {
  if (typeof matchMedia !== 'function') return;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw);
}

/**
 * Twelve colours told apart in light and dark schemes (blue, vermilion, green, purple,
 * crimson, teal, amber, olive, brown, cyan, pink, grey); series past twelve take them
 * again with a dash pattern, so no two lines of one plot look alike.
 */
export const PALETTE = ['#1f5fbf', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#e67700', '#5c940d', '#9c6644', '#15aabf', '#f06595', '#868e96'];
/** Dash patterns for the second, third, … round of the palette. */
const ROUND_DASHES: number[][] = [[], [8, 3], [2, 3], [8, 3, 2, 3], [12, 4, 4, 4]];

/** Colour and dash of series `i` (0-based) of a plot: distinct for the first 60. */
export function seriesStyle(i: number): { color: string; dash?: number[] } {
  const k = Math.max(0, Math.floor(i));
  const dash = ROUND_DASHES[Math.floor(k / PALETTE.length) % ROUND_DASHES.length];
  return { color: PALETTE[k % PALETTE.length], ...(dash.length > 0 ? { dash } : {}) };
}
