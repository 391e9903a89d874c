//! One compiled expression of t, given states and given parameters: the form an event
//! switching function g(t, y) takes (`events: [{ expr: "x - 1" }]`).

use super::compile::{Binding, Compiler, Scope};
use super::error::{ErrorKind, ExprError};
use super::eval::Program;
use super::lexer::{lex, Span};
use super::parser::parse_expr;
use super::MAX_TEXT;
use crate::error::OdeError;
use crate::model::ModelInfo;
use std::collections::BTreeMap;

/// An expression compiled once to a tape; cheap to evaluate, with exact gradient.
#[derive(Debug, Clone)]
pub struct CompiledExpr {
    program: Program,
    text: String,
}

/// Compiles `text`, an expression in `t`, the states `state_names` (`y[i]` is
/// `state_names[i]`) and the parameters `params` (name, value), plus pi and e.
/// Errors are [`OdeError::Parse`] with line and column in `text`.
pub fn compile_expr(
    text: &str,
    state_names: &[String],
    params: &[(String, f64)],
) -> Result<CompiledExpr, OdeError> {
    compile_inner(text, state_names, params).map_err(|e| e.to_ode_error(text))
}

fn compile_inner(
    text: &str,
    state_names: &[String],
    params: &[(String, f64)],
) -> Result<CompiledExpr, ExprError> {
    check_length(text)?;
    let tokens = lex(text)?;
    let expr = parse_expr(text, &tokens)?;
    let mut scope = Scope::builtins();
    scope.bind("t", Binding::Input(0));
    for (name, value) in params {
        scope.bind(name, Binding::Const(*value));
    }
    for (i, name) in state_names.iter().enumerate() {
        scope.bind(name, Binding::Input(1 + i as u32));
    }
    let mut c = Compiler::new(&scope, &[], state_names.len());
    let v = c.expr(&expr)?;
    Ok(CompiledExpr {
        program: Program::new(c.finish(&[v])),
        text: text.to_string(),
    })
}

/// Compiles `text` over a model's states and its parameters: `info.params` with
/// `overrides` applied (for built-in models; a [`super::UserSystem`] has
/// [`super::UserSystem::compile_event`], which also sees its definitions).
pub fn compile_model_expr(
    text: &str,
    info: &ModelInfo,
    overrides: &BTreeMap<String, f64>,
) -> Result<CompiledExpr, OdeError> {
    let params: Vec<(String, f64)> = info
        .params
        .iter()
        .map(|p| {
            let v = overrides.get(&p.name).copied().unwrap_or(p.value);
            (p.name.clone(), v)
        })
        .collect();
    compile_expr(text, &info.names, &params)
}

/// Refuses texts longer than [`MAX_TEXT`] bytes.
pub(crate) fn check_length(text: &str) -> Result<(), ExprError> {
    if text.len() > MAX_TEXT {
        return Err(ExprError::new(
            ErrorKind::TooLarge {
                what: "the text".into(),
                limit: MAX_TEXT,
                unit: "bytes".into(),
            },
            Span::new(0, 0),
        ));
    }
    Ok(())
}

impl CompiledExpr {
    pub(crate) fn from_program(program: Program, text: String) -> Self {
        Self { program, text }
    }

    /// The value at (t, y). A `y` shorter than the number of states reads NaN for the
    /// missing ones; never a panic.
    pub fn eval(&self, t: f64, y: &[f64]) -> f64 {
        let mut out = [f64::NAN];
        self.program.eval(t, y, &mut out);
        out[0]
    }

    /// The exact gradient: `out[0]` = ∂/∂t, `out[1 + k]` = ∂/∂y_k.
    pub fn gradient(&self, t: f64, y: &[f64], out: &mut [f64]) {
        self.program.gradient(t, y, out);
    }

    /// The source text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Sets the program's parameter inputs ([`Program::set_params`]).
    pub(crate) fn set_params(&mut self, params: &[f64]) -> bool {
        self.program.set_params(params)
    }

    /// The compiled program.
    pub fn program(&self) -> &Program {
        &self.program
    }
}

/// A compiled expression is a switching function for the event detector.
impl crate::event::EventFunction for CompiledExpr {
    fn eval(&self, t: f64, y: &[f64]) -> f64 {
        CompiledExpr::eval(self, t, y)
    }
}
