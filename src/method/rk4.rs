//! The classical fourth-order Runge–Kutta method. Schwab & Delhaes §7.3.
//! R(z) = 1 + z + z²/2 + z³/6 + z⁴/24; stable on the imaginary axis up to |hλ| = 2√2.

use super::{ExplicitRk, MethodEntry, MethodInfo, MethodOptions, Stepper, Tableau, Xi};
use crate::error::OdeError;

/// Schwab & Delhaes §7.3: k1..k4 at t_n, t_n + h/2, t_n + h/2, t_n + h; weights (1, 2, 2, 1)/6.
pub const TABLEAU: Tableau = Tableau {
    a: &[&[], &[1.0 / 2.0], &[0.0, 1.0 / 2.0], &[0.0, 0.0, 1.0]],
    b: &[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
    c: &[0.0, 1.0 / 2.0, 1.0 / 2.0, 1.0],
    error: None,
    fsal: false,
    dense: None,
};

pub const INFO: MethodInfo = MethodInfo {
    id: "rk4",
    name: "Runge–Kutta 4",
    order: 4,
    family: "explicit Runge–Kutta",
    source: "Schwab & Delhaes §7.3 (Runge Kutta 4 step)",
    stages: 4,
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

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Explicit(&TABLEAU),
};

fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(ExplicitRk::new(&INFO, &TABLEAU, dim)))
}
