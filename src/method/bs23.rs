//! Bogacki–Shampine 3(2), the method of MATLAB's ode23, as listed in Schwab & Delhaes (the
//! "ODE23" Butcher arrays, the ode23 listing and ntrp23). Third-order solution, second-
//! order embedded estimate, FSAL: three evaluations per step.
//!
//! The paper prints the update as h/9 (2k1 + k2 + 4k3); those weights sum to 7/9. The
//! Butcher array and the listing in the same pages have (2, 3, 4)/9, which is right
//! (the Sources panel's errata, "the RK3 (ODE23) update"): the `b` below uses it.

use super::{
    FixedPair, FixedRk, FixedTableau, MethodEntry, MethodInfo, MethodOptions, Stepper, Tableau, Xi,
};
use crate::error::OdeError;

/// Schwab & Delhaes, ode23 listing: A = [1/2; 3/4; 1], B columns (1/2), (0, 3/4), (2/9, 1/3, 4/9);
/// the fourth stage is f(t_{n+1}, y_{n+1}) (FSAL). Update weights corrected per
/// the Sources panel's errata (2/9, 3/9, 4/9), equal to the listing's B(:, 3).
pub const TABLEAU: Tableau = Tableau {
    a: &[
        &[],
        &[1.0 / 2.0],
        &[0.0, 3.0 / 4.0],
        &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0],
    ],
    b: &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0],
    c: &[0.0, 1.0 / 2.0, 3.0 / 4.0, 1.0],
    // Schwab & Delhaes, ode23 listing: E = [−5/72; 1/12; 1/9; −1/8] (= b − b̂; the Sources panel's errata
    // confirms it).
    error: Some(&[-5.0 / 72.0, 1.0 / 12.0, 1.0 / 9.0, -1.0 / 8.0]),
    fsal: true,
    // Schwab & Delhaes, ntrp23: BI, coefficients of s, s², s³ per stage.
    dense: Some(&[
        &[1.0, -4.0 / 3.0, 5.0 / 9.0],
        &[0.0, 1.0, -2.0 / 3.0],
        &[0.0, 4.0 / 3.0, -8.0 / 9.0],
        &[0.0, -1.0, 1.0],
    ]),
};

/// [`TABLEAU`] in fixed-size arrays for the specialised step (`fixed_rk.rs`).
pub struct Bs23;

impl FixedPair<4, 3> for Bs23 {
    const TABLEAU: FixedTableau<4, 3> = FixedTableau::from_tableau(&TABLEAU);
}

pub const INFO: MethodInfo = MethodInfo {
    id: "bs23",
    name: "Bogacki–Shampine 3(2)",
    order: 3,
    family: "explicit Runge–Kutta, embedded pair",
    source: "Schwab & Delhaes, ode23 listing and ntrp23 (update weights corrected, see Sources)",
    stages: 3,
    adaptive: true,
    embedded_order: Some(2),
    fsal: true,
    dense_order: 3,
    second_order: false,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
    sparse: false,
};

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Explicit(&TABLEAU),
};

/// The compile-time specialised step of an FSAL pair with an interpolant (the same
/// bits as the generic loop, see `fixed_rk.rs`).
fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(FixedRk::<Bs23, 4, 3>::new(&INFO, dim)))
}
