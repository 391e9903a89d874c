//! `w2`: the second-order W-method ROS2 of Verwer et al., Negrut et al. 2003 Table 3 (and the
//! text after Table 2). A W-method keeps its order with any matrix in place of the
//! Jacobian, so it tolerates a frozen (`jacobianUpdate`) or perturbed
//! (`jacobianScale`) one; ros4 does not.
//!
//! In the form of Negrut et al. 2003 eq. (2b) (the Sources panel's errata, "Negrut et al. 2003 Table 3 … is consistent"):
//! γ = 1 + 1/√2, α21 = 1, γ21 = −2γ, b = (1/2, 1/2), b̂ = (0, 1). The order-2
//! conditions that hold for any J: Σb = 1, b2 α21 = 1/2 and Σ b_i γ_i = 0
//! (γ1 = γ, γ2 = −γ as Table 3 prints). R(z) = (1 + (1 − 2γ)z)/(1 − γz)² since the z²
//! coefficient γ² − 2γ + 1/2 vanishes: L-stable. The embedded ŷ = y_n + k2 is first
//! order.

use super::{MethodEntry, MethodInfo, MethodOptions, Rosenbrock, RosenbrockTableau, Stepper, Xi};
use crate::error::OdeError;

/// γ = 1 + 1/√2 (Table 3 prints 1.70710678118650).
const GAMMA: f64 = 1.0 + std::f64::consts::FRAC_1_SQRT_2;

/// Negrut et al. 2003 Table 3 in the form of Negrut et al. 2003 eq. (2b) (the Sources panel's errata).
pub const TABLEAU: RosenbrockTableau = RosenbrockTableau {
    gamma_diag: GAMMA,
    alpha: &[&[], &[1.0]],
    gamma: &[&[], &[-2.0 * GAMMA]],
    b: &[0.5, 0.5],
    b_hat: &[0.0, 1.0],
};

pub const INFO: MethodInfo = MethodInfo {
    id: "w2",
    name: "W-method ROS2",
    order: 2,
    family: "W-method (Rosenbrock type)",
    source: "Negrut et al. 2003, Table 3 (Verwer et al. ROS2), eqs. (2)–(7)",
    stages: 2,
    adaptive: true,
    embedded_order: Some(1),
    fsal: false,
    dense_order: 2,
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
