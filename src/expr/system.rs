//! The system text format and [`UserSystem`], a model built from it.
//!
//! ```text
//! # a comment
//! param k = 100, c = 0.5          # parameters (sliders); values may use earlier ones
//! x' = v                          # one equation per state; state order = this order
//! v' = -k*x - c*v + F + sin(t)
//! F = if(x < 0, -1000*x, 0)       # a definition, usable in equations, outputs, events
//! x(0) = 1, v(0) = 0              # initial values; every state needs one
//! output energy = 0.5*v^2 + 0.5*k*x^2
//! event ground: x, falling, terminal
//! draw ball(x, 0, 0.1)            # a picture of the system (src/expr/draw.rs)
//! fast v                          # fast states of `slowfast` (src/expr/fast.rs)
//! ```
//!
//!
//! Bigger systems (the public syntax, expanded by [`super::expand`]):
//!
//! ```text
//! param N = 200, D = 1
//! u[i]' = D*(N+1)^2*(u[i-1] - 2*u[i] + u[i+1])   for i = 1..N    # states u[1] … u[N]
//! u[0] = 0                                                       # boundary values are
//! u[N+1] = 0                                                     # definitions
//! u[i](0) = sin(pi*i/(N+1))                      for i = 1..N
//! output mean = sum(u[j] for j = 1..N)/N
//! θ'' = -g/L*sin(θ)          # second order: states θ and θ' (positions first, then
//! θ(0) = 1, θ'(0) = 0        # velocities; all second order = `second_order`)
//! b' = a' - b                # a derivative on a right-hand side: a's right-hand side
//! ```
//!
//! A derivative `a'` may be used in equations, outputs and events (not in definitions);
//! equations that use each other's derivatives are refused, naming the cycle. A
//! parameter used in a range or an index is marked `integer` (it sizes an array).
//!
//! Rules: every name is declared once (states, parameters, definitions and outputs share
//! one namespace; event names have their own); `t`, `pi`, `e`, function names and the
//! keywords `param`, `output`, `event` cannot be declared. Parameter and initial values
//! are constant expressions (numbers, pi, e, earlier parameters; initial values may use
//! every parameter). A definition may use t, the states, the parameters and the
//! definitions above it (so there are no cycles); equations, outputs and events may use
//! every definition. An initial value for a name without an equation is an error, and so
//! is a state without an initial value (located at its equation).
//!
//! Parameters can be overridden by name like a built-in model's; a parameter whose
//! default uses another parameter follows that parameter's override unless it is itself
//! overridden, and so do the initial values.

use super::compile::{Binding, Compiler, Scope, Tape, Val, CONSTANTS, FUNCTIONS};
use super::compiled_expr::{check_length, CompiledExpr};
use super::draw::take_draw_lines;
use super::error::{suggest, ErrorKind, ExprError, LineIndex};
use super::eval::Program;
use super::expand::Expander;
use super::fast::{resolve as resolve_fast, take_fast_lines, FastName};
use super::lexer::{lex, Span};
use super::parser::{
    parse_expr, parse_statements, visit_names, Direction, Expr, ExprKind, Ident, Stmt, KEYWORDS,
};
use super::sparsity::Sparsity;
use crate::error::OdeError;
use crate::event::EventInfo;
use crate::linear_solver::SparseJacobian;
use crate::model::{Model, ModelInfo, ParamInfo};
use crate::problem::System;
use nalgebra::{DMatrix, DVector};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// Model id of every user system.
pub const USER_MODEL_ID: &str = "custom";
/// Default end time of a user system.
pub const USER_T1: f64 = 10.0;

/// An event declared in the text: `event name: expr[, falling | rising][, terminal]`.
#[derive(Debug, Clone)]
pub struct UserEvent {
    pub name: String,
    /// The switching function g(t, y) (over the system's states and parameters).
    pub expr: CompiledExpr,
    pub direction: Direction,
    pub terminal: bool,
}

impl Direction {
    /// −1 (falling), 0 (both) or 1 (rising), as in the spec's `direction`.
    pub fn as_i8(self) -> i8 {
        match self {
            Direction::Falling => -1,
            Direction::Both => 0,
            Direction::Rising => 1,
        }
    }
}

/// A system typed by the user, compiled: y' = f(t, y) with exact ∂f/∂y and ∂f/∂t,
/// outputs and events.
#[derive(Debug, Clone)]
pub struct UserSystem {
    info: ModelInfo,
    rhs: Program,
    /// The pattern of ∂f/∂y when it is sparse and the system big enough to use it.
    sparsity: Option<Sparsity>,
    /// f never reads t (the tape's, fixed at compilation: a parameter value changes
    /// constants only).
    autonomous: bool,
    outputs: Program,
    events: Vec<UserEvent>,
    /// The checked statements and the parameter values in use, for [`UserSystem::compile_event`].
    /// Shared by the copies the cache hands out (a big system's statements are most of
    /// its size).
    decl: Rc<Declared>,
    params: Vec<(String, f64)>,
    /// The families and parameter values, for expanding [`UserSystem::compile_event`]'s
    /// text (`u[3]`, `sum(…)`).
    expander: Rc<Expander>,
    /// Per parameter: whether it decides the statements (an index or a range bound
    /// reads it), so that another value compiles again; the others are inputs of the
    /// programs ([`UserSystem::set_params`]).
    structural: Vec<bool>,
    /// The states whose initial value uses a parameter that is an input.
    param_initials: Vec<usize>,
}

