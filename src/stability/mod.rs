//! Linear stability analysis: how a method amplifies the test equation y' = λy (Schwab & Delhaes
//! eq. 7.10), z = ξ = hλ, for the stability lab's ξ-plane view.
//!
//! - `amplification.rs`: per method, the value at ξ (|R|, ρ(M) or the largest root
//!   modulus), built from its registry entry (`crate::method::Xi`), which points at the
//!   method's own coefficients or function: R = N/D of a tableau
//!   (`crate::tableau::rational`, Rosenbrock/W via `rosenbrock.rs`), `slowfast.rs`
//!   (its amplification matrix), `multistep.rs` and `roots.rs` (characteristic
//!   polynomials); with `mode: "order-star"`, |R(ξ)e^{−ξ}| instead (order stars);
//! - `map.rs`: the value on a grid; `contour.rs`: the boundary value = 1 as polylines;
//!   `facts.rs`: intercepts, extents, A- and L-stability by root refinement;
//! - `structural.rs`: second-order integrators on q'' = −ω²q against ωh (spectral
//!   radius, damping ratio, period error);
//! - `spec.rs`: the request and its checks; `rk.rs`: R(z) of a `const` explicit tableau
//!   and its axis intervals (used by the integrator's tests).

pub mod amplification;
pub mod contour;
pub mod facts;
mod lanes;
pub mod map;
pub mod multistep;
pub mod rk;
pub mod roots;
/// R(z) = N/D of a tableau lives with the tableaux (`crate::tableau::rational`).
pub use crate::tableau::rational;
pub mod rosenbrock;
pub mod slowfast;
pub mod spec;
// The second-order integrators' analysis (the labs package only).
#[cfg(feature = "full")]
pub mod structural;

pub use amplification::Amplification;
pub use contour::{contour, Contour};
pub use facts::{stability_facts, StabilityFacts};
pub use map::stability_map;
pub use spec::{Grid, StabilitySpec, TableauSpec};

use crate::error::OdeError;

/// Map, boundary and facts of one request, computed together (one amplification).
#[derive(Debug, Clone)]
pub struct StabilityAnalysis {
    pub values: Vec<f64>,
    pub contour: Contour,
    pub facts: StabilityFacts,
}

/// `stabilityAnalysis`: the map of `spec`'s window, its value-1 contour and the facts.
pub fn stability_analysis(spec: &StabilitySpec) -> Result<StabilityAnalysis, OdeError> {
    let grid = spec.grid()?;
    let amp = Amplification::from_spec(spec)?;
    let values = map::map_of(&amp, &grid);
    let contour = contour::contour(&values, &grid);
    Ok(StabilityAnalysis {
        values,
        contour,
        facts: facts::facts_of(&amp),
    })
}

/// `stabilityContour`: the value-1 contour of `spec`'s map.
pub fn stability_contour(spec: &StabilitySpec) -> Result<Contour, OdeError> {
    let grid = spec.grid()?;
    let values = stability_map(spec)?;
    Ok(contour::contour(&values, &grid))
}
