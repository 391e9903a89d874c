//! The compiler: a checked syntax tree → a flat [`Tape`] of instructions over numbered
//! slots, evaluated without re-parsing or walking a tree.
//!
//! Slot layout: `0` is t, `1..=n` are the states y, then the constants, then one slot
//! per instruction (instruction `i` writes slot `first_tmp + i`; every slot is written
//! once). A parameter bound as [`Binding::Const`] enters as a constant; one bound as
//! [`Binding::Param`] is an input of the tape's [`Prelude`]: every subexpression of
//! parameters and constants alone (`-k/m`, `D*(N+1)^2`) is a prelude node, computed
//! when the parameter values are set ([`Tape::set_params`]) and read by the tape from
//! a constant slot, so the instructions run per evaluation are those of a tape folded
//! for these values, and another value re-uses the compiled tape. Constant
//! subexpressions are folded at compile time with the same floating-point operations
//! the tape would do (so folding never changes a result), equal instructions are
//! shared, and instructions no output needs are dropped.
//!
//! Semantics of the non-arithmetic operations (also their derivatives, see `diff.rs`):
//! comparisons and `&&`, `||`, `!` give 1 (true) or 0 (false), any nonzero value is
//! true; `if(c, a, b)` and `c ? a : b` give a if c ≠ 0, b if c = 0 and NaN if c is NaN;
//! `sign` gives −1, 0 or 1; `min`/`max` propagate NaN; `log` is the natural logarithm;
//! `atan2(y, x)` is the angle of (x, y).

use super::error::{suggest, ErrorKind, ExprError};
use super::lexer::Span;
use super::parser::{BinOp, Expr, ExprKind, UnOp};
use super::MAX_TAPE;
use crate::math;
use std::collections::HashMap;

/// One operation of the tape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Neg,
    Not,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Exp,
    Log,
    Sqrt,
    Abs,
    Sinh,
    Cosh,
    Tanh,
    Sign,
    /// x^n for a constant integer n.
    PowI(i32),
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Atan2,
    Min,
    Max,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    /// `a` = condition, `b` = value if true, `c` = value if false.
    Select,
}

impl Op {
    /// Number of operands.
    pub fn arity(self) -> usize {
        use Op::*;
        match self {
            Neg | Not | Sin | Cos | Tan | Asin | Acos | Atan | Exp | Log | Sqrt | Abs | Sinh
            | Cosh | Tanh | Sign | PowI(_) => 1,
            Select => 3,
            _ => 2,
        }
    }

    /// [`Op::apply`] with the arithmetic operations, most of a tape, inline: `apply`
    /// itself is too big to inline, and a call per instruction was a third of an
    /// f evaluation on the 2,000-state heat equation. The same operations, the same bits.
    #[inline(always)]
    pub fn value(self, a: f64, b: f64, c: f64) -> f64 {
        match self {
            Op::Add => a + b,
            Op::Sub => a - b,
            Op::Mul => a * b,
            Op::Div => a / b,
            Op::Neg => -a,
            op => op.apply(a, b, c),
        }
    }