/// Parses and compiles `text` with parameters overridden by `overrides` (unknown names
/// and non-finite values are refused, as for built-in models). Returns the model's
/// description and the model; see [`UserSystem::new`] for the events too.
///
/// A run re-made with other settings (h, method, tolerances, t1…) or other values of
/// parameters that size nothing does not compile the text again: the last system
/// compiled on this thread is kept with its text and handed out as a copy, with the
/// new values set ([`UserSystem::set_params`]); a new value of a parameter that sizes
/// the system (a range bound, an index) compiles from the kept parse of the same text
/// ([`compile_counts`]).
pub fn build_user_system(
    text: &str,
    overrides: &BTreeMap<String, f64>,
) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    let system = UserSystem::cached(text, overrides)?;
    Ok((system.info.clone(), Box::new(system)))
}

/// The last text parsed and the last system compiled on this thread (the core is
/// single-threaded in the page's worker): a slider drag re-runs one text with new
/// parameter values, a change of method or tolerance re-runs the same system.
#[derive(Default)]
struct Cache {
    /// A text, its statements (`draw` lines as outputs) and its `fast` names.
    parsed: Option<(String, Vec<Stmt>, Vec<FastName>)>,
    compiled: Option<Compiled>,
    parses: u64,
    compilations: u64,
}

/// A text, the overrides it was compiled with (as bits: −0 is not 0 to 1/x) and the
/// system.
struct Compiled {
    text: String,
    overrides: Vec<(String, u64)>,
    system: UserSystem,
}

thread_local! {
    static CACHE: std::cell::RefCell<Cache> = std::cell::RefCell::new(Cache::default());
}

/// Texts parsed and systems compiled so far on this thread (cache misses only): what a
/// test counts to see that a new parameter value does not parse the text again and a
/// new method does not compile it again.
pub fn compile_counts() -> (u64, u64) {
    CACHE.with(|c| {
        let c = c.borrow();
        (c.parses, c.compilations)
    })
}

/// Refuses overrides of parameters the text does not declare, and non-finite values.
fn check_overrides(stmts: &[Stmt], overrides: &BTreeMap<String, f64>) -> Result<(), OdeError> {
    let params: Vec<&Ident> = stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Param { name, .. } => Some(name),
            _ => None,
        })
        .collect();
    for name in overrides.keys() {
        if !params.iter().any(|p| &p.name == name) {
            return Err(OdeError::UnknownParam {
                model: USER_MODEL_ID.into(),
                name: name.clone(),
                known: params.iter().map(|p| p.name.clone()).collect(),
            });
        }
        if !overrides[name].is_finite() {
            return Err(OdeError::NotFinite {
                what: format!("parameter {name}"),
            });
        }
    }
    Ok(())
}

fn override_key(overrides: &BTreeMap<String, f64>) -> Vec<(String, u64)> {
    overrides
        .iter()
        .map(|(k, v)| (k.clone(), v.to_bits()))
        .collect()
}

/// The statements of a text with its `draw` lines as outputs, and its `fast` names.
fn parse_whole(text: &str) -> Result<(Vec<Stmt>, Vec<FastName>), OdeError> {
    if let Some(hit) = CACHE.with(|c| {
        c.borrow()
            .parsed
            .as_ref()
            .filter(|(t, _, _)| t == text)
            .map(|(_, stmts, fast)| (stmts.clone(), fast.clone()))
    }) {
        return Ok(hit);
    }
    // `draw` lines become outputs (src/expr/draw.rs), declared after the text's own
    // statements; the rest is parsed as usual, at the same lines and columns.
    let (statements, drawing) = take_draw_lines(text).map_err(|e| e.to_ode_error(text))?;
    // `fast` lines name the slow/fast scheme's fast states (src/expr/fast.rs).
    let (statements, fast) = take_fast_lines(&statements);
    let mut stmts = parse_text(&statements).map_err(|e| e.to_ode_error(text))?;
    stmts.extend(
        drawing
            .into_iter()
            .map(|(name, value, range)| Stmt::Output { name, value, range }),
    );
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.parses += 1;
        c.parsed = Some((text.to_string(), stmts.clone(), fast.clone()));
    });
    Ok((stmts, fast))
}

impl UserSystem {
    /// Parses and compiles `text` (see the module docs for the format).
    pub fn new(text: &str, overrides: &BTreeMap<String, f64>) -> Result<Self, OdeError> {
        let (stmts, fast) = parse_whole(text)?;
        CACHE.with(|c| c.borrow_mut().compilations += 1);
        check_overrides(&stmts, overrides)?;
        let mut system =
            compile_system(text, stmts, overrides).map_err(|e| e.to_ode_error(text))?;
        system.info.fast =
            resolve_fast(&fast, &system.info.names).map_err(|e| e.to_ode_error(text))?;
        Ok(system)
    }

