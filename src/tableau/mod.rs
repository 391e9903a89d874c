//! A user's own Runge–Kutta method ("Your own method"): a Butcher tableau typed
//! on the page, its order conditions, its stability function, and the method itself in
//! `solve` (`method: "custom"`, see `crate::method::custom`).
//!
//! - [`exact`]: exact rationals for entries typed as fractions or decimals;
//! - [`entry`]: one entry (a number, "1/6", "(3-sqrt(3))/6") and its value;
//! - [`spec`]: the tableau as sent ([`TableauSpec`]) and its checks ([`ButcherTableau`]);
//! - [`conditions`]: the 17 order conditions up to order 5 and the order they give;
//! - [`rational`]: R(z) = N(z)/D(z) of a tableau as real polynomials, for maps;
//! - [`stability`]: R(z) as coefficients, text and TeX;
//! - [`analysis`]: all of it together, `analyzeTableau`.

pub mod analysis;
pub mod conditions;
pub mod entry;
pub mod exact;
pub mod rational;
pub mod spec;
pub mod stability;

pub use analysis::{analyze, analyze_tableau, OrderAnalysis, TableauAnalysis};
pub use conditions::{order_conditions, order_of, Condition};
pub use entry::Entry;
pub use spec::{ButcherTableau, TableauSpec, MAX_STAGES};
pub use stability::StabilityFunction;
