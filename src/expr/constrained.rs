//! Constrained systems typed in the textbook form (Gil, Sanfelice & Nikravesh (LLM)
//! §2 eqs. 7–8; Negrut et al. 2003 eqs. 1a–1d):
//!
//! ```text
//! param m = 1, J = 1/12, L = 1, g = 9.81, w = 2*pi
//! coordinates x, y, φ                  # generalized coordinates, in order
//! mass m, m, J                         # the diagonal of M (or mass(x, φ) = … entries)
//! force y = -m*g                       # generalized force on a coordinate (they add up)
//! constraint x - L/2*cos(φ) = 0        # Φ = lhs − rhs
//! constraint pin: y - L/2*sin(φ) = 0   # a name, used in messages and for λ:pin
//! constraint crank: φ - w*t = 0        # time-dependent (a driver)
//! x(0) = 0.5, y(0) = 0, φ(0) = 0       # approximate: made consistent (least change)
//! φ'(0) = 0                            # velocities given are kept where they can be
//! output energy = 0.5*m*(x'^2 + y'^2) + 0.5*J*φ'^2 + m*g*y
//! ```
//!
//! Families expand as everywhere in the language: `coordinates x[i], y[i], φ[i] for i =
//! 1..N` (interleaved per i), `mass m, m, J for i = 1..N`, `force y[i] = -m*g for i =
//! 1..N`, `constraint link[i]: x[i] - x[i-1] - … = 0 for i = 2..N`. Forces may use the
//! velocities `x'`; constraints only the coordinates and t. Definitions (`c = cos(φ)`) are
//! inlined.
//!
//! Every derivative is exact: Φ_q, Φ_t and γ = −(Φ_q q̇)_q q̇ − 2Φ_qt q̇ − Φ_tt are
//! differentiated symbolically ([`super::symbolic`]) and compiled to tapes; the tapes'
//! forward-mode AD (`super::diff`) gives ∂Φ_q/∂q, ∂γ/∂q, ∂γ/∂q̇, ∂Q/∂q, ∂Q/∂q̇, ∂M/∂q
//! and the t-derivatives the formulations' Jacobians need (Gil, Sanfelice & Nikravesh
//! (LLM) eqs. 10–15, Negrut et al. 2003 §2). The result is a
//! [`crate::multibody::models::Description`] that the augmented and state-space
//! formulations integrate.

use super::compile::{Binding, Compiler, Scope, Val};
use super::draw::take_draw_lines;
use super::error::{ErrorKind, ExprError, LineIndex};
use super::eval::Program;
use super::lexer::Span;
use super::parser::{Expr, ExprKind, Ident, Stmt};
use super::sparsity::Sparsity;
use super::symbolic::{add, derivative, inline, mentions, mul, neg};
use super::system::{
    check_not_reserved, defaults_and_values, parse_text, require_finite, RawNames,
};
use crate::error::OdeError;
use crate::model::{ModelInfo, ParamInfo};
use crate::multibody::constrained::{Constrained, Derivatives, SparseBlock, TimeDerivatives};
use crate::multibody::models::Description;
#[cfg(feature = "full")]
use crate::multibody::sparse_saddle::SaddlePattern;
use nalgebra::{DMatrix, DVector};
use std::collections::{BTreeMap, HashMap};

/// Whether a text is a constrained system: a line starts with the statement
/// `coordinates …` or `constraint …` (not a definition, state or initial value of
/// something called so, as in `constraint = 1`).
pub fn is_constrained(text: &str) -> bool {
    super::bodies::has_bodies(text)
        || text.lines().any(|l| {
            let l = l.trim_start();
            ["coordinates", "constraint"].iter().any(|k| {
                l.strip_prefix(k).is_some_and(|rest| {
                    rest.starts_with([' ', '\t'])
                        && !rest.trim_start().starts_with(['=', '\'', '(', '['])
                })
            })
        })
}