    /// [`UserSystem::new`], or a copy of the system last compiled on this thread from
    /// the same text: with the same overrides, or with other values of the parameters
    /// that are inputs of its programs ([`UserSystem::set_params`]); bitwise the system
    /// a compilation gives.
    pub fn cached(text: &str, overrides: &BTreeMap<String, f64>) -> Result<Self, OdeError> {
        let key = override_key(overrides);
        if let Some(hit) = CACHE.with(|c| {
            c.borrow()
                .compiled
                .as_ref()
                .filter(|c| c.text == text && c.overrides == key)
                .map(|c| c.system.clone())
        }) {
            return Ok(hit);
        }
        let same_text =
            CACHE.with(|c| c.borrow().compiled.as_ref().is_some_and(|c| c.text == text));
        if same_text {
            if let Some(system) = Self::rebound(text, overrides)? {
                CACHE.with(|c| {
                    c.borrow_mut().compiled = Some(Compiled {
                        text: text.to_string(),
                        overrides: key,
                        system: system.clone(),
                    })
                });
                return Ok(system);
            }
        }
        let system = Self::new(text, overrides)?;
        CACHE.with(|c| {
            c.borrow_mut().compiled = Some(Compiled {
                text: text.to_string(),
                overrides: key,
                system: system.clone(),
            })
        });
        Ok(system)
    }

    /// The kept system of `text` with the parameter values of `overrides`, when they
    /// differ from its own in inputs of its programs only; `None` when it must be
    /// compiled again (a parameter that decides the statements changes, or a decision
    /// of [`super::compile::Prelude`]). The kept system leaves the cache while it is
    /// rebound.
    fn rebound(text: &str, overrides: &BTreeMap<String, f64>) -> Result<Option<Self>, OdeError> {
        let (stmts, _) = parse_whole(text)?;
        check_overrides(&stmts, overrides)?;
        let raw = RawNames::new(&stmts);
        let values = param_values(text, &raw, overrides).map_err(|e| e.to_ode_error(text))?;
        let Some(mut system) = CACHE
            .with(|c| c.borrow_mut().compiled.take())
            .map(|c| c.system)
        else {
            return Ok(None);
        };
        let same_structure = system.structural.len() == values.len()
            && system
                .structural
                .iter()
                .zip(system.params.iter().zip(&values))
                .all(|(&s, ((_, old), new))| !s || old.to_bits() == new.to_bits());
        Ok((same_structure && system.set_params(&values)).then_some(system))
    }

    /// Gives the parameters the values `values` (in declaration order) without compiling
    /// again: the programs' parameter inputs and what follows from them (initial
    /// values). Returns `false`, the system then being unusable, when these values need
    /// a compilation: a parameter that decides the statements changes, a condition
    /// decided at compile time goes the other way, a constant overflows or an initial
    /// value is not finite (the compilation says where).
    pub fn set_params(&mut self, values: &[f64]) -> bool {
        if values.len() != self.params.len() {
            return false;
        }
        let mut ok = self.rhs.set_params(values) && self.outputs.set_params(values);
        for e in &mut self.events {
            ok = ok && e.expr.set_params(values);
        }
        if !ok {
            return false;
        }
        if !self.param_initials.is_empty() {
            let mut scope = Scope::builtins();
            for ((p, _), v) in self.decl.params.iter().zip(values) {
                scope.bind(&p.name, Binding::Const(*v));
            }
            let mut init = Compiler::new(&scope, &[], 0);
            for &i in &self.param_initials {
                let Some((s, _)) = self.decl.states.get(i) else {
                    return false;
                };
                let v = match self.decl.initials.get(&s.name) {
                    Some((_, e)) => init.constant(e),
                    None => return false,
                };
                match v {
                    Ok(v) if v.is_finite() => self.info.y0[i] = v,
                    _ => return false,
                }
            }
        }
        for ((_, v), new) in self.params.iter_mut().zip(values) {
            *v = *new;
        }
        true
    }

    /// Compiles an extra expression (e.g. a spec's event `expr`) over this system: t, the
    /// states, the parameter values in use and the definitions of the text. Errors give
    /// line and column in `expr_text`.
    pub fn compile_event(&self, expr_text: &str) -> Result<CompiledExpr, OdeError> {
        let compile = || -> Result<CompiledExpr, ExprError> {
            check_length(expr_text)?;
            let tokens = lex(expr_text)?;
            let e = parse_expr(expr_text, &tokens)?;
            let mut expander = (*self.expander).clone();
            for (name, v) in &self.params {
                expander.bind_param(name, *v);
            }
            let e = expander.expr(&e)?;
            let values: Vec<f64> = self.params.iter().map(|p| p.1).collect();
            let tape = Shared::new(&self.decl, &values, None).program(&[&e], false)?;
            Ok(CompiledExpr::from_program(
                Program::new(tape),
                expr_text.to_string(),
            ))
        };
        compile().map_err(|e| e.to_ode_error(expr_text))
    }

    /// The parameter values in use (defaults with the overrides applied, and parameters
    /// defined from overridden ones recomputed), in declaration order.
    pub fn param_values(&self) -> &[(String, f64)] {
        &self.params
    }

    /// The description (names, parameters with their default values, initial state
    /// with the overrides applied, outputs).
    pub fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// The events declared in the text, in order.
    pub fn events(&self) -> &[UserEvent] {
        &self.events
    }

