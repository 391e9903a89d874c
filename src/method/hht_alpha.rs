//! HHT-α (Hilber, Hughes & Taylor, "Improved numerical dissipation for time integration
//! algorithms in structural dynamics", Earthquake Eng. Struct. Dyn. 5:283–292, 1977):
//! generalized-α with α_m = 0, α_f = −α, γ = ½ − α, β = ¼(1 − α)², stepped by
//! `generalized_alpha.rs` (its doc has the derivation); `methodParams: { alpha }` or
//! `{ rhoInf }`.

use super::generalized_alpha::{build_family, HHT_ALPHA, XI_HHT_ALPHA};
use super::{MethodEntry, MethodOptions, Stepper};
use crate::error::OdeError;

pub const ENTRY: MethodEntry = MethodEntry {
    info: &HHT_ALPHA,
    build: Some(build),
    xi: XI_HHT_ALPHA,
}
.full();

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    build_family(HHT_ALPHA.id, dim, options)
}