/// A constrained system compiled from text (see the module doc).
pub struct TypedSystem {
    coords: Vec<String>,
    constraints: Vec<String>,
    n: usize,
    m: usize,
    rheonomic: bool,
    time_dependent: bool,
    mass_constant: bool,
    /// Φ, Φ_q (row-major), Φ_t over (t, q).
    pos: Program,
    /// γ, Q, M (row-major) over (t, q, q̇).
    acc: Program,
    /// Both, for their derivatives.
    all: Program,
    /// Q alone, and the pattern of its Jacobian over (q, q̇): ∂Q/∂(q, q̇) by coloured
    /// sweeps (a chain's gravity has none), not one sweep of `acc` (γ, Q and every entry
    /// of M) per state.
    force: Program,
    force_pattern: Option<Sparsity>,
    /// The saddle-point matrix's pattern (structural zeros of Φ_q and M), for a big
    /// mechanism.
    #[cfg(feature = "full")]
    saddle: Option<SaddlePattern>,
    /// Which entries of `all`'s Jacobian can be nonzero, and their colouring: Φ_q and M
    /// entries each read a few coordinates, so a handful of sweeps replace one per state
    /// (2n of them), and a chain's cost per step stops growing like N³.
    all_pattern: Option<Sparsity>,
}

fn err(message: String, span: Span) -> ExprError {
    ExprError::new(ErrorKind::Constrained { message }, span)
}

impl TypedSystem {
    fn eval(&self, p: &Program, t: f64, q: &[f64], qd: Option<&[f64]>) -> Vec<f64> {
        let mut y = q.to_vec();
        match qd {
            Some(qd) => y.extend_from_slice(qd),
            None => y.extend(std::iter::repeat_n(0.0, self.n)),
        }
        let mut out = vec![0.0; p.n_outputs()];
        p.eval(t, &y, &mut out);
        out
    }
}

impl Constrained for TypedSystem {
    fn n(&self) -> usize {
        self.n
    }

    fn m(&self) -> usize {
        self.m
    }

    fn coordinate_names(&self) -> Vec<String> {
        self.coords.clone()
    }

    fn constraint_names(&self) -> Vec<String> {
        self.constraints.clone()
    }

    fn rheonomic(&self) -> bool {
        self.rheonomic
    }

    fn time_dependent(&self) -> bool {
        self.time_dependent
    }

    fn mass(&self, q: &[f64]) -> DMatrix<f64> {
        let (n, m) = (self.n, self.m);
        let v = self.eval(&self.acc, 0.0, q, None);
        DMatrix::from_row_slice(n, n, &v[m + n..m + n + n * n])
    }

    fn forces(&self, t: f64, q: &[f64], qd: &[f64]) -> DVector<f64> {
        let (n, m) = (self.n, self.m);
        let v = self.eval(&self.acc, t, q, Some(qd));
        DVector::from_row_slice(&v[m..m + n])
    }

    fn phi(&self, t: f64, q: &[f64]) -> DVector<f64> {
        let v = self.eval(&self.pos, t, q, None);
        DVector::from_row_slice(&v[..self.m])
    }

    fn phi_q(&self, t: f64, q: &[f64]) -> DMatrix<f64> {
        let (n, m) = (self.n, self.m);
        let v = self.eval(&self.pos, t, q, None);
        DMatrix::from_row_slice(m, n, &v[m..m + m * n])
    }

    fn phi_t(&self, t: f64, q: &[f64]) -> Option<DVector<f64>> {
        if !self.rheonomic {
            return None;
        }
        let (n, m) = (self.n, self.m);
        let v = self.eval(&self.pos, t, q, None);
        Some(DVector::from_row_slice(&v[m + m * n..2 * m + m * n]))
    }

    fn gamma(&self, t: f64, q: &[f64], qd: &[f64]) -> DVector<f64> {
        let v = self.eval(&self.acc, t, q, Some(qd));
        DVector::from_row_slice(&v[..self.m])
    }