    /// The program computing f (for inspection and tests).
    pub fn rhs_program(&self) -> &Program {
        &self.rhs
    }

    /// The sparsity pattern of ∂f/∂y and its colouring, when the system is big and
    /// sparse enough for the sparse path (`crate::linear_solver`).
    pub fn sparsity(&self) -> Option<&Sparsity> {
        self.sparsity.as_ref()
    }

    /// Splits into description, model and events.
    pub fn into_parts(mut self) -> (ModelInfo, Box<dyn Model>, Vec<UserEvent>) {
        let events = std::mem::take(&mut self.events);
        (self.info.clone(), Box::new(self), events)
    }
}

impl System for UserSystem {
    fn dim(&self) -> usize {
        self.info.dim
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.rhs.eval(t, y, dy);
    }

    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        Some(self.rhs.jacobian(t, y))
    }

    /// A text whose equations never read t: ∂f/∂t ≡ 0, taken once by a Rosenbrock
    /// step instead of a tangent sweep per step.
    fn autonomous(&self) -> bool {
        self.autonomous
    }

    /// Exact derivatives by forward-mode AD exist for every text.
    fn has_derivatives(&self, _t: f64, _y: &[f64]) -> bool {
        true
    }

    fn dfdt(&self, t: f64, y: &[f64]) -> Option<DVector<f64>> {
        Some(self.rhs.dfdt(t, y))
    }

    fn jacobian_sparse(&self, t: f64, y: &[f64]) -> Option<SparseJacobian> {
        let sp = self.sparsity.as_ref()?;
        Some(self.rhs.jacobian_sparse(t, y, sp))
    }
}

impl Model for UserSystem {
    fn outputs(&self, t: f64, y: &[f64], out: &mut [f64]) {
        self.outputs.eval(t, y, out);
    }

    /// The text's `event` lines, in order (`ModelInfo::events`).
    fn event(&self, index: usize, t: f64, y: &[f64]) -> f64 {
        self.events
            .get(index)
            .map_or(f64::NAN, |e| e.expr.eval(t, y))
    }
}

/// The statements of a text, sorted by kind and checked for clashes.
#[derive(Debug, Clone)]
struct Declared {
    lines: LineIndex,
    params: Vec<(Ident, Expr)>,
    states: Vec<(Ident, Expr)>,
    initials: HashMap<String, (Ident, Expr)>,
    defines: Vec<(Ident, Expr)>,
    outputs: Vec<(Ident, Expr)>,
    events: Vec<(Ident, Expr, Direction, bool)>,
    /// Every equation is of second order: the states are (q, q') halves.
    second_order: bool,
}

pub(super) fn parse_text(text: &str) -> Result<Vec<Stmt>, ExprError> {
    check_length(text)?;
    let tokens = lex(text)?;
    parse_statements(text, &tokens)
}

