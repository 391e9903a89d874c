//! Newmark's family (Newmark, "A method of computation for structural dynamics",
//! J. Eng. Mech. Div. ASCE 85:67–94, 1959): generalized-α with α_m = α_f = 0, stepped by
//! `generalized_alpha.rs` (its doc has the stability bounds); `methodParams: { beta,
//! gamma }`, by default average acceleration (β = ¼, γ = ½).

use super::generalized_alpha::{build_family, NEWMARK, XI_NEWMARK};
use super::{MethodEntry, MethodOptions, Stepper};
use crate::error::OdeError;

pub const ENTRY: MethodEntry = MethodEntry {
    info: &NEWMARK,
    build: Some(build),
    xi: XI_NEWMARK,
}
.full();

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    build_family(NEWMARK.id, dim, options)
}
