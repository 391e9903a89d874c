//! `am-pece`: Adams–Bashforth 3 predictor, order-4 Adams–Moulton corrector
//! y_{n+1} = y_n + h/24 (9 f_{n+1} + 19 f_n − 5 f_{n−1} + f_{n−2}) in PECE mode (seed
//! Schwab & Delhaes §7.8: predict with AB order k, correct with AM order k + 1; weights in
//! `adams.rs`). Two f evaluations per step, order 4; started by two RK4 steps.

use super::adams::{Adams, Scheme};
use super::{CharPoly, MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;

pub const INFO: MethodInfo = MethodInfo {
    id: "am-pece",
    name: "Adams–Moulton PECE (AB3 + AM4)",
    order: 4,
    family: "explicit multistep (Adams)",
    source: "Schwab & Delhaes §7.8 (PECE, Shampine 1975)",
    stages: 2,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 3,
    second_order: false,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
    sparse: false,
};

/// Whole engine only (`full`): the first-load package lists it and draws its ξ-plane,
/// and the worker runs it in the whole engine (no scenario opens on it).
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Multistep(CHAR_POLY),
}
.full();

/// π(ζ; z) of the PECE step as implemented (Schwab & Delhaes §7.8, "predict with A–B
/// order k, correct with A–M order k + 1", k = 3): predictor AB3
/// y* = y_n + h(23 f_n − 16 f_{n−1} + 5 f_{n−2})/12, corrector AM4
/// y_{n+1} = y_n + h(9 f* + 19 f_n − 5 f_{n−1} + f_{n−2})/24 with f* = f(y*), and a
/// final evaluation at the corrected value. On y' = λy (f_j = λ y_j, z = ξ), substituting
/// y* into the corrector:
/// y_{n+1} = (1 + 7z/6 + 23z²/32) y_n − (5z/24 + z²/2) y_{n−1} + (z/24 + 5z²/32) y_{n−2},
/// so π(ζ; z) = ζ³ − (1 + 7z/6 + 23z²/32)ζ² + (5z/24 + z²/2)ζ − (z/24 + 5z²/32)
/// (the products of `adams::AB3` and `adams::AM4`, written as the exact fractions; a
/// test checks them against those weights). Its real interval is far shorter than the
/// implicit AM4's (−3): the corrector is applied once, not iterated to convergence.
pub const CHAR_POLY: CharPoly = CharPoly {
    coef: &[
        &[0.0, -1.0 / 24.0, -5.0 / 32.0],
        &[0.0, 5.0 / 24.0, 0.5],
        &[-1.0, -7.0 / 6.0, -23.0 / 32.0],
        &[1.0, 0.0, 0.0],
    ],
};

fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Adams::new(&INFO, Scheme::Pece, dim)))
}
