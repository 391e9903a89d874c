//! `bdf2`: the two-step backward differentiation formula of Schwab & Delhaes §7.8,
//! y_{n+1} = 4/3 y_n − 1/3 y_{n−1} + 2/3 h f(t_{n+1}, y_{n+1}), with the misprints
//! corrected (the Sources panel's errata: "+½ f₋₁" is "+½ y₋₁", and f(t₁, y_n) is
//! f(t₁, y₁)). Newton with an LU of I − (2/3)hJ. A-stable (the Sources panel's errata: BDF is A-stable
//! only up to order 2, not "up to order 6" as 002 says), and L-stable.
//!
//! **Start-up:** the first step (and the first step after any break in the history:
//! a changed h, an event cut, a new start) is one backward Euler step; its O(h²) local
//! error enters once, so the global order stays 2. Needs equal steps, so it runs on
//! the fixed grid only.

use super::implicit::{Formula, ImplicitStepper};
use super::{CharPoly, MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;

pub const INFO: MethodInfo = MethodInfo {
    id: "bdf2",
    name: "BDF2",
    order: 2,
    family: "implicit multistep (BDF)",
    source: "Schwab & Delhaes §7.8 (corrected, see Sources)",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: false,
    dense_order: 2,
    second_order: false,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
    sparse: true,
};

/// Whole engine only (`full`), like backward Euler, whose Newton iteration it shares.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Multistep(CHAR_POLY),
}
.full();

/// y_{n+1} − (4/3) y_n + (1/3) y_{n−1} = (2/3) h f_{n+1} (the step of `implicit.rs`):
/// ρ = ζ² − (4/3)ζ + 1/3, σ = (2/3) ζ². A-stable (the Sources panel's errata).
pub const CHAR_POLY: CharPoly = CharPoly {
    coef: &[&[1.0 / 3.0, 0.0], &[-4.0 / 3.0, 0.0], &[1.0, -2.0 / 3.0]],
};

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(ImplicitStepper::new(
        &INFO,
        Formula::Bdf2,
        dim,
        options.jacobian,
    )))
}
