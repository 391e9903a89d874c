//! Heun's method: an Euler predictor y* = y_n + h f(t_n, y_n) and the trapezoidal
//! corrector y_{n+1} = y_n + h/2 (f(t_n, y_n) + f(t_{n+1}, y*)). Schwab & Delhaes §7.2 (and §7.1,
//! where it is introduced). Order 2; R(z) = 1 + z + z²/2, so like Euler it is unstable
//! on the imaginary axis (Schwab & Delhaes Fig. 7.6).

use super::{ExplicitRk, MethodEntry, MethodInfo, MethodOptions, Stepper, Tableau, Xi};
use crate::error::OdeError;

/// Schwab & Delhaes, the s = 2 Butcher array labelled "Heun" (α = 1/2 of the family
/// c₂ = a₂₁ = 1/(2α), b = (1 − α, α)).
pub const TABLEAU: Tableau = Tableau {
    a: &[&[], &[1.0]],
    b: &[1.0 / 2.0, 1.0 / 2.0],
    c: &[0.0, 1.0],
    error: None,
    fsal: false,
    dense: None,
};

pub const INFO: MethodInfo = MethodInfo {
    id: "heun",
    name: "Heun",
    order: 2,
    family: "explicit Runge–Kutta",
    source: "Schwab & Delhaes §7.2 (Heun step)",
    stages: 2,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 2,
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

fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(ExplicitRk::new(&INFO, &TABLEAU, dim)))
}
