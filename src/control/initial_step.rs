//! The first step size when the user gives none: Hairer, Nørsett & Wanner, *Solving
//! ODEs I* (Schwab & Delhaes's reference [6]), §II.4 "Starting step size" (the algorithm of
//! DOPRI5 and SciPy's `select_initial_step`). Costs two evaluations of f.

use super::{error_norm, ErrorNorm, Tolerance};
use crate::math;
use crate::problem::System;
use crate::stats::Stats;

/// A first step for a method whose error estimate has order q, from (t0, y0) towards
/// t1: h0 = 0.01 ‖y0‖/‖f0‖, an Euler step of h0 to estimate ‖y''‖, then
/// h1 = (0.01 / max(‖f0‖, ‖y''‖))^{1/(q+1)}, and min(100 h0, h1, t1 − t0).
pub fn initial_step(
    sys: &dyn System,
    t0: f64,
    y0: &[f64],
    t1: f64,
    q: u32,
    tol: &Tolerance,
    stats: &mut Stats,
) -> f64 {
    let span = t1 - t0;
    let dim = y0.len();
    let mut f0 = vec![0.0; dim];
    sys.rhs(t0, y0, &mut f0);
    stats.nfev += 1;
    let d0 = error_norm(ErrorNorm::Rms, y0, y0, y0, tol);
    let d1 = error_norm(ErrorNorm::Rms, &f0, y0, y0, tol);
    let h0 = if d0 < 1e-5 || d1 < 1e-5 || !d1.is_finite() {
        1e-6
    } else {
        0.01 * d0 / d1
    }
    .min(span);
    let y1: Vec<f64> = y0.iter().zip(&f0).map(|(y, f)| y + h0 * f).collect();
    let mut f1 = vec![0.0; dim];
    sys.rhs(t0 + h0, &y1, &mut f1);
    stats.nfev += 1;
    let df: Vec<f64> = f1.iter().zip(&f0).map(|(a, b)| (a - b) / h0).collect();
    let d2 = error_norm(ErrorNorm::Rms, &df, y0, y0, tol);
    let h1 = if d1 <= 1e-15 && d2 <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        math::powf(0.01 / d1.max(d2), 1.0 / (q as f64 + 1.0))
    };
    let h = (100.0 * h0).min(h1).min(span);
    if h.is_finite() && h > 0.0 {
        h
    } else {
        h0
    }
}