    fn derivatives(&self, t: f64, q: &[f64], qd: &[f64]) -> Derivatives {
        let (n, m) = (self.n, self.m);
        let y: Vec<f64> = q.iter().chain(qd).copied().collect();
        let b_phiq = m;
        let b_phit = m + m * n;
        let b_gamma = 2 * m + m * n;
        let b_q = 3 * m + m * n;
        let b_mass = b_q + n;
        // Only the structurally nonzero entries are visited; a block whose entries are all
        // zero stays None, as the formulations expect.
        let mut phi_q_q_entries: Vec<Vec<(usize, usize, f64)>> = vec![Vec::new(); n];
        let mut mass_q: Vec<Option<DMatrix<f64>>> = vec![None; n];
        let mut gamma_q = DMatrix::zeros(m, n);
        let mut gamma_qd = DMatrix::zeros(m, n);
        let mut phi_t_q = self.rheonomic.then(|| DMatrix::zeros(m, n));
        let entry = |row: usize, col: usize, v: f64| {
            if v == 0.0 {
                return;
            }
            let (k, velocity) = (col % n, col >= n);
            if row >= b_gamma && row < b_gamma + m {
                let target = if velocity {
                    &mut gamma_qd
                } else {
                    &mut gamma_q
                };
                target[(row - b_gamma, k)] = v;
                return;
            }
            if velocity {
                return;
            }
            if row >= b_phiq && row < b_phit {
                let r = row - b_phiq;
                phi_q_q_entries[k].push((r / n, r % n, v));
            } else if row >= b_phit && row < b_gamma {
                if let Some(p) = phi_t_q.as_mut() {
                    p[(row - b_phit, k)] = v;
                }
            } else if row >= b_mass && !self.mass_constant {
                let r = row - b_mass;
                mass_q[k].get_or_insert_with(|| DMatrix::zeros(n, n))[(r / n, r % n)] = v;
            }
        };
        jacobian_each(&self.all, self.all_pattern.as_ref(), t, &y, entry);
        if self.mass_constant {
            mass_q.clear();
        }
        // Column-major, as the dense products the formulations used to take.
        let phi_q_q: Vec<Option<SparseBlock>> = phi_q_q_entries
            .into_iter()
            .map(|mut entries| {
                (!entries.is_empty()).then(|| {
                    entries.sort_unstable_by_key(|&(r, c, _)| (c, r));
                    SparseBlock {
                        nrows: m,
                        ncols: n,
                        entries,
                    }
                })
            })
            .collect();
        let time = self.time_dependent.then(|| {
            let ft = self.all.dfdt(t, &y);
            TimeDerivatives {
                phi_q_t: DMatrix::from_fn(m, n, |r, c| ft[b_phiq + r * n + c]),
                phi_tt: DVector::from_fn(m, |r, _| ft[b_phit + r]),
                gamma_t: DVector::from_fn(m, |r, _| ft[b_gamma + r]),
                forces_t: DVector::from_fn(n, |r, _| ft[b_q + r]),
            }
        });
        Derivatives {
            phi_q_q,
            gamma_q,
            gamma_qd,
            mass_q,
            phi_t_q,
            time,
        }
    }

    #[cfg(feature = "full")]
    fn saddle_pattern(&self) -> Option<&SaddlePattern> {
        self.saddle.as_ref()
    }

    fn force_jacobian(
        &self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        jq: &mut DMatrix<f64>,
        jqd: &mut DMatrix<f64>,
    ) {
        let n = self.n;
        let y: Vec<f64> = q.iter().chain(qd).copied().collect();
        let add = |r: usize, c: usize, v: f64| {
            if c < n {
                jq[(r, c)] += v;
            } else {
                jqd[(r, c - n)] += v;
            }
        };
        jacobian_each(&self.force, self.force_pattern.as_ref(), t, &y, add);
    }
}

/// Every entry (row, column, value) of `program`'s Jacobian at (t, y): its structural
/// nonzeros by coloured sweeps when it has a `pattern`, else every entry of the dense one.
fn jacobian_each(
    program: &Program,
    pattern: Option<&Sparsity>,
    t: f64,
    y: &[f64],
    mut each: impl FnMut(usize, usize, f64),
) {
    match pattern {
        Some(pattern) => {
            program.jacobian_entries(t, y, pattern, |_, row, col, v| each(row, col, v))
        }
        None => {
            let j = program.jacobian(t, y);
            for col in 0..j.ncols() {
                for row in 0..j.nrows() {
                    each(row, col, j[(row, col)]);
                }
            }
        }
    }
}

/// The (row, column) of every entry of a row-major table of expressions with `n`
/// columns that is not the literal 0 (what differentiation leaves where an expression
/// does not mention a coordinate).
#[cfg(feature = "full")]
fn nonzero(table: &[Expr], n: usize) -> Vec<(usize, usize)> {
    table
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e.kind, ExprKind::Num(v) if v == 0.0))
        .map(|(k, _)| (k / n, k % n))
        .collect()
}