    /// The value of the operation.
    #[inline]
    pub fn apply(self, a: f64, b: f64, c: f64) -> f64 {
        let truth = |v: bool| if v { 1.0 } else { 0.0 };
        match self {
            Op::Neg => -a,
            Op::Not => truth(a == 0.0),
            Op::Sin => math::sin(a),
            Op::Cos => math::cos(a),
            Op::Tan => math::tan(a),
            Op::Asin => math::asin(a),
            Op::Acos => math::acos(a),
            Op::Atan => math::atan(a),
            Op::Exp => math::exp(a),
            Op::Log => math::ln(a),
            Op::Sqrt => a.sqrt(),
            Op::Abs => a.abs(),
            Op::Sinh => math::sinh(a),
            Op::Cosh => math::cosh(a),
            Op::Tanh => math::tanh(a),
            Op::Sign => sign(a),
            Op::PowI(n) => math::powi(a, n),
            Op::Add => a + b,
            Op::Sub => a - b,
            Op::Mul => a * b,
            Op::Div => a / b,
            Op::Pow => math::powf(a, b),
            Op::Atan2 => math::atan2(a, b),
            Op::Min => {
                if a <= b {
                    a
                } else if a > b {
                    b
                } else {
                    f64::NAN
                }
            }
            Op::Max => {
                if a >= b {
                    a
                } else if a < b {
                    b
                } else {
                    f64::NAN
                }
            }
            Op::Lt => truth(a < b),
            Op::Le => truth(a <= b),
            Op::Gt => truth(a > b),
            Op::Ge => truth(a >= b),
            Op::Eq => truth(a == b),
            Op::Ne => truth(a != b),
            Op::And => truth(a != 0.0 && b != 0.0),
            Op::Or => truth(a != 0.0 || b != 0.0),
            Op::Select => {
                if a.is_nan() {
                    f64::NAN
                } else if a != 0.0 {
                    b
                } else {
                    c
                }
            }
        }
    }
}

/// −1, 0 or 1 (NaN for NaN); unlike `f64::signum`, sign(0) = 0.
pub fn sign(a: f64) -> f64 {
    if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else if a == 0.0 {
        0.0
    } else {
        f64::NAN
    }
}

/// The built-in functions: name, operation, number of arguments. `if` is the
/// conditional.
pub const FUNCTIONS: &[(&str, Op, usize)] = &[
    ("sin", Op::Sin, 1),
    ("cos", Op::Cos, 1),
    ("tan", Op::Tan, 1),
    ("asin", Op::Asin, 1),
    ("acos", Op::Acos, 1),
    ("atan", Op::Atan, 1),
    ("atan2", Op::Atan2, 2),
    ("exp", Op::Exp, 1),
    ("log", Op::Log, 1),
    ("sqrt", Op::Sqrt, 1),
    ("abs", Op::Abs, 1),
    ("sinh", Op::Sinh, 1),
    ("cosh", Op::Cosh, 1),
    ("tanh", Op::Tanh, 1),
    ("min", Op::Min, 2),
    ("max", Op::Max, 2),
    ("sign", Op::Sign, 1),
    ("if", Op::Select, 3),
];

/// The built-in constants.
pub const CONSTANTS: &[(&str, f64)] = &[("pi", std::f64::consts::PI), ("e", std::f64::consts::E)];

/// One instruction: `op` applied to the slots `a`, `b`, `c` (unused ones are 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Inst {
    pub op: Op,
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

/// A compiled program: instructions over slots, and the slots holding its outputs.
#[derive(Debug, Clone, PartialEq)]
/// Only [`Compiler::finish`] makes one, so every slot an instruction reads exists and
/// precedes it.
pub struct Tape {
    /// Number of states n (slots 1..=n); slot 0 is t.
    pub(crate) n_states: usize,
    /// Constants, in slots `n_states + 1 ..`.
    pub(crate) consts: Vec<f64>,
    /// Instruction `i` writes slot [`Tape::first_tmp`] `+ i`.
    pub(crate) insts: Vec<Inst>,
    /// The slot of each output.
    pub(crate) outputs: Vec<u32>,
    /// How the constants that depend on parameters follow their values.
    pub(crate) prelude: Prelude,
}

/// An operand of a prelude node.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Arg {
    Const(f64),
    Node(u32),
}

/// A node of the prelude: a parameter, or an operation over constants and nodes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Node {
    Param(u32),
    Op(Op, [Arg; 3], u8),
}

