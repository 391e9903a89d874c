/**
 * What a mechanism looks like at one instant: shapes in world coordinates (metres, y up),
 * from a run's state, parameters and t. One small description per built-in mechanical
 * model (geometry from its file in src/model/ and src/multibody/models.rs), one for the
 * body coordinates of the augmented and state-space formulations (each body drawn from
 * its own x, y, φ, so drift separates the links), and the `draw` lines of a typed
 * system (outputs named `draw N shape arg`, src/expr/draw.rs). Pure: no canvas here.
 */

export type Shape =
  | { kind: 'rod'; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'spring'; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'damper'; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'ball'; x: number; y: number; r: number }
  /** A pivot or joint. */
  | { kind: 'pin'; x: number; y: number }
  /** A torsional spring around (x, y). */
  | { kind: 'coil'; x: number; y: number; r: number }
  /** Hatched ground (or wall) along the horizontal line y. */
  | { kind: 'ground'; y: number }
  /** A box centred at (x, y), turned by `angle` (rad). */
  | { kind: 'box'; x: number; y: number; w: number; h: number; angle?: number }
  /** An open polyline (the road). */
  | { kind: 'path'; points: [number, number][] };

/** Everything a description reads: values by name (states, outputs, parameters) and t. */
export interface Frame {
  t: number;
  value: (name: string) => number;
}

type Describe = (f: Frame) => Shape[];

const e = (phi: number): [number, number] => [Math.cos(phi), Math.sin(phi)];

/** A link of half-length a centred at (x, y) along angle φ. */
function link(x: number, y: number, phi: number, a: number): Shape {
  const [c, s] = e(phi);
  return { kind: 'rod', x1: x - a * c, y1: y - a * s, x2: x + a * c, y2: y + a * s };
}

/** Both double pendulums in body coordinates: links of half-lengths a1, a2. */
function twoLinks(f: Frame, a1: number, a2: number, torsion: boolean): Shape[] {
  const v = f.value;
  const [c1, s1] = e(v('φ1'));
  const joint: [number, number] = [v('x1') + a1 * c1, v('y1') + a1 * s1];
  return [
    { kind: 'pin', x: 0, y: 0 },
    link(v('x1'), v('y1'), v('φ1'), a1),
    link(v('x2'), v('y2'), v('φ2'), a2),
    ...(torsion ? [{ kind: 'coil' as const, x: 0, y: 0, r: 0.12 * a1 }] : []),
    { kind: 'coil', x: joint[0], y: joint[1], r: 0.12 * a1 },
    { kind: 'pin', x: joint[0], y: joint[1] },
  ];
}

/** The pendulum: pivot at the origin, bob at (L sin θ, −L cos θ). */
const pendulum: Describe = ({ value: v }) => {
  const L = v('L');
  const x = L * Math.sin(v('θ'));
  const y = -L * Math.cos(v('θ'));
  return [
    { kind: 'rod', x1: 0, y1: 0, x2: x, y2: y },
    { kind: 'pin', x: 0, y: 0 },
    { kind: 'ball', x, y, r: 0.08 * L },
  ];
};

/** Negrut et al.'s double pendulum from its absolute angles (joint at 2L1 e(θ1)). */
const rsdaNative: Describe = (f) => {
  const v = f.value;
  const [L1, L2] = [v('L1'), v('L2')];
  const [c1, s1] = e(v('θ1'));
  const [c2, s2] = e(v('θ2'));
  return twoLinks(
    {
      t: f.t,
      value: (n) =>
        ({ x1: L1 * c1, y1: L1 * s1, φ1: v('θ1'), x2: 2 * L1 * c1 + L2 * c2, y2: 2 * L1 * s1 + L2 * s2, φ2: v('θ2') })[n] ??
        v(n),
    },
    L1,
    L2,
    true,
  );
};

/** The bar hinged at the origin, its tip 2s, the spring and the particle (Gil, Sanfelice & Nikravesh 2013 Fig. 6). */
function barAndParticle(hinge: [number, number], tip: [number, number], particle: [number, number], L: number): Shape[] {
  return [
    { kind: 'rod', x1: hinge[0], y1: hinge[1], x2: tip[0], y2: tip[1] },
    { kind: 'pin', x: hinge[0], y: hinge[1] },
    { kind: 'spring', x1: tip[0], y1: tip[1], x2: particle[0], y2: particle[1] },
    { kind: 'ball', x: particle[0], y: particle[1], r: 0.04 * L },
  ];
}

const particleNative: Describe = ({ value: v }) => {
  const L = v('L');
  const tip: [number, number] = [L * Math.sin(v('θ')), -L * Math.cos(v('θ'))];
  return barAndParticle([0, 0], tip, [v('x2'), v('y2')], L);
};

