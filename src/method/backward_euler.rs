//! `backward-euler`: y_{n+1} = y_n + h f(t_{n+1}, y_{n+1}), Schwab & Delhaes §7.7, solved by
//! Newton's method with an LU of I − hJ (`newton.rs`). R(z) = 1/(1 − z): L-stable.
//! One step, no start-up. Dense output: cubic Hermite (order 1 is all the step has).

use super::implicit::{Formula, ImplicitStepper};
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;

pub const INFO: MethodInfo = MethodInfo {
    id: "backward-euler",
    name: "Backward Euler",
    order: 1,
    family: "implicit (Newton)",
    source: "Schwab & Delhaes §7.7",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 1,
    second_order: false,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
    sparse: true,
};

/// The first-load package leaves the stepper out (`full`): no first plot uses it, and
/// its Newton iteration (convergence-rate test, refreshed Jacobians) is the size the
/// run package's budget cannot spare.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Diagonal(A, B),
}
.full();

/// Backward Euler as a one-stage tableau, Schwab & Delhaes §7.7: y_{n+1} = y_n + h f(y_{n+1}),
/// R = 1/(1 − z).
pub const A: &[&[f64]] = &[&[1.0]];
pub const B: &[f64] = &[1.0];

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(ImplicitStepper::new(
        &INFO,
        Formula::BackwardEuler,
        dim,
        options.jacobian,
    )))
}
