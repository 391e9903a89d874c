// Work-precision curves (bench/cases.json's `workPrecision`): the error of a run's end
// point against the problem's reference, and the time a method needs for a given error
// read off its curve. Shared by bench/wasm_bench.mjs (which measures odelab) and
// bench/report.mjs (which measures SciPy's end points against the same reference).

/** The error of the end point `y` at `t1` of `problem`, against `reference` (an array). */
export function errorOf(problem, y, t1, reference) {
  if (problem.error === 'heat') {
    // The semi-discrete exact solution sin(πi/(N+1)) e^(λ₁t), λ₁ = −4(N+1)² sin²(π/(2(N+1))),
    // relative to its size.
    const m = problem.n + 1;
    const s = Math.sin(Math.PI / (2 * m));
    const decay = Math.exp(-4 * m * m * s * s * t1);
    return Math.max(...y.map((u, i) => Math.abs(u - Math.sin((Math.PI * (i + 1)) / m) * decay))) / decay;
  }
  const rel = problem.error === 'max-rel';
  return Math.max(...y.map((v, i) => Math.abs(v - reference[i]) / (rel ? Math.abs(reference[i]) : 1)));
}

/**
 * The time a curve needs for error `err`: its points ({rtol, err, ms}) in the order of
 * the tolerance sweep, log time interpolated linearly in log error between the first
 * two neighbouring points whose errors bracket `err` (the loosest tolerances that reach
 * it); null when no neighbours bracket it (the sweep does not reach that error).
 */
export function timeAtError(points, err) {
  const ok = points.filter((p) => p.err > 0 && Number.isFinite(p.err) && p.ms > 0).sort((p, q) => q.rtol - p.rtol);
  for (let i = 0; i + 1 < ok.length; i++) {
    const [a, b] = [ok[i], ok[i + 1]];
    if (a.err === b.err || (err - a.err) * (err - b.err) > 0) continue;
    const w = (Math.log(a.err) - Math.log(err)) / (Math.log(a.err) - Math.log(b.err));
    return Math.exp((1 - w) * Math.log(a.ms) + w * Math.log(b.ms));
  }
  return null;
}