/// The part of a tape that depends on parameters bound as [`Binding::Param`]: the
/// nodes computing its parameter-dependent constants, which constant slot each fills,
/// and the conditions decided at compile time (`if(k > 0, x, y)` compiles to x alone).
/// A new parameter value re-uses the tape while every decision stays the same and no
/// constant overflows (the compiler refuses an overflowing constant with its place in
/// the text: [`Tape::set_params`] then asks for a compilation, which says so).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Prelude {
    nodes: Vec<Node>,
    values: Vec<f64>,
    /// (node, decision): `Some(c ≠ 0)`, or `None` for a NaN condition.
    guards: Vec<(u32, Option<bool>)>,
    /// (index into the tape's constants, node).
    bound: Vec<(u32, u32)>,
}

/// Whether an operation on finite operands that gives an infinite value is an overflow
/// the compiler refuses (`10^400`, `exp(1000)`), rather than a division by zero left to
/// the run's diagnosis.
fn overflows(op: Op, args: &[f64], value: f64) -> bool {
    let grows = match op {
        Op::Exp | Op::Sinh | Op::Cosh | Op::Add | Op::Sub | Op::Mul => true,
        Op::PowI(n) => n > 0,
        Op::Pow => args.get(1).is_some_and(|&b| b > 0.0),
        _ => false,
    };
    value.is_infinite() && args.iter().all(|x| x.is_finite()) && grows
}

impl Prelude {
    fn eval(values: &[f64], params: &[f64], node: Node) -> Option<f64> {
        match node {
            Node::Param(i) => params.get(i as usize).copied(),
            Node::Op(op, args, arity) => {
                let mut x = [0.0; 3];
                for (v, a) in x.iter_mut().zip(args) {
                    *v = match a {
                        Arg::Const(c) => c,
                        Arg::Node(j) => values[j as usize],
                    };
                }
                let v = op.apply(x[0], x[1], x[2]);
                (!overflows(op, &x[..arity as usize], v)).then_some(v)
            }
        }
    }

    /// The node values for `params`, or `None` when the tape compiled for the current
    /// values does not hold for these (a decision changes, a constant overflows).
    fn values_for(&self, params: &[f64]) -> Option<Vec<f64>> {
        let mut values = Vec::with_capacity(self.nodes.len());
        for &node in &self.nodes {
            let v = Self::eval(&values, params, node)?;
            values.push(v);
        }
        for &(j, decided) in &self.guards {
            let c = values[j as usize];
            if (!c.is_nan()).then_some(c != 0.0) != decided {
                return None;
            }
        }
        Some(values)
    }

    /// Whether the tape has parameter inputs.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl Tape {
    /// Number of states the tape reads.
    pub fn n_states(&self) -> usize {
        self.n_states
    }

    /// The constants, in slot order.
    pub fn consts(&self) -> &[f64] {
        &self.consts
    }

    /// The instructions, in execution order.
    pub fn insts(&self) -> &[Inst] {
        &self.insts
    }

    /// The slot of each output.
    pub fn outputs(&self) -> &[u32] {
        &self.outputs
    }

    /// Whether the program reads t (slot 0): an instruction's operand or an output.
    /// Unused operands are 0 as well, so only the first [`Op::arity`] count.
    pub fn reads_t(&self) -> bool {
        self.outputs.contains(&0)
            || self
                .insts
                .iter()
                .any(|i| [i.a, i.b, i.c][..i.op.arity()].contains(&0))
    }

    /// The slot written by the first instruction.
    pub fn first_tmp(&self) -> usize {
        1 + self.n_states + self.consts.len()
    }

    /// Total number of slots.
    pub fn n_slots(&self) -> usize {
        self.first_tmp() + self.insts.len()
    }

    /// Sets the values of the parameters bound as [`Binding::Param`] (indexed as bound)
    /// and the constants computed from them; returns `false`, leaving the tape as it
    /// was, when these values need another compilation (see [`Prelude`]). The constants
    /// are computed with the operations the compiler folds with, so the tape computes
    /// bit for bit what a compilation for these values would.
    pub fn set_params(&mut self, params: &[f64]) -> bool {
        if self.prelude.is_empty() {
            return true;
        }
        let Some(values) = self.prelude.values_for(params) else {
            return false;
        };
        for &(k, j) in &self.prelude.bound {
            self.consts[k as usize] = values[j as usize];
        }
        self.prelude.values = values;
        true
    }
}