/** Body coordinates: the bar's CM (x1, y1) and angle φ1, hinge at local (0, L/2). */
const particleBodies: Describe = ({ value: v }) => {
  const h = 0.5 * v('L');
  const [s, c] = [Math.sin(v('φ1')), Math.cos(v('φ1'))];
  const hinge: [number, number] = [v('x1') - h * s, v('y1') + h * c];
  const tip: [number, number] = [v('x1') + h * s, v('y1') - h * c];
  return [{ kind: 'pin', x: 0, y: 0 }, ...barAndParticle(hinge, tip, [v('x2'), v('y2')], v('L'))];
};

const bouncingBalls: Describe = ({ value: v }) => {
  const R = v('R');
  return [
    { kind: 'ground', y: 0 },
    { kind: 'ball', x: 0, y: v('y2'), r: R },
    { kind: 'ball', x: 0, y: v('y1'), r: R },
  ];
};


/** The road seen from the car: flat, a half-cylinder bump of radius R at x = xb, marks every metre. */
function road(xb: number, R: number, from: number, to: number, shift: number): Shape[] {
  const points: [number, number][] = [[from, 0]];
  if (xb + R > from && xb - R < to) {
    points.push([xb - R, 0]);
    for (let k = 1; k < 24; k++) {
      const a = Math.PI * (1 - k / 24);
      points.push([xb + R * Math.cos(a), R * Math.sin(a)]);
    }
    points.push([xb + R, 0]);
  }
  points.push([to, 0]);
  const marks: Shape[] = [];
  for (let x = Math.ceil(from - shift) + shift; x < to; x += 1) {
    marks.push({ kind: 'rod', x1: x, y1: -0.04, x2: x - 0.08, y2: -0.12 });
  }
  return [{ kind: 'path', points }, ...marks];
}

/** The half-car: chassis (heave, pitch), suspension from chassis to axle, wheels. */
function car(chassis: { y: number; pitch: number }, wheels: [number, number][], a: number, b: number, rw: number): Shape[] {
  const [c, s] = [Math.cos(chassis.pitch), Math.sin(chassis.pitch)];
  const onChassis = (x: number, y: number): [number, number] => [x * c - y * s, chassis.y + x * s + y * c];
  const shapes: Shape[] = [{ kind: 'box', x: -s * 0.35, y: chassis.y + 0.35 * c, w: a + b + 1.2, h: 0.3, angle: chassis.pitch }];
  for (const [x, y] of wheels) shapes.push({ kind: 'ball', x, y, r: rw });
  // The suspension in front of the wheels, from the chassis floor to each axle.
  for (const [i, [x, y]] of wheels.entries()) {
    const top = onChassis(i === 0 ? a : -b, 0.2);
    shapes.push({ kind: 'spring', x1: top[0] - 0.12, y1: top[1], x2: x - 0.12, y2: y });
    shapes.push({ kind: 'damper', x1: top[0] + 0.12, y1: top[1], x2: x + 0.12, y2: y });
    shapes.push({ kind: 'pin', x, y });
  }
  return shapes;
}

/** Where the front wheel's centre meets the bump: sₑ before its axis (vehicle_stiff.rs). */
function bumpOffset(rw: number, R: number): number {
  return Math.sqrt((rw + R) * (rw + R) - rw * rw);
}

const vehicleNative: Describe = ({ t, value: v }) => {
  const [a, b, rw, R, speed] = [v('a'), v('b'), v('Rw'), 0.5 * v('D'), v('v')];
  // The car stays put, the road moves by −v t: the bump's axis reaches the front axle
  // at t_hit + sₑ/v.
  const xb = a + bumpOffset(rw, R) + speed * (v('tHit') - t);
  return [
    ...road(xb, R, -b - 1.5, a + 1.5, -((speed * t) % 1)),
    ...car({ y: v('chassis height'), pitch: v('θ') }, [[a, rw + v('zf')], [-b, rw + v('zr')]], a, b, rw),
  ];
};

/** Body coordinates (xc grows with v t): drawn in a frame moving with the chassis. */
const vehicleBodies: Describe = ({ t, value: v }) => {
  const [a, b, rw, R, speed] = [v('a'), v('b'), v('Rw'), 0.5 * v('D'), v('v')];
  const xc = v('xc');
  const xb = a + speed * v('tHit') + bumpOffset(rw, R) - xc;
  void t;
  return [
    ...road(xb, R, -b - 1.5, a + 1.5, -(xc % 1)),
    ...car({ y: v('yc'), pitch: v('φc') }, [[v('xf') - xc, v('yf')], [v('xr') - xc, v('yr')]], a, b, rw),
  ];
};

/** Mass–spring–damper hanging from a ceiling, x down (Schwab & Delhaes eq. 7.7). */
const massSpringDamper: Describe = ({ value: v }) => {
  const rest = 0.3;
  const size = 0.14;
  const y = -(rest + v('x'));
  return [
    { kind: 'ground', y: 0 },
    { kind: 'spring', x1: -0.05, y1: 0, x2: -0.05, y2: y + size / 2 },
    { kind: 'damper', x1: 0.05, y1: 0, x2: 0.05, y2: y + size / 2 },
    { kind: 'box', x: 0, y, w: 0.2, h: size },
  ];
};

