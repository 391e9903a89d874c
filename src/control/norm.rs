//! The scaled error of a step: the weighted RMS norm of seed 001 eq. (5) or the max
//! norm of the ode23/ode45 listings in seed 002. A step is acceptable when it is ≤ 1.

use super::Tolerance;

/// Which norm measures the scaled error vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorNorm {
    /// [1/n Σ (e_i / sc_i)²]^½, seed 001 eq. (5) (also SciPy's and Hairer's choice).
    Rms,
    /// max_i |e_i| / sc_i, the `norm(…, inf)` of the ode23/ode45 listings.
    Max,
}

/// The norm of `err` scaled component-wise by sc_i (seed 001 eq. 4). A component with
/// sc_i = 0 (atol = 0 and y = 0) counts as infinitely wrong unless its error is 0 too.
pub fn error_norm(
    norm: ErrorNorm,
    err: &[f64],
    y_old: &[f64],
    y_new: &[f64],
    tol: &Tolerance,
) -> f64 {
    let scaled = err.iter().enumerate().map(|(i, &e)| {
        let sc = tol.scale(i, y_old[i], y_new[i]);
        if e == 0.0 {
            0.0
        } else {
            (e / sc).abs()
        }
    });
    match norm {
        ErrorNorm::Rms => {
            let n = err.len().max(1) as f64;
            (scaled.map(|s| s * s).sum::<f64>() / n).sqrt()
        }
        ErrorNorm::Max => scaled.fold(0.0, f64::max),
    }
}