/// What a name means where it is used.
#[derive(Debug, Clone, PartialEq)]
pub enum Binding {
    /// An input slot (0 = t, 1..=n = states).
    Input(u32),
    /// A value known at compile time (parameter, built-in constant).
    Const(f64),
    /// Parameter `index` of the tape's parameter inputs, whose value is `value` now and
    /// may change without compiling again ([`Tape::set_params`]).
    Param { index: u32, value: f64 },
    /// The i-th definition (`F = …`) of the scope, compiled on first use.
    Define(usize),
    /// A name that exists but may not be used here, and why.
    Hidden(String),
}

/// The names visible to an expression; binding a name again replaces its meaning.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    names: HashMap<String, Binding>,
}

impl Scope {
    /// The built-in constants (pi, e).
    pub fn builtins() -> Self {
        let mut s = Self::default();
        for &(n, v) in CONSTANTS {
            s.bind(n, Binding::Const(v));
        }
        s
    }

    /// Adds a name or replaces its meaning.
    pub fn bind(&mut self, name: &str, b: Binding) {
        self.names.insert(name.to_string(), b);
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.names.get(name)
    }
}

/// A value during compilation: known now, or in a slot at run time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Val {
    Const(f64),
    Slot(u32),
}

/// Builds one tape from any number of expressions sharing one scope.
pub struct Compiler<'s> {
    /// Names shared by every program of a system.
    base: &'s Scope,
    /// Names bound while compiling (definitions as they become visible…); they take
    /// precedence over `base`.
    scope: Scope,
    /// The definitions that [`Binding::Define`] refers to.
    define_exprs: &'s [Expr],
    n_states: usize,
    consts: Vec<f64>,
    const_index: HashMap<u64, u32>,
    /// Instructions with operand slots in a provisional numbering (see `finish`).
    insts: Vec<Inst>,
    seen: HashMap<Inst, u32>,
    defines: HashMap<usize, Val>,
    /// The prelude node each constant stands for (`None`: a number).
    const_node: Vec<Option<u32>>,
    node_const: HashMap<u32, u32>,
    prelude: Prelude,
    node_index: HashMap<(Op, [(bool, u64); 3]), u32>,
    param_node: HashMap<u32, u32>,
}

/// Provisional slot numbers: constants are tagged so instructions can be numbered
/// before the number of constants is known.
const CONST_TAG: u32 = 1 << 31;