/// Sorts expanded statements (no indices or ranges left) by kind and checks them. A
/// second-order equation `x'' = f` declares the states x (with x' = the state x') and
/// x', placed after every first-order state and position.
fn declare(text: &str, stmts: Vec<Stmt>) -> Result<Declared, ExprError> {
    let mut d = Declared {
        lines: LineIndex::new(text),
        params: Vec::new(),
        states: Vec::new(),
        initials: HashMap::new(),
        defines: Vec::new(),
        outputs: Vec::new(),
        events: Vec::new(),
        second_order: false,
    };
    let mut velocities: Vec<(Ident, Expr)> = Vec::new();
    let mut first_order = 0usize;
    let d_lines = LineIndex::new(text);
    // name → (what it is, where)
    let mut names: HashMap<String, (&'static str, Span)> = HashMap::new();
    let mut event_names: HashMap<String, Span> = HashMap::new();
    let mut initial_list: Vec<(Ident, Expr)> = Vec::new();
    let mut claim = |name: &Ident, what: &'static str| -> Result<(), ExprError> {
        check_not_reserved(name)?;
        if let Some((was, at)) = names.get(&name.name) {
            return Err(ExprError::new(
                ErrorKind::Duplicate {
                    name: name.name.clone(),
                    what: (*was).into(),
                    line: d_lines.line(at.start),
                },
                name.span,
            ));
        }
        names.insert(name.name.clone(), (what, name.span));
        Ok(())
    };
    for s in stmts {
        match s {
            Stmt::Param { name, value } => {
                claim(&name, "a parameter")?;
                d.params.push((name, value));
            }
            Stmt::Equation {
                name, order, rhs, ..
            } => {
                claim(&name, "a state")?;
                if order == 2 {
                    let velocity = Ident {
                        name: format!("{}'", name.name),
                        span: name.span,
                    };
                    claim(&velocity, "a state")?;
                    let q_dot = Expr::leaf(ExprKind::Name(velocity.name.clone()), name.span);
                    d.states.push((name, q_dot));
                    velocities.push((velocity, rhs));
                } else {
                    first_order += 1;
                    d.states.push((name, rhs));
                }
            }
            Stmt::Define { name, value, .. } => {
                claim(&name, "a definition")?;
                d.defines.push((name, value));
            }
            Stmt::Output { name, value, .. } => {
                claim(&name, "an output")?;
                d.outputs.push((name, value));
            }
            Stmt::Initial {
                name, order, value, ..
            } => {
                let name = Ident {
                    name: format!("{}{}", name.name, "'".repeat(order.into())),
                    span: name.span,
                };
                initial_list.push((name, value));
            }
            Stmt::Event {
                name,
                expr,
                direction,
                terminal,
            } => {
                if let Some(at) = event_names.get(&name.name) {
                    return Err(ExprError::new(
                        ErrorKind::Duplicate {
                            name: name.name.clone(),
                            what: "an event".into(),
                            line: d_lines.line(at.start),
                        },
                        name.span,
                    ));
                }
                event_names.insert(name.name.clone(), name.span);
                d.events.push((name, expr, direction, terminal));
            }
            // A text with coordinates or constraints is compiled by `super::constrained`;
            // these statements alone (mass, force) belong to such a text.
            Stmt::Coordinates { items, .. } => {
                return Err(constrained_only("coordinates", items[0].0.span))
            }
            Stmt::Mass { span, .. } => return Err(constrained_only("mass", span)),
            Stmt::Force { target, .. } => return Err(constrained_only("force", target.span)),
            Stmt::Constraint { span, .. } => return Err(constrained_only("constraint", span)),
        }
    }
    d.second_order = first_order == 0 && !velocities.is_empty();
    d.states.extend(velocities);
    if d.states.is_empty() {
        return Err(ExprError::new(ErrorKind::NoEquations, Span::new(0, 0)));
    }
    for (name, value) in initial_list {
        if names.get(&name.name).map(|n| n.0) != Some("a state") {
            let kind = match names.get(&name.name) {
                Some(_) => ErrorKind::NoEquation {
                    name: name.name.clone(),
                },
                None => match suggest(&name.name, d.states.iter().map(|(s, _)| s.name.as_str())) {
                    Some(s) => ErrorKind::UnknownName {
                        name: name.name.clone(),
                        suggestion: Some(s),
                    },
                    None => ErrorKind::NoEquation {
                        name: name.name.clone(),
                    },
                },
            };
            return Err(ExprError::new(kind, name.span));
        }
        if let Some((prev, _)) = d.initials.get(&name.name) {
            return Err(ExprError::new(
                ErrorKind::DuplicateInitial {
                    name: name.name.clone(),
                    line: d.lines.line(prev.span.start),
                },
                name.span,
            ));
        }
        d.initials.insert(name.name.clone(), (name, value));
    }
    Ok(d)
}

/// A constrained system's statement in a system of equations x' = ….
fn constrained_only(what: &str, span: Span) -> ExprError {
    ExprError::new(
        ErrorKind::Constrained {
            message: format!(
                "`{what}` belongs to a constrained system (coordinates, mass, force, \
                 constraint), which has no equations x' = …; declare the coordinates with \
                 `coordinates x, y, φ`"
            ),
        },
        span,
    )
}

pub(super) fn check_not_reserved(name: &Ident) -> Result<(), ExprError> {
    let n = name.name.as_str();
    let what = if n == "t" {
        Some("the time variable")
    } else if CONSTANTS.iter().any(|c| c.0 == n) {
        Some("a built-in constant")
    } else if FUNCTIONS.iter().any(|f| f.0 == n) {
        Some("a built-in function")
    } else if KEYWORDS.contains(&n) {
        Some("a keyword")
    } else {
        None
    };
    match what {
        Some(w) => Err(ExprError::new(
            ErrorKind::Reserved {
                name: n.into(),
                what: w.into(),
            },
            name.span,
        )),
        None => Ok(()),
    }
}

pub(super) fn require_finite(what: String, value: f64, span: Span) -> Result<f64, ExprError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ExprError::new(ErrorKind::NotFinite { what, value }, span))
    }
}

/// The names of a text's statements, before expansion: parameters, states (plain or
/// families), definitions.
pub(super) struct RawNames<'a> {
    pub(super) params: Vec<(&'a Ident, &'a Expr)>,
    states: Vec<&'a Ident>,
    defines: Vec<&'a Ident>,
}

impl<'a> RawNames<'a> {
    pub(super) fn new(stmts: &'a [Stmt]) -> Self {
        let mut r = RawNames {
            params: Vec::new(),
            states: Vec::new(),
            defines: Vec::new(),
        };
        for s in stmts {
            match s {
                Stmt::Param { name, value } => r.params.push((name, value)),
                Stmt::Equation { name, .. } => r.states.push(name),
                Stmt::Define { name, .. } => r.defines.push(name),
                _ => {}
            }
        }
        r
    }

    /// An expander knowing `params` whose indices cannot use states or definitions.
    pub(super) fn expander(&self, text: &str, params: &[f64]) -> Expander {
        let mut ex = Expander::new(text);
        let why = "an index or a range bound is an integer expression of parameters";
        for n in self.states.iter().chain(&self.defines) {
            ex.hide(&n.name, format!("{} is not a parameter; {why}", n.name));
        }
        for ((p, _), v) in self.params.iter().zip(params) {
            ex.bind_param(&p.name, *v);
        }
        ex
    }
}

