//! Tests of the expression language and user systems, one file per concept,
//! mirroring `src/expr/`.

mod compile;
mod compiled_expr;
mod diff;
mod error;
mod eval;
mod fast;
mod indexed;
mod lexer;
mod no_panic;
mod parser;
mod system;

use odelab::expr::{compile_expr, CompiledExpr};

/// `text` compiled over the states x, y and the parameter k = 2.
pub fn xy(text: &str) -> CompiledExpr {
    compile_expr(text, &["x".into(), "y".into()], &[("k".into(), 2.0)])
        .unwrap_or_else(|e| panic!("{text:?} should compile:\n{e}"))
}

/// Value of `text` at t, x, y.
pub fn at(text: &str, t: f64, x: f64, y: f64) -> f64 {
    xy(text).eval(t, &[x, y])
}

/// The error message for `text` as a system.
pub fn system_error(text: &str) -> String {
    match odelab::expr::UserSystem::new(text, &Default::default()) {
        Ok(_) => panic!("{text:?} should have been refused"),
        Err(e) => e.to_string(),
    }
}