/// What the statements of a constrained text declare, after expansion.
struct Parts {
    coords: Vec<Ident>,
    mass_diag: Vec<(Expr, Span)>,
    mass_entries: Vec<(String, String, Expr, Span)>,
    forces: Vec<(String, Expr)>,
    constraints: Vec<(String, Expr, Span)>,
    defines: Vec<(Ident, Expr)>,
    initials: Vec<(Ident, u8, Expr)>,
    outputs: Vec<(Ident, Expr)>,
    last_mass: Option<Span>,
}

fn name_of(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(n) => Some(n),
        _ => None,
    }
}

fn sort(text: &str, plain: Vec<Stmt>) -> Result<Parts, ExprError> {
    let lines = LineIndex::new(text);
    let mut p = Parts {
        coords: Vec::new(),
        mass_diag: Vec::new(),
        mass_entries: Vec::new(),
        forces: Vec::new(),
        constraints: Vec::new(),
        defines: Vec::new(),
        initials: Vec::new(),
        outputs: Vec::new(),
        last_mass: None,
    };
    let mut declared: HashMap<String, Span> = HashMap::new();
    let mut claim = |id: &Ident| -> Result<(), ExprError> {
        check_not_reserved(id)?;
        if let Some(at) = declared.get(&id.name) {
            return Err(ExprError::new(
                ErrorKind::Duplicate {
                    name: id.name.clone(),
                    what: "a name".into(),
                    line: lines.line(at.start),
                },
                id.span,
            ));
        }
        declared.insert(id.name.clone(), id.span);
        Ok(())
    };
    let mut unnamed = 0usize;
    for s in plain {
        match s {
            Stmt::Param { name, .. } => claim(&name)?,
            Stmt::Coordinates { items, .. } => {
                for (id, _) in items {
                    claim(&id)?;
                    p.coords.push(id);
                }
            }
            Stmt::Mass {
                entry,
                values,
                span,
                ..
            } => {
                p.last_mass = Some(span);
                match entry {
                    Some((r, c)) => {
                        let (Some(rn), Some(cn)) = (name_of(&r), name_of(&c)) else {
                            return Err(err(
                                "mass(a, b) names two coordinates, e.g. mass(x, φ) = m*L/2".into(),
                                r.span.to(c.span),
                            ));
                        };
                        let value = values
                            .into_iter()
                            .next()
                            .ok_or_else(|| err("mass(a, b) = … needs a value".into(), span))?;
                        p.mass_entries
                            .push((rn.into(), cn.into(), value, r.span.to(c.span)));
                    }
                    None => p.mass_diag.extend(values.into_iter().map(|v| {
                        let sp = v.span;
                        (v, sp)
                    })),
                }
            }
            Stmt::Force { target, value, .. } => match name_of(&target) {
                Some(n) => p.forces.push((n.into(), value)),
                None => {
                    return Err(err(
                        "a force acts on one coordinate: force y = -m*g".into(),
                        target.span,
                    ))
                }
            },
            Stmt::Constraint {
                name,
                lhs,
                rhs,
                span,
                ..
            } => {
                unnamed += 1;
                let name = match name {
                    Some((id, _)) => id.name,
                    None => format!("line {}", lines.line(span.start)),
                };
                if p.constraints.iter().any(|(n, _, _)| n == &name) {
                    return Err(err(format!("constraint \"{name}\" is named twice"), span));
                }
                let phi = super::symbolic::sub(lhs, rhs)?;
                p.constraints.push((name, phi, span));
            }
            Stmt::Define { name, value, .. } => {
                claim(&name)?;
                p.defines.push((name, value));
            }
            Stmt::Initial {
                name, order, value, ..
            } => p.initials.push((name, order, value)),
            Stmt::Output { name, value, .. } => {
                claim(&name)?;
                p.outputs.push((name, value));
            }
            Stmt::Equation { name, .. } => {
                return Err(err(
                    "a constrained system has no equations x' = …: give the forces with \
                     `force x = …` and the constraints with `constraint … = 0`"
                        .into(),
                    name.span,
                ))
            }
            Stmt::Event { name, .. } => {
                return Err(err(
                    "events are not available in a constrained system yet".into(),
                    name.span,
                ))
            }
        }
    }
    let _ = unnamed;
    Ok(p)
}

