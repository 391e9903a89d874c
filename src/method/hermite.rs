//! Cubic Hermite interpolation between two steps: the dense output of methods whose
//! source gives none (Euler, Heun, RK4). Matches y and y' = f at both ends, so its
//! error is O(h⁴) whatever the method's order (Hairer–Nørsett–Wanner I, §II.6).

/// Writes the cubic through (y0, f0) at θ = 0 and (y1, f1) at θ = 1, on a step of size
/// h, at θ ∈ [0, 1]: (1 − θ) y0 + θ y1 + θ(θ − 1)[(1 − 2θ)(y1 − y0) + (θ − 1) h f0 + θ h f1].
pub fn hermite_cubic(
    theta: f64,
    h: f64,
    y0: &[f64],
    f0: &[f64],
    y1: &[f64],
    f1: &[f64],
    out: &mut [f64],
) {
    let s = theta;
    for (i, o) in out.iter_mut().enumerate() {
        let dy = y1[i] - y0[i];
        *o = (1.0 - s) * y0[i]
            + s * y1[i]
            + s * (s - 1.0) * ((1.0 - 2.0 * s) * dy + (s - 1.0) * h * f0[i] + s * h * f1[i]);
    }
}

/// f(t, y) kept in `slot`: evaluated (and counted) the first time a step's dense output
/// needs it, reused afterwards — the end-of-step slope of the Hermite interpolant.
pub(crate) fn lazy_rhs<'a>(
    slot: &'a mut Option<Vec<f64>>,
    sys: &dyn crate::problem::System,
    t: f64,
    y: &[f64],
    stats: &mut crate::stats::Stats,
) -> &'a [f64] {
    slot.get_or_insert_with(|| {
        let mut f = vec![0.0; y.len()];
        sys.rhs(t, y, &mut f);
        stats.nfev += 1;
        f
    })
}