/// The parameters' default values and the values of this run (the defaults with the
/// spec's overrides), in declaration order: what every compilation of a text starts from.
pub(super) fn defaults_and_values(
    text: &str,
    raw: &RawNames,
    overrides: &BTreeMap<String, f64>,
) -> Result<(Vec<f64>, Vec<f64>), ExprError> {
    let defaults = param_values(text, raw, &BTreeMap::new())?;
    let values = if overrides.is_empty() {
        defaults.clone()
    } else {
        param_values(text, raw, overrides)?
    };
    Ok((defaults, values))
}

/// Parameter values in order, each default evaluated with the parameters above it.
pub(super) fn param_values(
    text: &str,
    raw: &RawNames,
    overrides: &BTreeMap<String, f64>,
) -> Result<Vec<f64>, ExprError> {
    let lines = LineIndex::new(text);
    let base = constant_scope(&lines, &raw.states, &raw.defines);
    let mut ex = raw.expander(text, &[]);
    let mut c = Compiler::new(&base, &[], 0);
    for (p, _) in &raw.params {
        let reason = format!(
            "parameter {} is declared later, on line {}",
            p.name,
            lines.line(p.span.start)
        );
        c.bind(&p.name, Binding::Hidden(reason));
    }
    let mut values: Vec<f64> = Vec::with_capacity(raw.params.len());
    for (name, value) in &raw.params {
        let itself = "a parameter cannot be defined by itself".to_string();
        c.bind(&name.name, Binding::Hidden(itself));
        let v = match overrides.get(&name.name) {
            Some(v) => *v,
            None => require_finite(
                format!("parameter {}", name.name),
                c.constant(&ex.expr(value)?)?,
                value.span,
            )?,
        };
        c.bind(&name.name, Binding::Const(v));
        ex.bind_param(&name.name, v);
        values.push(v);
    }
    Ok(values)
}

/// Built-in constants, with states, t and definitions hidden (parameter and initial
/// values are constants).
fn constant_scope(lines: &LineIndex, states: &[&Ident], defines: &[&Ident]) -> Scope {
    let mut scope = Scope::builtins();
    scope.bind(
        "t",
        Binding::Hidden("parameter and initial values are constants, not functions of time".into()),
    );
    for s in states {
        scope.bind(
            &s.name,
            Binding::Hidden(format!(
                "{} is a state; parameter and initial values must be constants",
                s.name
            )),
        );
    }
    for def in defines {
        scope.bind(
            &def.name,
            Binding::Hidden(format!(
                "{} is a definition (line {}); parameter and initial values must be constants",
                def.name,
                lines.line(def.span.start)
            )),
        );
    }
    scope
}

/// The name a state's derivative is used by on a right-hand side (`a'`), unless that is
/// itself a state (the velocity of a second-order equation).
fn derivative_name(d: &Declared, i: usize, states: &HashMap<&str, usize>) -> Option<String> {
    let name = format!("{}'", d.states[i].0.name);
    (!states.contains_key(name.as_str())).then_some(name)
}

