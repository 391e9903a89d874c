//! The expression language of user-defined systems and event functions: text typed by a
//! student is lexed, parsed, checked and compiled to a flat tape in Rust, then evaluated
//! (with exact derivatives) without ever re-parsing. There is no JavaScript `eval`.
//!
//! - [`lexer`]: text → tokens with spans.
//! - [`parser`]: tokens → syntax tree (precedence table there) and system statements.
//! - [`expand`]: indexed families, ranges, sums and derivatives → plain statements, once
//!   the parameters (array sizes) are known.
//! - [`compile`]: syntax tree → [`compile::Tape`], names resolved, constants folded.
//! - [`eval`]: running a tape ([`Program`]), allocation-free.
//! - [`diff`]: ∂/∂y and ∂/∂t of a program by forward-mode automatic differentiation.
//! - [`sparsity`]: which states each equation reads, and the sparse Jacobian by
//!   forward-mode AD with column colouring (a few sweeps, not one per state).
//! - [`compiled_expr`]: one expression over given states and parameters
//!   ([`compile_expr`]), e.g. an event switching function.
//! - [`system`]: the system text format and [`UserSystem`], a [`crate::model::Model`].
//! - [`draw`]: `draw` lines (rod, ball, spring, ground, box) compiled as outputs.
//! - [`fast`]: `fast` lines, the fast states of the slow/fast scheme.
//! - [`error`]: typed errors with line, column and a caret, as [`crate::OdeError::Parse`].
//!
//! ```
//! use odelab::expr::build_user_system;
//! use std::collections::BTreeMap;
//! let text = "param k = 4\nx' = v\nv' = -k*x\nx(0) = 1, v(0) = 0";
//! let (info, model) = build_user_system(text, &BTreeMap::new()).unwrap();
//! assert_eq!(info.names, ["x", "v"]);
//! let mut dy = [0.0; 2];
//! model.rhs(0.0, &[1.0, 0.0], &mut dy);
//! assert_eq!(dy, [0.0, -4.0]);
//! let err = build_user_system("x' = -kk*x", &BTreeMap::new()).err().unwrap();
//! assert_eq!(err.to_string(), "line 1, column 7: unknown name \"kk\"\n  x' = -kk*x\n        ^^");
//! ```

pub mod bodies;
pub mod compile;
pub mod compiled_expr;
pub mod constrained;
pub mod diff;
pub mod draw;
pub mod error;
pub mod eval;
pub mod expand;
pub mod fast;
pub mod lexer;
pub mod parser;
pub mod sparsity;
pub mod symbolic;
pub mod system;

pub use compiled_expr::{compile_expr, compile_model_expr, CompiledExpr};
pub use eval::Program;
pub use parser::Direction;
pub use system::{build_user_system, compile_counts, UserEvent, UserSystem};

/// Deepest nesting of parentheses, calls, unary operators and powers the parser accepts.
pub const MAX_DEPTH: usize = 64;
/// Most levels of operators in one expression (a chain `a + b + …` counts one per term).
pub const MAX_HEIGHT: usize = 256;
/// Most instructions in one compiled tape.
pub const MAX_TAPE: usize = 100_000;
/// Longest text accepted, in bytes.
pub const MAX_TEXT: usize = 100_000;
