//! `ros4`: the four-stage, L-stable, order-4 Rosenbrock method with an order-3 embedded
//! formula of Negrut et al. 2003 §2, Table 1 (three f evaluations per step: α4j = α3j, 001
//! eq. 11). Needs the exact Jacobian: with J = 0 it drops to order 1
//! (the Sources panel's errata).
//!
//! **Correction:** Table 1 prints γ21 = +2.34199312711201394970520; the sign must be
//! negative (the Sources panel's errata, "Negrut et al. 2003 Table 1, γ21": with the printed sign the order
//! conditions (8b), (8d), (8f), (8h) fail and R(∞) ≈ −0.58). The γij are the full
//! Hairer–Wanner γij (j < i) with γii = γ; b̂1 = α31 digit for digit is a coincidence.
//! γ is printed to 8 digits, so R(−∞) ≈ 9.6e-9 rather than 0.

// The digits are exactly as printed in Negrut et al. 2003 Table 1, so the table can be checked
// against the paper line by line; the compiler rounds them to the nearest f64.
#![allow(clippy::excessive_precision)]

use super::{MethodEntry, MethodInfo, MethodOptions, Rosenbrock, RosenbrockTableau, Stepper, Xi};
use crate::error::OdeError;

/// Negrut et al. 2003 Table 1 (γ21 sign corrected per the Sources panel's errata).
pub const TABLEAU: RosenbrockTableau = RosenbrockTableau {
    gamma_diag: 0.57281606,
    alpha: &[
        &[],
        &[1.14563212],
        &[0.520920789130629029328516, 0.134294186842504800149232],
        &[0.520920789130629029328516, 0.134294186842504800149232, 0.0],
    ],
    gamma: &[
        &[],
        // Printed +2.3419…; corrected sign, the Sources panel's errata.
        &[-2.34199312711201394970520],
        &[-0.02733374654348983696505, 0.21381165083669968987472],
        &[
            -0.259083837785510222112641,
            -0.19059580773231175166358,
            -0.22803103597313382947744,
        ],
    ],
    b: &[
        0.324534707891734513474196,
        0.049086544787523308684633,
        0.0,
        0.62637874732074217781171,
    ],
    b_hat: &[
        0.520920789130629029328516,
        0.14454971466536459984681,
        0.124559686414702049774897,
        0.20996980978930432131906,
    ],
};

pub const INFO: MethodInfo = MethodInfo {
    id: "ros4",
    name: "Rosenbrock 4(3)",
    order: 4,
    family: "Rosenbrock",
    source: "Negrut et al. 2003, §2, Table 1 (γ21 sign corrected, see Sources), eqs. (2)–(7)",
    stages: 3,
    adaptive: true,
    embedded_order: Some(3),
    fsal: false,
    dense_order: 3,
    second_order: false,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
    sparse: true,
};

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Rosenbrock(&TABLEAU),
};

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Rosenbrock::new(
        &INFO,
        &TABLEAU,
        dim,
        options.jacobian,
    )))
}