/// Refuses equations whose right-hand sides use each other's derivatives (`a' = b'`,
/// `b' = a'`), naming the equations of the cycle.
fn check_derivative_cycles(d: &Declared) -> Result<(), ExprError> {
    let index: HashMap<&str, usize> = d
        .states
        .iter()
        .enumerate()
        .map(|(i, (s, _))| (s.name.as_str(), i))
        .collect();
    let derivs: HashMap<String, usize> = (0..d.states.len())
        .filter_map(|i| derivative_name(d, i, &index).map(|n| (n, i)))
        .collect();
    let uses: Vec<Vec<usize>> = d
        .states
        .iter()
        .map(|(_, rhs)| {
            let mut v = Vec::new();
            visit_names(rhs, &mut |n| v.extend(derivs.get(n)));
            v
        })
        .collect();
    // Depth-first search; state 1 = on the path, 2 = done.
    let mut state = vec![0u8; uses.len()];
    for root in 0..uses.len() {
        if state[root] != 0 {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (node, ref mut next)) = path.last_mut() {
            if let Some(&m) = uses[node].get(*next) {
                *next += 1;
                match state[m] {
                    0 => {
                        state[m] = 1;
                        path.push((m, 0));
                    }
                    1 => {
                        let from = path.iter().position(|&(p, _)| p == m).unwrap_or(0);
                        let names = path[from..]
                            .iter()
                            .map(|&(p, _)| d.states[p].0.name.clone())
                            .collect();
                        return Err(ExprError::new(
                            ErrorKind::DerivativeCycle { names },
                            d.states[m].0.span,
                        ));
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                path.pop();
            }
        }
    }
    Ok(())
}

/// The scope of equations, outputs and events: t, states, parameters, definitions;
/// outputs are hidden. A parameter that is not `structural` is an input of the tapes
/// (another value re-uses them); without `structural` every parameter is a constant.
fn full_scope(d: &Declared, params: &[f64], structural: Option<&[bool]>) -> Scope {
    let mut scope = Scope::builtins();
    scope.bind("t", Binding::Input(0));
    for (i, ((p, _), v)) in d.params.iter().zip(params).enumerate() {
        let binding = match structural {
            Some(s) if !s.get(i).copied().unwrap_or(true) => Binding::Param {
                index: i as u32,
                value: *v,
            },
            _ => Binding::Const(*v),
        };
        scope.bind(&p.name, binding);
    }
    for (i, (s, _)) in d.states.iter().enumerate() {
        scope.bind(&s.name, Binding::Input(1 + i as u32));
    }
    // A state's derivative `a'` is its right-hand side, the definition after the text's
    // own (see `Shared::new`); cycles are refused before (`check_derivative_cycles`).
    for (name, i) in derivative_names(d) {
        scope.bind(&name, Binding::Define(d.defines.len() + i));
    }
    // Programs hide the definitions they compile until their turn (see `program`).
    for (i, (def, _)) in d.defines.iter().enumerate() {
        scope.bind(&def.name, Binding::Define(i));
    }
    for (o, _) in &d.outputs {
        scope.bind(
            &o.name,
            Binding::Hidden(format!(
                "{} is an output; write it as a definition ({} = …) to use it in equations",
                o.name, o.name
            )),
        );
    }
    scope
}

/// The derivative names a right-hand side may use (`a'`), with their state's index.
fn derivative_names(d: &Declared) -> Vec<(String, usize)> {
    let states: HashMap<&str, usize> = d
        .states
        .iter()
        .enumerate()
        .map(|(i, (s, _))| (s.name.as_str(), i))
        .collect();
    (0..d.states.len())
        .filter_map(|i| derivative_name(d, i, &states).map(|n| (n, i)))
        .collect()
}

/// Indices of the definitions `e` names directly.
fn define_refs(e: &Expr, index: &HashMap<&str, usize>, out: &mut Vec<usize>) {
    visit_names(e, &mut |n| out.extend(index.get(n)));
}

/// What every program of a system shares.
struct Shared<'a> {
    d: &'a Declared,
    scope: Scope,
    define_exprs: Vec<Expr>,
    /// Definitions each definition names directly.
    deps: Vec<Vec<usize>>,
    index: HashMap<&'a str, usize>,
    /// `a'` of every first-order state (hidden while definitions compile).
    derivatives: Vec<(String, usize)>,
}

impl<'a> Shared<'a> {
    fn new(d: &'a Declared, params: &[f64], structural: Option<&[bool]>) -> Self {
        let index: HashMap<&str, usize> = d
            .defines
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.name.as_str(), i))
            .collect();
        let deps = d
            .defines
            .iter()
            .map(|(_, e)| {
                let mut v = Vec::new();
                define_refs(e, &index, &mut v);
                v
            })
            .collect();
        Self {
            d,
            scope: full_scope(d, params, structural),
            define_exprs: d
                .defines
                .iter()
                .chain(&d.states)
                .map(|(_, e)| e.clone())
                .collect(),
            deps,
            index,
            derivatives: derivative_names(d),
        }
    }

    /// Compiles `exprs` into one tape, with the definitions they need (all of them if
    /// `all_defines`, so that every definition is checked once).
    fn program(&self, exprs: &[&Expr], all_defines: bool) -> Result<Tape, ExprError> {
        let n = self.d.defines.len();
        let mut needed = vec![all_defines; n];
        if !all_defines {
            let mut stack = Vec::new();
            for e in exprs {
                define_refs(e, &self.index, &mut stack);
            }
            while let Some(i) = stack.pop() {
                if !needed[i] {
                    needed[i] = true;
                    stack.extend(&self.deps[i]);
                }
            }
        }
        let mut c = Compiler::new(&self.scope, &self.define_exprs, self.d.states.len());
        for (name, _) in &self.derivatives {
            c.bind(
                name,
                Binding::Hidden(
                    "a derivative can be used in equations, outputs and events, not in a \
                     definition"
                        .into(),
                ),
            );
        }
        // A definition may use only the ones above it: each is hidden until compiled.
        for (i, (def, _)) in self.d.defines.iter().enumerate() {
            if needed[i] {
                let line = self.d.lines.line(def.span.start);
                c.bind(
                    &def.name,
                    Binding::Hidden(format!(
                        "it is defined below, on line {line}; move the definition above its \
                         first use"
                    )),
                );
            }
        }
        for (i, (def, _)) in self.d.defines.iter().enumerate() {
            if !needed[i] {
                continue;
            }
            c.bind(
                &def.name,
                Binding::Hidden("a definition cannot use itself".into()),
            );
            c.define(i)?;
            c.bind(&def.name, Binding::Define(i));
        }
        let n_defines = self.d.defines.len();
        for (name, i) in &self.derivatives {
            c.bind(name, Binding::Define(n_defines + i));
        }
        let mut vals: Vec<Val> = Vec::with_capacity(exprs.len());
        for e in exprs {
            vals.push(c.expr(e)?);
        }
        Ok(c.finish(&vals))
    }
}

/// Names of the parameters that size arrays: used in a statement's range or index.
fn sizing_params(stmts: &[Stmt]) -> Vec<String> {
    let mut out = Vec::new();
    let mut add = |e: &Expr| visit_names(e, &mut |n| out.push(n.to_string()));
    for s in stmts {
        let (index, range) = match s {
            Stmt::Equation { index, range, .. }
            | Stmt::Initial { index, range, .. }
            | Stmt::Define { index, range, .. } => (index, range),
            _ => continue,
        };
        if let Some(r) = range {
            add(&r.from);
            add(&r.to);
        } else if let Some(i) = index {
            add(i);
        }
    }
    out
}

