//! The `methodParams` field of a spec: the free parameters of the structural-dynamics
//! methods (`generalized-alpha`: ρ∞; `hht-alpha`: α or ρ∞; `newmark`: β and γ). Read
//! here in both builds, so a misspelt key is refused alike; checked against the method
//! by `generalized_alpha::Coefficients::from_params` (the whole engine).

use serde::{Deserialize, Serialize};

/// Parameters of a method (JS field names in camelCase): the structural-dynamics
/// methods (Chung & Hulbert 1993; Hilber, Hughes & Taylor 1977; Newmark 1959) and the
/// variable-order BDF/NDF. Each method reads only its own; another one given is
/// refused with the list of those it takes.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MethodParams {
    /// ρ∞, the spectral radius as ωh → ∞ (generalized-α, HHT-α), in [0, 1].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rho_inf: Option<f64>,
    /// HHT's α, in [−1/3, 0] (Hilber, Hughes & Taylor 1977).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    /// Newmark's β.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// Newmark's γ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gamma: Option<f64>,
    /// The highest order `bdf` and `ndf` may use, 1–5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_order: Option<f64>,
}

/// What a spec's `methodParams` holds in this build: the checked [`MethodParams`] in
/// the whole engine; in the first-load build (no `full`), which runs none of these
/// methods, any value, kept only to be handed on (`crate::method::create_with` answers
/// not-in-this-build and the worker re-reads the spec in the whole engine), so that
/// the run package carries no reader for it.
#[cfg(feature = "full")]
pub type ParamsField = MethodParams;
#[cfg(not(feature = "full"))]
pub type ParamsField = serde::de::IgnoredAny;

/// The ids of the methods that read `methodParams`.
pub const TAKE_PARAMS: &[&str] = &["generalized-alpha", "hht-alpha", "newmark", "ndf", "bdf"];
