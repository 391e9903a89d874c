//! `ab3`: the explicit three-step Adams–Bashforth method of Schwab & Delhaes §7.8,
//! y_{n+1} = y_n + h/12 (23 f_n − 16 f_{n−1} + 5 f_{n−2}) (weights in `adams.rs`),
//! started by two RK4 steps. One f evaluation per step; real stability interval
//! [−6/11, 0] (the Sources panel's errata).

use super::adams::{self, Adams, Scheme};
use super::{CharPoly, MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;

pub const INFO: MethodInfo = MethodInfo {
    id: "ab3",
    name: "Adams–Bashforth 3",
    order: 3,
    family: "explicit multistep (Adams)",
    source: "Schwab & Delhaes §7.8",
    stages: 1,
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

/// On y' = λy, from the weights the step uses (`adams::AB3`):
/// ρ(ζ) = ζ³ − ζ², σ(ζ) = (23ζ² − 16ζ + 5)/12, π = ρ − ξσ. Real intercept −6/11
/// (Schwab & Delhaes §7.8, corrected in the Sources panel's errata).
pub const CHAR_POLY: CharPoly = CharPoly {
    coef: &[
        &[0.0, -adams::AB3[2]],
        &[0.0, -adams::AB3[1]],
        &[-1.0, -adams::AB3[0]],
        &[1.0, 0.0],
    ],
};

fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Adams::new(&INFO, Scheme::Ab3, dim)))
}
