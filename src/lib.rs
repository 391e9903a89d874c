//! odelab: numerical integrators for stiff and oscillatory multibody dynamics.
//!
//! The crate is a pure numerical core ([`problem`], [`method`], [`control`], [`event`],
//! [`model`], [`driver`], [`spec`], [`stability`], [`convergence`]) plus exactly one module, `wasm`,
//! that knows about wasm-bindgen and turns the core's types into JavaScript values.
//! Nothing outside `wasm` depends on JS.
//!
//! Cargo feature `full` (on by default) holds the parts of the core that only your own
//! systems, constrained formulations, custom tableaux and the slow/fast scheme reach
//! (the expression language's entry points, `multibody::build`, faer's sparse LU). The
//! first-load wasm package is built without it and refuses such specs with
//! [`error::OdeError::NotInThisBuild`]; the modules stay compiled either way, only their
//! entry points from [`driver`], [`method`], [`tableau`] and [`linear_solver`] are gated.
//!
//! ```
//! use odelab::spec::SolveSpec;
//! let spec = SolveSpec { model: "mass-spring-damper".into(), method: "rk4".into(),
//!                        t1: Some(1.0), h: Some(1e-3), ..SolveSpec::default() };
//! let run = odelab::solve(&spec).unwrap();
//! let exact = run.exact.as_ref().unwrap();
//! let last = run.t.len() - 1;
//! assert!((run.y[2 * last] - exact[2 * last]).abs() < 1e-9);
//!
//! // An adaptive method picks its own steps to meet rtol/atol.
//! let spec = SolveSpec { model: "pendulum".into(), method: "dp45".into(),
//!                        rtol: Some(odelab::spec::Tol::Scalar(1e-8)), ..SolveSpec::default() };
//! let run = odelab::solve(&spec).unwrap();
//! assert_eq!(run.stats.naccept as usize, run.t.len() - 1);
//! ```

pub mod compare;
pub mod control;
pub mod convergence;
pub mod driver;
pub mod error;
pub mod event;
pub mod expr;
pub mod homework;
pub mod jacobian;
pub mod linalg;
pub mod linear_solver;
pub mod math;
pub mod method;
pub mod model;
pub mod multibody;
pub mod phi;
pub mod problem;
pub mod reference;
pub mod spec;
pub mod spectrum;
pub mod stability;
pub mod stats;
pub mod tableau;
#[cfg(target_arch = "wasm32")]
mod wasm;

pub use driver::{solve, Integrator, Solution, Stats};
pub use error::OdeError;
