//! Explicit (forward) Euler: y_{n+1} = y_n + h f(t_n, y_n). Schwab & Delhaes §7.1.
//! Order 1; R(z) = 1 + z, so no part of the imaginary axis but 0 is stable
//! (Schwab & Delhaes Fig. 7.4): an undamped pendulum gains energy every step (Schwab & Delhaes Fig. 7.5).

use super::{ExplicitRk, MethodEntry, MethodInfo, MethodOptions, Stepper, Tableau, Xi};
use crate::error::OdeError;

/// Schwab & Delhaes §7.1, "Euler step".
pub const TABLEAU: Tableau = Tableau {
    a: &[&[]],
    b: &[1.0],
    c: &[0.0],
    error: None,
    fsal: false,
    dense: None,
};

pub const INFO: MethodInfo = MethodInfo {
    id: "euler",
    name: "Explicit Euler",
    order: 1,
    family: "explicit Runge–Kutta",
    source: "Schwab & Delhaes §7.1 (Euler step)",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 1,
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
