//! odelab: numerical integrators for stiff and oscillatory multibody dynamics.
//!
//! The crate is a pure numerical core ([`problem`], [`method`], [`model`], [`driver`],
//! [`spec`]) plus exactly one module, `wasm`, that knows about wasm-bindgen and turns
//! the core's types into JavaScript values. Nothing outside `wasm` depends on JS.
//!
//! ```
//! use odelab::spec::SolveSpec;
//! let spec = SolveSpec { model: "mass-spring-damper".into(), method: "rk4".into(),
//!                        t1: Some(1.0), h: Some(1e-3), ..SolveSpec::default() };
//! let run = odelab::solve(&spec).unwrap();
//! let exact = run.exact.as_ref().unwrap();
//! let last = run.t.len() - 1;
//! assert!((run.y[2 * last] - exact[2 * last]).abs() < 1e-9);
//! ```

pub mod driver;
pub mod error;
pub mod expr;
pub mod method;
pub mod model;
pub mod problem;
pub mod spec;
pub mod stats;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use driver::{solve, Integrator, Solution, Stats};
pub use error::OdeError;