/// The text compiled into a constrained system with its description for the
/// formulations (catalogue entry, initial state made consistent, outputs).
pub fn describe(text: &str, overrides: &BTreeMap<String, f64>) -> Result<Description, OdeError> {
    // Bodies and joints become the textbook statements on their own lines.
    let rewritten = super::bodies::rewrite(text).map_err(|e| e.to_ode_error(text))?;
    let text = rewritten.as_str();
    let (statements, drawing) = take_draw_lines(text).map_err(|e| e.to_ode_error(text))?;
    let mut stmts = parse_text(&statements).map_err(|e| e.to_ode_error(text))?;
    stmts.extend(
        drawing
            .into_iter()
            .map(|(name, value, range)| Stmt::Output { name, value, range }),
    );
    let params: Vec<String> = stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Param { name, .. } => Some(name.name.clone()),
            _ => None,
        })
        .collect();
    for name in overrides.keys() {
        if !params.contains(name) {
            return Err(OdeError::UnknownParam {
                model: super::system::USER_MODEL_ID.into(),
                name: name.clone(),
                known: params.clone(),
            });
        }
        if !overrides[name].is_finite() {
            return Err(OdeError::NotFinite {
                what: format!("parameter {name}"),
            });
        }
    }
    compile(text, stmts, overrides).map_err(|e| match e {
        Built::Text(e) => e.to_ode_error(text),
        Built::Run(e) => e,
    })
}

enum Built {
    Text(ExprError),
    Run(OdeError),
}

impl From<ExprError> for Built {
    fn from(e: ExprError) -> Self {
        Built::Text(e)
    }
}