impl<'s> Compiler<'s> {
    pub fn new(base: &'s Scope, define_exprs: &'s [Expr], n_states: usize) -> Self {
        Self {
            base,
            scope: Scope::default(),
            define_exprs,
            n_states,
            consts: Vec::new(),
            const_index: HashMap::new(),
            insts: Vec::new(),
            seen: HashMap::new(),
            defines: HashMap::new(),
            const_node: Vec::new(),
            node_const: HashMap::new(),
            prelude: Prelude::default(),
            node_index: HashMap::new(),
            param_node: HashMap::new(),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scope.lookup(name).or_else(|| self.base.lookup(name))
    }

    /// Every name a misspelling could have meant, functions included, in a fixed order
    /// (so suggestions do not depend on hashing).
    fn candidates(&self) -> Vec<&str> {
        let mut c: Vec<&str> = self
            .scope
            .names
            .keys()
            .chain(self.base.names.keys())
            .map(|n| n.as_str())
            .filter(|n| !matches!(self.lookup(n), Some(Binding::Hidden(_))))
            .chain(FUNCTIONS.iter().map(|f| f.0))
            .collect();
        c.sort_unstable();
        c.dedup();
        c
    }

    /// Compiles `e` and returns where its value is.
    pub fn expr(&mut self, e: &Expr) -> Result<Val, ExprError> {
        match &e.kind {
            ExprKind::Num(x) => Ok(Val::Const(*x)),
            ExprKind::Name(n) => self.name(n, e.span),
            ExprKind::Unary(op, a) => {
                let a = self.expr(a)?;
                let op = match op {
                    UnOp::Neg => Op::Neg,
                    UnOp::Not => Op::Not,
                };
                self.emit(op, &[a], e.span)
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(a)?;
                if *op == BinOp::Pow {
                    if let Some(n) = exponent_literal(b) {
                        if n.fract() == 0.0 && n.abs() <= 64.0 {
                            return self.emit(Op::PowI(n as i32), &[va], e.span);
                        }
                    }
                }
                let vb = self.expr(b)?;
                let op = match op {
                    BinOp::Add => Op::Add,
                    BinOp::Sub => Op::Sub,
                    BinOp::Mul => Op::Mul,
                    BinOp::Div => Op::Div,
                    BinOp::Pow => Op::Pow,
                    BinOp::Lt => Op::Lt,
                    BinOp::Le => Op::Le,
                    BinOp::Gt => Op::Gt,
                    BinOp::Ge => Op::Ge,
                    BinOp::Eq => Op::Eq,
                    BinOp::Ne => Op::Ne,
                    BinOp::And => Op::And,
                    BinOp::Or => Op::Or,
                };
                self.emit(op, &[va, vb], e.span)
            }
            ExprKind::Cond(c, a, b) => {
                let vc = self.expr(c)?;
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                self.emit(Op::Select, &[vc, va, vb], e.span)
            }
            // Expanded by `super::expand` before compiling; left only where no system
            // gives them a meaning (an expression over a built-in model's states).
            ExprKind::Index {
                name, name_span, ..
            } => Err(ExprError::new(
                ErrorKind::NotAFamily { name: name.clone() },
                *name_span,
            )),
            ExprKind::Deriv { name, .. } => Err(ExprError::new(
                ErrorKind::NotAllowedHere {
                    name: format!("{name}'"),
                    reason: "derivatives can be used in a system's equations, outputs and events"
                        .into(),
                },
                e.span,
            )),
            ExprKind::Sum { .. } => Err(ExprError::new(
                ErrorKind::NotAllowedHere {
                    name: "sum".into(),
                    reason: "sums can be used in a system's statements".into(),
                },
                e.span,
            )),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => {
                let Some(&(_, op, arity)) = FUNCTIONS.iter().find(|f| f.0 == name) else {
                    let kind = match self.lookup(name) {
                        Some(_) => ErrorKind::NotAFunction { name: name.clone() },
                        None => ErrorKind::UnknownFunction {
                            name: name.clone(),
                            suggestion: suggest(name, FUNCTIONS.iter().map(|f| f.0)),
                        },
                    };
                    return Err(ExprError::new(kind, *name_span));
                };
                if args.len() != arity {
                    return Err(ExprError::new(
                        ErrorKind::WrongArity {
                            name: name.clone(),
                            expected: arity,
                            got: args.len(),
                        },
                        e.span,
                    ));
                }
                let mut vals = [Val::Const(0.0); 3];
                for (v, a) in vals.iter_mut().zip(args) {
                    *v = self.expr(a)?;
                }
                self.emit(op, &vals[..arity], e.span)
            }
        }
    }

    fn name(&mut self, n: &str, span: Span) -> Result<Val, ExprError> {
        match self.lookup(n) {
            Some(Binding::Input(i)) if *i as usize <= self.n_states => Ok(Val::Slot(*i)),
            Some(Binding::Const(x)) => Ok(Val::Const(*x)),
            Some(&Binding::Param { index, value }) => {
                let next = self.prelude.nodes.len() as u32;
                let j = *self.param_node.entry(index).or_insert(next);
                if j == next {
                    self.prelude.nodes.push(Node::Param(index));
                    self.prelude.values.push(value);
                }
                Ok(Val::Slot(PARAM_TAG | j))
            }
            Some(Binding::Define(i)) => {
                let i = *i;
                if let Some(v) = self.defines.get(&i) {
                    return Ok(*v);
                }
                let defs = self.define_exprs;
                let Some(def) = defs.get(i) else {
                    return Err(ExprError::new(
                        ErrorKind::UnknownName {
                            name: n.into(),
                            suggestion: None,
                        },
                        span,
                    ));
                };
                let v = self.expr(def)?;
                self.defines.insert(i, v);
                Ok(v)
            }
            Some(Binding::Hidden(reason)) => Err(ExprError::new(
                ErrorKind::NotAllowedHere {
                    name: n.into(),
                    reason: reason.clone(),
                },
                span,
            )),
            Some(Binding::Input(_)) | None => {
                let kind = if FUNCTIONS.iter().any(|f| f.0 == n) {
                    ErrorKind::FunctionWithoutCall { name: n.into() }
                } else {
                    ErrorKind::UnknownName {
                        name: n.into(),
                        suggestion: suggest(n, self.candidates()),
                    }
                };
                Err(ExprError::new(kind, span))
            }
        }
    }

    /// Rebinds `name` (e.g. makes a definition visible once it is compiled).
    pub fn bind(&mut self, name: &str, b: Binding) {
        self.scope.bind(name, b);
    }

    /// Compiles definition `i` now (so later uses find it without recursion).
    pub fn define(&mut self, i: usize) -> Result<Val, ExprError> {
        if let Some(v) = self.defines.get(&i) {
            return Ok(*v);
        }
        let defs = self.define_exprs;
        let v = match defs.get(i) {
            Some(def) => self.expr(def)?,
            None => Val::Const(f64::NAN),
        };
        self.defines.insert(i, v);
        Ok(v)
    }

    fn slot_of(&mut self, v: Val) -> u32 {
        match v {
            Val::Slot(s) if s & PARAM_TAG != 0 => {
                let j = s & !PARAM_TAG;
                let next = self.consts.len() as u32;
                let i = *self.node_const.entry(j).or_insert(next);
                if i == next {
                    self.consts.push(self.prelude.values[j as usize]);
                    self.const_node.push(Some(j));
                }
                CONST_TAG | i
            }
            Val::Slot(s) => s,
            Val::Const(x) => {
                let next = self.consts.len() as u32;
                let i = *self.const_index.entry(x.to_bits()).or_insert(next);
                if i == next {
                    self.consts.push(x);
                    self.const_node.push(None);
                }
                CONST_TAG | i
            }
        }
    }

    /// The prelude node of `v` (a parameter or a value computed from parameters).
    fn node_of(v: Val) -> Option<u32> {
        match v {
            Val::Slot(s) if s & PARAM_TAG != 0 => Some(s & !PARAM_TAG),
            _ => None,
        }
    }

    /// An operation whose operands are all constants or prelude nodes, some of them
    /// nodes: a prelude node, refused like a folded constant when it overflows.
    fn emit_node(&mut self, op: Op, args: &[Val], span: Span) -> Result<Val, ExprError> {
        let mut node_args = [Arg::Const(0.0); 3];
        let mut key = [(false, 0.0f64.to_bits()); 3];
        let mut x = [0.0; 3];
        for (k, v) in args.iter().enumerate() {
            // The caller passes constants and prelude nodes only.
            (node_args[k], key[k], x[k]) = match *v {
                Val::Const(c) => (Arg::Const(c), (false, c.to_bits()), c),
                Val::Slot(s) => {
                    let j = s & !PARAM_TAG;
                    let x = self.prelude.values.get(j as usize).copied();
                    (Arg::Node(j), (true, u64::from(j)), x.unwrap_or(f64::NAN))
                }
            };
        }
        if let Some(&j) = self.node_index.get(&(op, key)) {
            return Ok(Val::Slot(PARAM_TAG | j));
        }
        let value = op.apply(x[0], x[1], x[2]);
        if overflows(op, &x[..args.len()], value) {
            return Err(ExprError::new(ErrorKind::ConstantOverflow, span));
        }
        let j = self.prelude.nodes.len() as u32;
        self.prelude
            .nodes
            .push(Node::Op(op, node_args, args.len() as u8));
        self.prelude.values.push(value);
        self.node_index.insert((op, key), j);
        Ok(Val::Slot(PARAM_TAG | j))
    }

    fn emit(&mut self, op: Op, args: &[Val], span: Span) -> Result<Val, ExprError> {
        let get = |k: usize| args.get(k).copied().unwrap_or(Val::Const(0.0));
        if args.iter().all(|v| matches!(v, Val::Const(_))) {
            let c = |k: usize| match get(k) {
                Val::Const(x) => x,
                Val::Slot(_) => 0.0,
            };
            let value = op.apply(c(0), c(1), c(2));
            // Finite constants that overflow (10^400, exp(1000)) would make f infinite
            // at every point: said here, where the text is, not after a run. A division
            // by zero (1/0, 0^-1, log(0)) is left to the run's diagnosis of where f is
            // not finite.
            let x = [c(0), c(1), c(2)];
            if overflows(op, &x[..args.len()], value) {
                return Err(ExprError::new(ErrorKind::ConstantOverflow, span));
            }
            return Ok(Val::Const(value));
        }
        if args
            .iter()
            .all(|v| matches!(v, Val::Const(_)) || Self::node_of(*v).is_some())
        {
            return self.emit_node(op, args, span);
        }
        // A conditional with a known condition is its chosen branch; one decided by
        // parameter values is recorded, so that values deciding otherwise compile again.
        if op == Op::Select {
            let cond = match (get(0), Self::node_of(get(0))) {
                (Val::Const(cond), _) => Some(cond),
                (_, Some(j)) => {
                    let cond = self.prelude.values[j as usize];
                    self.prelude
                        .guards
                        .push((j, (!cond.is_nan()).then_some(cond != 0.0)));
                    Some(cond)
                }
                _ => None,
            };
            if let Some(cond) = cond.filter(|c| !c.is_nan()) {
                return Ok(if cond != 0.0 { get(1) } else { get(2) });
            }
        }
        if self.insts.len() >= MAX_TAPE {
            return Err(ExprError::new(
                ErrorKind::TooLarge {
                    what: "the compiled system".into(),
                    limit: MAX_TAPE,
                    unit: "operations".into(),
                },
                span,
            ));
        }
        let mut slots = [0u32; 3];
        for (k, s) in slots.iter_mut().enumerate().take(args.len()) {
            *s = self.slot_of(args[k]);
        }
        let inst = Inst {
            op,
            a: slots[0],
            b: slots[1],
            c: slots[2],
        };
        if let Some(&s) = self.seen.get(&inst) {
            return Ok(Val::Slot(s));
        }
        // Provisional numbering of results: TMP_TAG | index.
        let s = TMP_TAG | self.insts.len() as u32;
        self.insts.push(inst);
        self.seen.insert(inst, s);
        Ok(Val::Slot(s))
    }

    /// The tape computing `outputs`, with unused instructions dropped and slots
    /// renumbered into the final layout.
    pub fn finish(mut self, outputs: &[Val]) -> Tape {
        let outs: Vec<u32> = outputs.iter().map(|v| self.slot_of(*v)).collect();
        let n_inputs = 1 + self.n_states as u32;
        // Liveness, backwards (every operand of instruction i precedes i).
        let mut live = vec![false; self.insts.len()];
        for &o in &outs {
            if o & TMP_TAG != 0 && o & CONST_TAG == 0 {
                live[(o & !TMP_TAG) as usize] = true;
            }
        }
        for i in (0..self.insts.len()).rev() {
            if !live[i] {
                continue;
            }
            let inst = self.insts[i];
            for &s in [inst.a, inst.b, inst.c].iter().take(inst.op.arity()) {
                if s & TMP_TAG != 0 && s & CONST_TAG == 0 {
                    live[(s & !TMP_TAG) as usize] = true;
                }
            }
        }
        // Keep only the constants live instructions and outputs use.
        let mut const_used = vec![false; self.consts.len()];
        let mark = |s: u32, used: &mut Vec<bool>| {
            if s & CONST_TAG != 0 {
                used[(s & !CONST_TAG) as usize] = true;
            }
        };
        for (i, inst) in self.insts.iter().enumerate() {
            if live[i] {
                for &s in [inst.a, inst.b, inst.c].iter().take(inst.op.arity()) {
                    mark(s, &mut const_used);
                }
            }
        }
        for &o in &outs {
            mark(o, &mut const_used);
        }
        let mut const_new = vec![0u32; self.consts.len()];
        let mut consts = Vec::new();
        let mut prelude = std::mem::take(&mut self.prelude);
        for (i, &used) in const_used.iter().enumerate() {
            if used {
                if let Some(j) = self.const_node[i] {
                    prelude.bound.push((consts.len() as u32, j));
                }
                const_new[i] = n_inputs + consts.len() as u32;
                consts.push(self.consts[i]);
            }
        }
        if prelude.bound.is_empty() && prelude.guards.is_empty() {
            prelude = Prelude::default();
        }
        let first_tmp = n_inputs + consts.len() as u32;
        let mut tmp_new = vec![0u32; self.insts.len()];
        let mut insts = Vec::new();
        let renumber = |s: u32, tmp_new: &[u32]| -> u32 {
            if s & CONST_TAG != 0 {
                const_new[(s & !CONST_TAG) as usize]
            } else if s & TMP_TAG != 0 {
                tmp_new[(s & !TMP_TAG) as usize]
            } else {
                s
            }
        };
        for (i, inst) in self.insts.iter().enumerate() {
            if !live[i] {
                continue;
            }
            let mut new = *inst;
            let arity = inst.op.arity();
            new.a = renumber(inst.a, &tmp_new);
            new.b = if arity >= 2 {
                renumber(inst.b, &tmp_new)
            } else {
                0
            };
            new.c = if arity >= 3 {
                renumber(inst.c, &tmp_new)
            } else {
                0
            };
            tmp_new[i] = first_tmp + insts.len() as u32;
            insts.push(new);
        }
        let outputs = outs.iter().map(|&o| renumber(o, &tmp_new)).collect();
        Tape {
            n_states: self.n_states,
            consts,
            insts,
            outputs,
            prelude,
        }
    }
}

/// Provisional tag of instruction results (see [`Compiler::finish`]).
const TMP_TAG: u32 = 1 << 30;
/// Tag of prelude nodes while compiling: they become constant slots of the tape.
const PARAM_TAG: u32 = 1 << 29;

/// The exponent as a literal number, looking through a unary minus (`x^-2`).
fn exponent_literal(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Num(x) => Some(*x),
        ExprKind::Unary(UnOp::Neg, inner) => match inner.kind {
            ExprKind::Num(x) => Some(-x),
            _ => None,
        },
        _ => None,
    }
}

impl Compiler<'_> {
    /// The value of an expression that needs no states and no time (parameter values,
    /// initial values), in a scope that hides them.
    pub fn constant(&mut self, e: &Expr) -> Result<f64, ExprError> {
        match self.expr(e)? {
            Val::Const(x) => Ok(x),
            // Only inputs make a value non-constant, and a constant scope hides them all.
            Val::Slot(_) => Ok(f64::NAN),
        }
    }
}
