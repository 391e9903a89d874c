// The ξ-plane view's pure helpers (www/plane.ts).
import { describe, expect, it } from 'vitest';
import { colorize, MAX_WINDOW, niceTicks, pan, pixelToXi, xiToPixel, zoomAt } from '../../www/plane';

const win = { re: [-4, 2] as [number, number], im: [-3, 3] as [number, number] };

describe('plane geometry', () => {
  it('maps pixels and ξ both ways, y pointing down', () => {
    expect(pixelToXi(win, 600, 600, 0, 0)).toEqual([-4, 3]);
    expect(pixelToXi(win, 600, 600, 600, 600)).toEqual([2, -3]);
    const [x, y] = xiToPixel(win, 600, 600, -1, 1.5);
    expect(pixelToXi(win, 600, 600, x, y)).toEqual([-1, 1.5]);
  });
  it('zooms about a fixed point and pans', () => {
    const z = zoomAt(win, -1, 0, 0.5);
    expect(z).toEqual({ re: [-2.5, 0.5], im: [-1.5, 1.5] });
    expect(pan(win, 1, -1)).toEqual({ re: [-3, 3], im: [-4, 2] });
  });
  it('stops zooming out and panning where the engine stops mapping', () => {
    const wide = { re: [-MAX_WINDOW / 2, MAX_WINDOW / 2] as [number, number], im: [-1, 1] as [number, number] };
    expect(zoomAt(wide, 0, 0, 4)).toBe(wide);
    expect(pan(wide, MAX_WINDOW, 0)).toBe(wide);
    expect(zoomAt(wide, 0, 0, 1.5).re).toEqual([-0.75 * MAX_WINDOW, 0.75 * MAX_WINDOW]);
  });
  it('places round ticks', () => {
    expect(niceTicks(-4, 2, 6)).toEqual([-4, -3, -2, -1, 0, 1, 2]);
    expect(niceTicks(-0.3, 0.3, 6)).toEqual([-0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3]);
    expect(niceTicks(1, 1)).toEqual([]);
  });
});

describe('colour map', () => {
  it('is blue where |R| < 1, red where > 1, white-ish at 1, and flips rows', () => {
    // 2 × 2 map, row iy = 0 is the bottom (Im ξ smallest).
    const px = colorize([0.01, 1, 100, NaN], 2, 2);
    const at = (row: number, col: number): number[] => Array.from(px.slice((row * 2 + col) * 4, (row * 2 + col) * 4 + 4));
    const [bottomLeft, bottomRight, topLeft, topRight] = [at(1, 0), at(1, 1), at(0, 0), at(0, 1)];
    expect(bottomLeft[2]).toBeGreaterThan(bottomLeft[0]); // stable: blue dominates
    expect(topLeft[0]).toBeGreaterThan(topLeft[2]); // unstable: red dominates
    expect(Math.min(...bottomRight.slice(0, 3))).toBeGreaterThan(180); // |R| = 1: light
    expect(topRight).toEqual([200, 200, 200, 255]); // NaN: grey
  });
});