fn compile(
    text: &str,
    stmts: Vec<Stmt>,
    overrides: &BTreeMap<String, f64>,
) -> Result<Description, Built> {
    let raw = RawNames::new(&stmts);
    let (defaults, values) = defaults_and_values(text, &raw, overrides)?;
    let mut expander = raw.expander(text, &values);
    let param_names: Vec<Ident> = raw.params.iter().map(|(p, _)| (*p).clone()).collect();
    drop(raw);
    expander.collect_families(&stmts)?;
    let plain = expander.statements(stmts)?;
    let parts = sort(text, plain)?;
    let n = parts.coords.len();
    let m = parts.constraints.len();
    let whole = Span::new(0, text.len().min(1));
    if n == 0 {
        return Err(err(
            "declare the coordinates (coordinates x, y, φ) or the bodies \
             (body name: mass m, inertia J, at (x, y, φ))"
                .into(),
            parts.constraints.first().map_or(whole, |c| c.2),
        )
        .into());
    }
    if m == 0 {
        return Err(err(
            "a constrained system needs at least one constraint (constraint … = 0); \
             without constraints write the equations x'' = … instead"
                .into(),
            parts.coords[0].span,
        )
        .into());
    }
    if m > n {
        return Err(err(
            format!(
                "{m} constraints on {n} coordinates: at most one constraint per \
                 coordinate (this one is the {}th)",
                n + 1
            ),
            parts.constraints[n].2,
        )
        .into());
    }
    let coord_names: Vec<String> = parts.coords.iter().map(|c| c.name.clone()).collect();
    let index: HashMap<&str, usize> = coord_names
        .iter()
        .enumerate()
        .map(|(i, c)| (c.as_str(), i))
        .collect();
    // Definitions, inlined in order (each sees the ones above it).
    let mut defs: HashMap<String, Expr> = HashMap::new();
    for (name, value) in &parts.defines {
        let v = inline(value, &defs)?;
        defs.insert(name.name.clone(), v);
    }
    // Mass matrix.
    let zero = |span: Span| Expr::leaf(ExprKind::Num(0.0), span);
    let mut mass: Vec<Option<Expr>> = vec![None; n * n];
    if !parts.mass_diag.is_empty() && parts.mass_diag.len() != n {
        return Err(err(
            format!(
                "mass lists {} diagonal entries for {n} coordinates ({})",
                parts.mass_diag.len(),
                coord_names.join(", ")
            ),
            parts.last_mass.unwrap_or(whole),
        )
        .into());
    }
    for (i, (v, _)) in parts.mass_diag.iter().enumerate() {
        mass[i * n + i] = Some(inline(v, &defs)?);
    }
    for (r, c, v, span) in &parts.mass_entries {
        let (Some(&i), Some(&j)) = (index.get(r.as_str()), index.get(c.as_str())) else {
            let bad = if index.contains_key(r.as_str()) { c } else { r };
            return Err(err(format!("\"{bad}\" is not a coordinate"), *span).into());
        };
        let v = inline(v, &defs)?;
        mass[i * n + j] = Some(v.clone());
        mass[j * n + i] = Some(v);
    }
    if parts.mass_diag.is_empty() && parts.mass_entries.is_empty() {
        return Err(err(
            "give the mass matrix: mass m, m, J (its diagonal) or mass(a, b) = … entries".into(),
            parts.coords[0].span,
        )
        .into());
    }
    let mass: Vec<Expr> = mass
        .into_iter()
        .map(|e| e.unwrap_or_else(|| zero(parts.coords[0].span)))
        .collect();
    // Generalized forces.
    let mut q_force: Vec<Expr> = vec![zero(parts.coords[0].span); n];
    for (target, value) in &parts.forces {
        let Some(&i) = index.get(target.as_str()) else {
            return Err(err(
                format!(
                    "\"{target}\" is not a coordinate; the coordinates are {}",
                    coord_names.join(", ")
                ),
                value.span,
            )
            .into());
        };
        let f = std::mem::replace(&mut q_force[i], zero(value.span));
        q_force[i] = add(f, inline(value, &defs)?)?;
    }
    // Constraints and their exact derivatives.
    let velocity: Vec<String> = coord_names.iter().map(|c| format!("{c}'")).collect();
    let mut phi = Vec::with_capacity(m);
    for (name, e, span) in &parts.constraints {
        let e = inline(e, &defs)?;
        if let Some(v) = velocity.iter().find(|v| mentions(&e, v)) {
            return Err(err(
                format!(
                    "constraint \"{name}\" uses the velocity {v}; constraints are on the \
                     coordinates (and t) only"
                ),
                *span,
            )
            .into());
        }
        phi.push(e);
    }
    let mut phi_q = Vec::with_capacity(m * n);
    let mut phi_t = Vec::with_capacity(m);
    let mut gamma = Vec::with_capacity(m);
    let span_v = |i: usize| parts.coords[i].span;
    let vel = |i: usize| Expr::leaf(ExprKind::Name(velocity[i].clone()), span_v(i));
    for e in &phi {
        let row: Vec<Expr> = coord_names
            .iter()
            .map(|c| derivative(e, c))
            .collect::<Result<_, _>>()?;
        let et = derivative(e, "t")?;
        // Φ̇ = Φ_q q̇ + Φ_t; γ = −(∂Φ̇/∂q q̇ + ∂Φ̇/∂t) (the part of Φ̈ without q̈).
        let mut dot = et.clone();
        for (i, d) in row.iter().enumerate() {
            dot = add(dot, mul(d.clone(), vel(i))?)?;
        }
        let mut ddot = derivative(&dot, "t")?;
        for (i, c) in coord_names.iter().enumerate() {
            ddot = add(ddot, mul(derivative(&dot, c)?, vel(i))?)?;
        }
        gamma.push(neg(ddot)?);
        phi_q.extend(row);
        phi_t.push(et);
    }
    let rheonomic = phi_t.iter().any(|e| !matches!(e.kind, ExprKind::Num(0.0)));
    let time_dependent = rheonomic || q_force.iter().chain(&mass).any(|e| mentions(e, "t"));
    let mass_constant = !mass
        .iter()
        .any(|e| coord_names.iter().chain(&velocity).any(|c| mentions(e, c)));
    // The scope: t, coordinates, velocities, parameters.
    let mut scope = Scope::builtins();
    scope.bind("t", Binding::Input(0));
    for (p, v) in param_names.iter().zip(&values) {
        scope.bind(&p.name, Binding::Const(*v));
    }
    for (i, c) in coord_names.iter().enumerate() {
        scope.bind(c, Binding::Input(1 + i as u32));
        scope.bind(&velocity[i], Binding::Input(1 + (n + i) as u32));
    }
    let program = |exprs: &[&Expr]| -> Result<Program, ExprError> {
        let mut c = Compiler::new(&scope, &[], 2 * n);
        let vals: Vec<Val> = exprs.iter().map(|e| c.expr(e)).collect::<Result<_, _>>()?;
        Ok(Program::new(c.finish(&vals)))
    };
    let pos_exprs: Vec<&Expr> = phi.iter().chain(&phi_q).chain(&phi_t).collect();
    let acc_exprs: Vec<&Expr> = gamma.iter().chain(&q_force).chain(&mass).collect();
    let all_exprs: Vec<&Expr> = pos_exprs.iter().chain(&acc_exprs).copied().collect();
    let pos = program(&pos_exprs)?;
    let acc = program(&acc_exprs)?;
    let all = program(&all_exprs)?;
    let force = program(&q_force.iter().collect::<Vec<_>>())?;
    let inlined_outputs: Vec<Expr> = parts
        .outputs
        .iter()
        .map(|(_, e)| inline(e, &defs))
        .collect::<Result<_, _>>()?;
    let outputs = program(&inlined_outputs.iter().collect::<Vec<_>>())?;
    let system = TypedSystem {
        coords: coord_names.clone(),
        constraints: parts.constraints.iter().map(|c| c.0.clone()).collect(),
        n,
        m,
        rheonomic,
        time_dependent,
        mass_constant,
        pos,
        acc,
        all_pattern: Sparsity::analyse_outputs(all.tape()),
        all,
        force_pattern: Sparsity::analyse_outputs(force.tape()),
        force,
        #[cfg(feature = "full")]
        saddle: SaddlePattern::new(n, m, &nonzero(&phi_q, n), &nonzero(&mass, n)),
    };
    // Initial values: every coordinate's, velocities where given.
    let builtins = Scope::builtins();
    let mut init = Compiler::new(&builtins, &[], 0);
    for (p, v) in param_names.iter().zip(&values) {
        init.bind(&p.name, Binding::Const(*v));
    }
    let mut q0: Vec<Option<f64>> = vec![None; n];
    let mut qd0: Vec<Option<f64>> = vec![None; n];
    for (name, order, e) in &parts.initials {
        let Some(&i) = index.get(name.name.as_str()) else {
            return Err(err(
                format!(
                    "\"{}\" is not a coordinate; the coordinates are {}",
                    name.name,
                    coord_names.join(", ")
                ),
                name.span,
            )
            .into());
        };
        let v = require_finite(
            format!("the initial value of {}", name.name),
            init.constant(e)?,
            e.span,
        )?;
        let slot = if *order == 0 { &mut q0[i] } else { &mut qd0[i] };
        *slot = Some(v);
    }
    if let Some(i) = q0.iter().position(|v| v.is_none()) {
        return Err(ExprError::new(
            ErrorKind::NoInitialValue {
                name: coord_names[i].clone(),
            },
            parts.coords[i].span,
        )
        .into());
    }
    let q0: Vec<f64> = q0.into_iter().map(|v| v.unwrap_or(0.0)).collect();
    let t0 = 0.0;
    let consistent =
        crate::multibody::consistent::make_consistent(&system, t0, q0, &qd0).map_err(Built::Run)?;
    let named_outputs: Vec<String> = parts.outputs.iter().map(|(o, _)| o.name.clone()).collect();
    let mut names = coord_names.clone();
    names.extend(velocity.iter().cloned());
    let native = ModelInfo {
        id: super::system::USER_MODEL_ID.into(),
        name: "Your mechanism".into(),
        dim: 2 * n,
        names,
        params: param_names
            .iter()
            .zip(&defaults)
            .map(|(p, v)| ParamInfo::new(&p.name, *v, "", ""))
            .collect(),
        y0: consistent.q.iter().chain(&consistent.qd).copied().collect(),
        t1: super::system::USER_T1,
        source: format!("your mechanism{}", consistent.note(&coord_names)),
        outputs: named_outputs.clone(),
        second_order: true,
        formulations: ["augmented", "state-space", "index-3"]
            .map(String::from)
            .to_vec(),
        ..ModelInfo::default()
    };
    Ok(Description {
        native,
        system: Box::new(system),
        mechanism: None,
        multipliers: true,
        q0: consistent.q,
        qd0: consistent.qd,
        independent: None,
        named_outputs,
        named: Box::new(move |t, q, qd, out| {
            let y: Vec<f64> = q.iter().chain(qd).copied().collect();
            outputs.eval(t, &y, out);
        }),
    })
}
