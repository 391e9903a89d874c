//! `ndf`: the variable-step, variable-order numerical differentiation formulas of
//! orders 1–5, MATLAB's `ode15s` (Shampine & Reichelt, "The MATLAB ODE Suite", SIAM J.
//! Sci. Comput. 18 (1997), §2): the BDFs with the term κ_kγ_k(y − y⁽⁰⁾) added, κ of
//! their Table 1, which makes orders 1–4 more accurate (error constants smaller by up
//! to 26 %) for a little stability (NDF2 keeps A-stability). The stepper is `bdf.rs`'s
//! with these κ.

use super::bdf::{Bdf, CHAR_POLY_5, NDF_KAPPA};
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;

pub const INFO: MethodInfo = MethodInfo {
    id: "ndf",
    name: "NDF (variable order 1–5, ode15s)",
    order: 5,
    family: "implicit multistep (NDF), variable step and order",
    source: "Shampine & Reichelt, The MATLAB ODE Suite (1997), §2 (ode15s)",
    stages: 1,
    adaptive: true,
    // The estimate the run starts with (order 1); the first step is chosen for it.
    embedded_order: Some(1),
    fsal: false,
    dense_order: 5,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: false,
    sparse: true,
};

/// Whole engine only (`full`). The ξ-plane draws NDF5, which is BDF5 (κ₅ = 0), the
/// highest order the method runs.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Multistep(CHAR_POLY_5),
}
.full();

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Bdf::new(&INFO, NDF_KAPPA, dim, options)?))
}
