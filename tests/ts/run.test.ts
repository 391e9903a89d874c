// A run's questions (www/run.ts), the mechanisms' pictures (www/drawing.ts) and a custom
// tableau's capabilities (www/settings.ts customMethodInfo).
import { describe, expect, it } from 'vitest';
import { indexAt, resample, rowAt, unionGrid } from '../../www/run';
import { describer } from '../../www/drawing';
import type { Frame, Shape } from '../../www/drawing';
import { customMethodInfo } from '../../www/settings';
import type { TableauAnalysis } from '../../www/engine-labs';

const frame = (t: number, values: Record<string, number>): Frame => ({ t, value: (n) => values[n] ?? NaN });
const byKind = (shapes: Shape[], kind: Shape['kind']): Shape[] => shapes.filter((s) => s.kind === kind);

describe('a run at a time between its points', () => {
  const t = [0, 0.5, 1, 2];
  const y = [0, 10, 1, 11, 2, 12, 4, 14]; // two states: s and s + 10, s = 2t on [0, 1]

  it('finds the last stored point at or before t, clamped to the run', () => {
    expect([-1, 0, 0.49, 0.5, 1.99, 2, 3].map((x) => indexAt(t, x))).toEqual([0, 0, 0, 1, 2, 3, 3]);
    // Several attempts may begin at one time (the step inspector's log): the last of them.
    expect([0, 0.5, 1, 1.5].map((x) => indexAt([0, 0, 1, 1, 2], x))).toEqual([1, 1, 3, 3]);
  });

  it('is exact at stored points and linear between them', () => {
    expect(rowAt(t, y, 2, 0.5)).toEqual([1, 11]);
    expect(rowAt(t, y, 2, 1.5)).toEqual([3, 13]);
    expect(rowAt(t, y, 2, 5)).toEqual([4, 14]);
  });

  it('puts runs on one grid: the union of theirs, gaps outside each run', () => {
    const grid = unionGrid([t, [0, 0.25, 0.5]]);
    expect(Array.from(grid)).toEqual([0, 0.25, 0.5, 1, 2]);
    expect(Array.from(resample([0, 0.25, 0.5], [1, 2, 3], grid))).toEqual([1, 2, 3, NaN, NaN]);
  });
});

describe('mechanism pictures', () => {
  it('hang the pendulum bob at (L sin θ, −L cos θ)', () => {
    const draw = describer('pendulum', ['θ', 'ω'], ['energy']);
    const [bob] = byKind(draw!(frame(0, { θ: 0.3, ω: 0, L: 2 })), 'ball') as Extract<Shape, { kind: 'ball' }>[];
    expect(bob.x).toBeCloseTo(2 * Math.sin(0.3), 14);
    expect(bob.y).toBeCloseTo(-2 * Math.cos(0.3), 14);
  });

  it('draw the particle pendulum the same from body coordinates as from θ (src/multibody/models.rs)', () => {
    const [theta, L] = [0.7, 1.5];
    const h = L / 2;
    const native = describer('pendulum-particle', ['θ', 'θ̇', 'x2', 'y2', 'ẋ2', 'ẏ2'], ['energy'])!(
      frame(0, { θ: theta, x2: 0.9, y2: -1.1, L }),
    );
    // models.rs particle(): the bar's CM at (h sin θ, −h cos θ), φ1 = θ.
    const bodies = describer('pendulum-particle', ['x1', 'y1', 'φ1', 'x2', 'y2', 'φ2'], [])!(
      frame(0, { x1: h * Math.sin(theta), y1: -h * Math.cos(theta), φ1: theta, x2: 0.9, y2: -1.1, L }),
    );
    const bar = (shapes: Shape[]) => byKind(shapes, 'rod')[0] as Extract<Shape, { kind: 'rod' }>;
    for (const key of ['x1', 'y1', 'x2', 'y2'] as const) expect(bar(bodies)[key]).toBeCloseTo(bar(native)[key], 14);
    expect(byKind(bodies, 'ball')).toEqual(byKind(native, 'ball'));
  });

  it('put the vehicle and the bump in the same places from body coordinates as from the native state', () => {
    const p = { a: 1.5646, b: 1.5646, Rw: 0.47, D: 0.1, v: 4.4704, tHit: 0.5 };
    const t = 0.8;
    const native = describer('vehicle-stiff', ['z', 'θ', 'zf', 'zr', 'ż', 'θ̇', 'żf', 'żr'], [])!(
      frame(t, { ...p, z: 0, θ: 0, zf: 0, zr: 0 }),
    );
    // models.rs vehicle() at rest: xc = v t, the wheel centres at height Rw under the axles.
    const bodies = describer('vehicle-stiff', ['xc', 'yc', 'φc', 'xf', 'yf', 'φf', 'xr', 'yr', 'φr'], [])!(
      frame(t, { ...p, xc: p.v * t, yc: 0.71, φc: 0, xf: p.v * t + p.a, yf: p.Rw, φf: 0, xr: p.v * t - p.b, yr: p.Rw, φr: 0 }),
    );
    const centres = (shapes: Shape[]) => byKind(shapes, 'ball').flatMap((b) => (b.kind === 'ball' ? [b.x, b.y, b.r] : []));
    centres(bodies).forEach((x, i) => expect(x).toBeCloseTo(centres(native)[i], 12));
    const road = (shapes: Shape[]) => (byKind(shapes, 'path')[0] as Extract<Shape, { kind: 'path' }>).points.flat();
    road(bodies).forEach((x, i) => expect(x).toBeCloseTo(road(native)[i], 12));
  });

  it("read a typed system's draw outputs in line order, and nothing else", () => {
    const outputs = ['energy', 'draw 1 ground y', 'draw 2 ball x', 'draw 2 ball y', 'draw 2 ball r'];
    const draw = describer('custom', ['x', 'v'], outputs)!;
    expect(draw(frame(0, { 'draw 1 ground y': -1, 'draw 2 ball x': 0.5, 'draw 2 ball y': 2, 'draw 2 ball r': 0.1 }))).toEqual([
      { kind: 'ground', y: -1 },
      { kind: 'ball', x: 0.5, y: 2, r: 0.1 },
    ]);
    expect(describer('custom', ['x', 'v'], ['energy'])).toBeUndefined();
    expect(describer('robertson', ['y1', 'y2', 'y3'], [])).toBeUndefined();
  });
});

describe('a custom tableau as a method', () => {
  const analysis = (embeddedOrder?: number): TableauAnalysis =>
    ({ stages: 7, explicit: true, order: 5, fsal: true, c: [], conditions: [], ...(embeddedOrder ? { embeddedOrder } : {}) }) as unknown as TableauAnalysis;

  it('adapts its step exactly when the tableau has embedded weights', () => {
    const info = customMethodInfo(analysis(4));
    expect(info).toMatchObject({ id: 'custom', adaptive: true, embeddedOrder: 4, order: 5, stages: 6, fsal: true, denseOrder: 3 });
    expect(customMethodInfo(analysis()).adaptive).toBe(false);
  });
});