fn compile_system(
    text: &str,
    stmts: Vec<Stmt>,
    overrides: &BTreeMap<String, f64>,
) -> Result<UserSystem, ExprError> {
    let raw = RawNames::new(&stmts);
    let (defaults, values) = defaults_and_values(text, &raw, overrides)?;
    let mut expander = raw.expander(text, &values);
    drop(raw);
    let sizing = sizing_params(&stmts);
    expander.collect_families(&stmts)?;
    let plain = expander.statements(stmts)?;
    let decl = declare(text, plain)?;
    check_derivative_cycles(&decl)?;
    // A parameter an index or a range bound reads decides the statements: a constant of
    // the tapes. The others are their inputs, so that a new value re-uses them.
    let structural: Vec<bool> = decl
        .params
        .iter()
        .map(|(p, _)| expander.params_read().contains(&p.name))
        .collect();
    let d = &decl;
    let states: Vec<&Ident> = d.states.iter().map(|(s, _)| s).collect();
    let defines: Vec<&Ident> = d.defines.iter().map(|(s, _)| s).collect();
    let base = constant_scope(&d.lines, &states, &defines);
    let mut init = Compiler::new(&base, &[], 0);
    for ((p, _), v) in d.params.iter().zip(&values) {
        init.bind(&p.name, Binding::Const(*v));
    }
    let mut y0 = Vec::with_capacity(d.states.len());
    let mut no_initial: Option<&Ident> = None;
    let inputs: Vec<&str> = d
        .params
        .iter()
        .zip(&structural)
        .filter(|(_, s)| !**s)
        .map(|((p, _), _)| p.name.as_str())
        .collect();
    let mut param_initials = Vec::new();
    for (i, (s, _)) in d.states.iter().enumerate() {
        if let Some((_, e)) = d.initials.get(&s.name) {
            let mut uses = false;
            visit_names(e, &mut |n| uses |= inputs.contains(&n));
            if uses {
                param_initials.push(i);
            }
        }
        let v = match d.initials.get(&s.name) {
            Some((_, e)) => require_finite(
                format!("the initial value of {}", s.name),
                init.constant(e)?,
                e.span,
            )?,
            None => {
                no_initial = no_initial.or(Some(s));
                0.0
            }
        };
        y0.push(v);
    }
    let shared = Shared::new(d, &values, Some(&structural));
    let rhs_exprs: Vec<&Expr> = d.states.iter().map(|(_, e)| e).collect();
    let rhs = Program::new(shared.program(&rhs_exprs, true)?);
    let out_exprs: Vec<&Expr> = d.outputs.iter().map(|(_, e)| e).collect();
    let outputs = Program::new(shared.program(&out_exprs, false)?);
    let mut events = Vec::with_capacity(d.events.len());
    for (name, e, direction, terminal) in &d.events {
        let tape = shared.program(&[e], false)?;
        let src = text.get(e.span.start..e.span.end).unwrap_or("").to_string();
        events.push(UserEvent {
            name: name.name.clone(),
            expr: CompiledExpr::from_program(Program::new(tape), src),
            direction: *direction,
            terminal: *terminal,
        });
    }
    // Starting at 0 unless told otherwise would hide a forgotten line: every state
    // says where it starts. Checked after the equations, whose own mistakes (a
    // misspelt name…) are the more specific message.
    if let Some(s) = no_initial {
        return Err(ExprError::new(
            ErrorKind::NoInitialValue {
                name: s.name.clone(),
            },
            s.span,
        ));
    }
    let info = ModelInfo {
        id: USER_MODEL_ID.into(),
        name: "Your system".into(),
        dim: d.states.len(),
        names: d.states.iter().map(|(s, _)| s.name.clone()).collect(),
        params: d
            .params
            .iter()
            .zip(&defaults)
            .map(|((p, _), v)| ParamInfo {
                integer: sizing.contains(&p.name),
                ..ParamInfo::new(&p.name, *v, "", "")
            })
            .collect(),
        y0,
        t1: USER_T1,
        source: "your system".into(),
        outputs: d.outputs.iter().map(|(o, _)| o.name.clone()).collect(),
        exact: false,
        second_order: d.second_order,
        events: events
            .iter()
            .map(|e| EventInfo {
                direction: e.direction.as_i8(),
                terminal: e.terminal,
                watched: true,
                ..EventInfo::new(&e.name, &format!("event {}: {}", e.name, e.expr.text()))
            })
            .collect(),
        ..ModelInfo::default()
    };
    drop(shared);
    let params = d
        .params
        .iter()
        .zip(values)
        .map(|((p, _), v)| (p.name.clone(), v))
        .collect();
    Ok(UserSystem {
        info,
        sparsity: Sparsity::analyse(rhs.tape()),
        autonomous: !rhs.tape().reads_t(),
        rhs,
        outputs,
        events,
        decl: Rc::new(decl),
        params,
        expander: Rc::new(expander),
        structural,
        param_initials,
    })
}