/** Descriptions by model id, native coordinates and body coordinates (formulations). */
const MODELS: Record<string, { native: Describe; bodies?: Describe }> = {
  pendulum: { native: pendulum },
  'double-pendulum-rsda': { native: rsdaNative, bodies: (f) => twoLinks(f, f.value('L1'), f.value('L2'), true) },
  'double-pendulum-stiff': {
    native: (f) => twoLinks(f, 0.5 * f.value('L1'), 0.5 * f.value('L2'), false),
  },
  'pendulum-particle': { native: particleNative, bodies: particleBodies },
  'bouncing-balls': { native: bouncingBalls },
  'vehicle-stiff': { native: vehicleNative, bodies: vehicleBodies },
  'mass-spring-damper': { native: massSpringDamper },
};

/** Models with a picture. */
export const DRAWN_MODELS = Object.keys(MODELS);

/** The prefix of a typed system's drawing outputs (src/expr/draw.rs). */
export const DRAW_PREFIX = 'draw ';

/** Output names that are a drawing, not a quantity to plot. */
export function isDrawOutput(name: string): boolean {
  return name.startsWith(DRAW_PREFIX);
}

/**
 * A typed system's shapes from its `draw N shape arg` outputs, in line order (a line
 * with a range gives `draw N.k shape arg`, one shape per k).
 */
function typedShapes(outputs: string[], f: Frame): Shape[] {
  const lines = new Map<string, { shape: string; args: Record<string, number> }>();
  for (const name of outputs) {
    const [, index, shape, arg] = name.split(' ');
    if (!index || !shape || !arg) continue;
    const line = lines.get(index) ?? { shape, args: {} };
    line.args[arg] = f.value(name);
    lines.set(index, line);
  }
  const shapes: Shape[] = [];
  for (const { shape, args: a } of lines.values()) {
    if (shape === 'rod' || shape === 'spring') shapes.push({ kind: shape, x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2 });
    else if (shape === 'ball') shapes.push({ kind: 'ball', x: a.x, y: a.y, r: a.r });
    else if (shape === 'ground') shapes.push({ kind: 'ground', y: a.y });
    else if (shape === 'box') shapes.push({ kind: 'box', x: a.x, y: a.y, w: a.w, h: a.h });
    else if (shape === 'coil') shapes.push({ kind: 'coil', x: a.x, y: a.y, r: a.r });
  }
  return shapes;
}

/**
 * The drawing of a run of `modelId` whose states are `names` and outputs `outputs`, or
 * undefined if it has none (a model that is not a mechanism, a typed system without
 * draw lines).
 */
export function describer(modelId: string, names: string[], outputs: string[]): ((f: Frame) => Shape[]) | undefined {
  const drawn = outputs.filter(isDrawOutput);
  if (drawn.length > 0) return (f) => typedShapes(drawn, f);
  const entry = MODELS[modelId];
  if (!entry) return undefined;
  // A formulation's run has body coordinates (x1, φ1, … or xc, φc, …), not the model's.
  const bodies = names.includes('φ1') || names.includes('φc');
  if (bodies && modelId !== 'double-pendulum-stiff') return entry.bodies;
  return entry.native;
}

/** The bounding box of shapes (the ground and non-finite values left out). */
export function bounds(shapes: Shape[]): { x0: number; x1: number; y0: number; y1: number } | undefined {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  const add = (x: number, y: number, r = 0): void => {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(r)) return;
    x0 = Math.min(x0, x - r);
    x1 = Math.max(x1, x + r);
    y0 = Math.min(y0, y - r);
    y1 = Math.max(y1, y + r);
  };
  for (const s of shapes) {
    switch (s.kind) {
      case 'rod':
      case 'spring':
      case 'damper':
        add(s.x1, s.y1);
        add(s.x2, s.y2);
        break;
      case 'ball':
      case 'coil':
        add(s.x, s.y, Math.abs(s.r));
        break;
      case 'pin':
        add(s.x, s.y);
        break;
      case 'box':
        add(s.x, s.y, Math.hypot(s.w, s.h) / 2);
        break;
      case 'path':
        for (const [x, y] of s.points) add(x, y);
        break;
      case 'ground':
        if (Number.isFinite(s.y)) [y0, y1] = [Math.min(y0, s.y), Math.max(y1, s.y)];
        break;
    }
  }
  if (!(y0 <= y1)) return undefined;
  // A picture of only grounds has no width: give it one around x = 0.
  return x0 <= x1 ? { x0, x1, y0, y1 } : { x0: -1, x1: 1, y0, y1 };
}
