//! Expansion of indexed families, ranges, sums and derivatives into plain statements,
//! once the parameter values are known (array sizes are parameters).
//!
//! `u[i]' = D*(u[i-1] - 2*u[i] + u[i+1]) for i = 1..N` becomes N equations for the states
//! named `u[1]` … `u[N]`; `u[0] = 0` becomes a definition named `u[0]`; an element
//! reference `u[i-1]` becomes the name `u[k]` (names with brackets cannot be typed, so
//! they never clash with the student's); `sum(e for j = a..b)` becomes a balanced tree of
//! additions (its height grows as log₂ of the number of terms, so a sum over 2,000 cells
//! stays within [`super::MAX_HEIGHT`]); a derivative `a'` becomes the name `a'`, which the
//! system binds to the state `a'` of a second-order equation or to a's right-hand side.
//!
//! Indices and range bounds are integer expressions of parameters and enclosing range
//! variables. A family's elements are the states and definitions its statements declare;
//! a reference outside them is an error located at the reference ("u[N+2] is outside
//! u[0..N+1]"). Every expanded node keeps the span of the text it came from, so later
//! errors (unknown names, clashes) point into the template line.
//!
//! Budgets: at most [`MAX_ELEMENTS`] elements per family and [`MAX_NODES`] expanded
//! syntax nodes per system, so a large N fails with a message, not by exhausting memory.

use super::compile::{Binding, Compiler, Scope};
use super::error::{ErrorKind, ExprError};
use super::lexer::Span;
use super::parser::{visit_names, BinOp, Expr, ExprKind, Ident, Range, Stmt};
use std::collections::{BTreeSet, HashMap};

/// Most elements of one indexed family (states and definitions together).
pub const MAX_ELEMENTS: usize = 100_000;
/// Most syntax nodes the expansion of one system may create.
pub const MAX_NODES: usize = 2_000_000;

/// The declared elements of one indexed family, with how the text writes its extremes.
#[derive(Debug, Clone, Default)]
struct Family {
    elements: BTreeSet<i64>,
    /// Text of the lowest and highest element's index (`0`, `N+1`).
    lo: (i64, String),
    hi: (i64, String),
}

impl Family {
    fn add(&mut self, k: i64, text: impl Fn() -> String) {
        if self.elements.is_empty() || k < self.lo.0 {
            self.lo = (k, text());
        }
        if self.elements.is_empty() || k > self.hi.0 {
            self.hi = (k, text());
        }
        self.elements.insert(k);
    }
}

/// The state of an expansion: parameter values, families and the range variables in
/// scope.
#[derive(Debug, Clone)]
pub struct Expander {
    src: String,
    /// Built-in constants, parameters, and hidden names, for evaluating indices.
    scope: Scope,
    families: HashMap<String, Family>,
    /// Range variables in scope, innermost last.
    vars: Vec<(String, i64)>,
    nodes: usize,
    /// The parameters bound, and those an index or a range bound has read: they decide
    /// the expanded statements (a system compiled for them holds for any value of the
    /// others).
    params: BTreeSet<String>,
    read: BTreeSet<String>,
}

impl Expander {
    /// An expander over `src` (the text spans point into), with no parameters yet.
    pub fn new(src: &str) -> Self {
        Self {
            src: src.to_string(),
            scope: Scope::builtins(),
            families: HashMap::new(),
            vars: Vec::new(),
            nodes: 0,
            params: BTreeSet::new(),
            read: BTreeSet::new(),
        }
    }

    /// The parameters an index or a range bound has read so far.
    pub fn params_read(&self) -> &BTreeSet<String> {
        &self.read
    }

    /// Makes parameter `name` usable in indices and bounds.
    pub fn bind_param(&mut self, name: &str, value: f64) {
        self.scope.bind(name, Binding::Const(value));
        self.params.insert(name.to_string());
    }

    /// Marks `name` as existing but not usable in an index, and why.
    pub fn hide(&mut self, name: &str, reason: String) {
        self.scope.bind(name, Binding::Hidden(reason));
        self.params.remove(name);
    }

    fn text(&self, span: Span) -> String {
        self.src
            .get(span.start..span.end)
            .unwrap_or("")
            .split_whitespace()
            .collect()
    }

    fn count(&mut self, span: Span) -> Result<(), ExprError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(ExprError::new(
                ErrorKind::TooLarge {
                    what: "the expanded system".into(),
                    limit: MAX_NODES,
                    unit: "operations; use a definition for a sum every equation shares".into(),
                },
                span,
            ));
        }
        Ok(())
    }

    /// The value of an integer expression of parameters and range variables.
    fn int(&mut self, e: &Expr, what: &str) -> Result<i64, ExprError> {
        let plain = self.expr(e)?;
        visit_names(&plain, &mut |n| {
            if self.params.contains(n) {
                self.read.insert(n.to_string());
            }
        });
        let mut c = Compiler::new(&self.scope, &[], 0);
        let v = c.constant(&plain)?;
        if v.fract() != 0.0 || !v.is_finite() || v.abs() > 1e15 {
            return Err(ExprError::new(
                ErrorKind::NotAnInteger {
                    what: what.into(),
                    value: v,
                },
                e.span,
            ));
        }
        Ok(v as i64)
    }

    /// The integers of a range, refused beyond [`MAX_ELEMENTS`].
    fn bounds(&mut self, r: &Range) -> Result<(i64, i64), ExprError> {
        let a = self.int(&r.from, "a range bound")?;
        let b = self.int(&r.to, "a range bound")?;
        if b >= a && (b - a) as u64 >= MAX_ELEMENTS as u64 {
            return Err(ExprError::new(
                ErrorKind::TooLarge {
                    what: format!(
                        "the range {}..{} ({a}..{b})",
                        self.text(r.from.span),
                        self.text(r.to.span)
                    ),
                    limit: MAX_ELEMENTS,
                    unit: "elements".into(),
                },
                r.from.span.to(r.to.span),
            ));
        }
        Ok((a, b))
    }

    /// Calls `each(k)` for the element index of every value of the range (or once for a
    /// statement without a range), with the range variable bound.
    fn for_each_element(
        &mut self,
        index: &Expr,
        range: Option<&Range>,
        mut each: impl FnMut(&mut Self, i64, i64) -> Result<(), ExprError>,
    ) -> Result<(), ExprError> {
        let Some(r) = range else {
            let k = self.int(index, "an index")?;
            return each(self, k, k);
        };
        let (a, b) = self.bounds(r)?;
        for v in a..=b {
            self.vars.push((r.var.name.clone(), v));
            let k = self.int(index, "an index");
            let out = k.and_then(|k| each(self, k, v));
            self.vars.pop();
            out?;
        }
        Ok(())
    }

    /// Records the elements the equations and definitions of `stmts` declare, and
    /// refuses plain names that clash with a family.
    pub fn collect_families(&mut self, stmts: &[Stmt]) -> Result<(), ExprError> {
        for s in stmts {
            if let Stmt::Coordinates { items, range } = s {
                for (name, index) in items {
                    if let Some(index) = index {
                        self.collect_family(name, index, range.as_ref())?;
                    }
                }
                continue;
            }
            let (name, index, range) = match s {
                Stmt::Equation {
                    name,
                    index: Some(index),
                    range,
                    ..
                }
                | Stmt::Define {
                    name,
                    index: Some(index),
                    range,
                    ..
                } => (name, index, range.as_ref()),
                _ => continue,
            };
            let mut fam = self.families.remove(&name.name).unwrap_or_default();
            // How the text writes an element: `u[i] … for i = 1..N` has extremes `1` and
            // `N`; `u[N+1] = 0` has `N+1`; others are numbers.
            let bare = match range {
                Some(r) if matches!(&index.kind, ExprKind::Name(n) if n == &r.var.name) => {
                    let (a, b) = self.bounds(r)?;
                    Some((a, self.text(r.from.span), b, self.text(r.to.span)))
                }
                _ => None,
            };
            let single = range.is_none().then(|| self.text(index.span));
            let result = self.for_each_element(index, range, |_, k, _| {
                let text = || match (&bare, &single) {
                    (Some((a, ta, _, _)), _) if k == *a => ta.clone(),
                    (Some((_, _, b, tb)), _) if k == *b => tb.clone(),
                    (_, Some(t)) => t.clone(),
                    _ => k.to_string(),
                };
                fam.add(k, text);
                if fam.elements.len() > MAX_ELEMENTS {
                    return Err(ExprError::new(
                        ErrorKind::TooLarge {
                            what: format!("the family {}", name.name),
                            limit: MAX_ELEMENTS,
                            unit: "elements".into(),
                        },
                        name.span,
                    ));
                }
                Ok(())
            });
            self.families.insert(name.name.clone(), fam);
            result?;
        }
        let first_line = |name: &str| {
            stmts.iter().find_map(|s| match s {
                Stmt::Equation {
                    name: n,
                    index: Some(_),
                    ..
                }
                | Stmt::Define {
                    name: n,
                    index: Some(_),
                    ..
                } if n.name == name => Some(n.span.start),
                _ => None,
            })
        };
        for s in stmts {
            let plain = match s {
                Stmt::Param { name, .. } | Stmt::Output { name, .. } => Some(name),
                Stmt::Equation {
                    name, index: None, ..
                }
                | Stmt::Define {
                    name, index: None, ..
                } => Some(name),
                _ => None,
            };
            if let Some(name) = plain.filter(|n| self.families.contains_key(&n.name)) {
                let at = first_line(&name.name).unwrap_or(0);
                let line = self.src[..at.min(self.src.len())].matches('\n').count() + 1;
                return Err(ExprError::new(
                    ErrorKind::Duplicate {
                        name: name.name.clone(),
                        what: "an indexed family".into(),
                        line,
                    },
                    name.span,
                ));
            }
        }
        Ok(())
    }

    /// Records the elements of one indexed coordinate family (as the loop above does for
    /// equations and definitions).
    fn collect_family(
        &mut self,
        name: &Ident,
        index: &Expr,
        range: Option<&Range>,
    ) -> Result<(), ExprError> {
        let mut fam = self.families.remove(&name.name).unwrap_or_default();
        let result = self.for_each_element(index, range, |ex, k, _| {
            let text = ex.text(index.span);
            fam.add(k, || {
                if range.is_some() {
                    k.to_string()
                } else {
                    text.clone()
                }
            });
            if fam.elements.len() > MAX_ELEMENTS {
                return Err(ExprError::new(
                    ErrorKind::TooLarge {
                        what: format!("the family {}", name.name),
                        limit: MAX_ELEMENTS,
                        unit: "elements".into(),
                    },
                    name.span,
                ));
            }
            Ok(())
        });
        self.families.insert(name.name.clone(), fam);
        result
    }

    /// Calls `each` once per value of `range` (with its variable bound), or once.
    fn each_value(
        &mut self,
        range: Option<&Range>,
        mut each: impl FnMut(&mut Self) -> Result<(), ExprError>,
    ) -> Result<(), ExprError> {
        let Some(r) = range else {
            return each(self);
        };
        let (a, b) = self.bounds(r)?;
        for v in a..=b {
            self.vars.push((r.var.name.clone(), v));
            let out = each(self);
            self.vars.pop();
            out?;
        }
        Ok(())
    }

    /// The names of the families, for hiding them where they cannot be used.
    pub fn family_names(&self) -> impl Iterator<Item = &str> {
        self.families.keys().map(String::as_str)
    }

    /// The name of element `k` of `name`, checked to be declared.
    fn element(
        &self,
        name: &str,
        name_span: Span,
        index: &Expr,
        k: i64,
        at: Span,
    ) -> Result<String, ExprError> {
        let Some(fam) = self.families.get(name) else {
            return Err(ExprError::new(
                ErrorKind::NotAFamily { name: name.into() },
                name_span,
            ));
        };
        if k < fam.lo.0 || k > fam.hi.0 {
            return Err(ExprError::new(
                ErrorKind::OutOfRange {
                    name: name.into(),
                    index: self.text(index.span),
                    value: k,
                    lo: fam.lo.1.clone(),
                    hi: fam.hi.1.clone(),
                },
                at,
            ));
        }
        if !fam.elements.contains(&k) {
            return Err(ExprError::new(
                ErrorKind::MissingElement {
                    name: name.into(),
                    value: k,
                },
                at,
            ));
        }
        Ok(element_name(name, k))
    }

    /// `e` with range variables replaced by their values, elements and derivatives by
    /// names, and sums by additions.
    pub fn expr(&mut self, e: &Expr) -> Result<Expr, ExprError> {
        self.count(e.span)?;
        let kind = match &e.kind {
            ExprKind::Num(_) => return Ok(e.clone()),
            ExprKind::Name(n) => {
                return Ok(match self.vars.iter().rev().find(|(v, _)| v == n) {
                    Some(&(_, value)) => Expr::leaf(ExprKind::Num(value as f64), e.span),
                    None => e.clone(),
                })
            }
            ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(self.expr(a)?)),
            ExprKind::Binary(op, a, b) => {
                ExprKind::Binary(*op, Box::new(self.expr(a)?), Box::new(self.expr(b)?))
            }
            ExprKind::Call {
                name,
                name_span,
                args,
            } => ExprKind::Call {
                name: name.clone(),
                name_span: *name_span,
                args: args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Result<_, _>>()?,
            },
            ExprKind::Cond(c, a, b) => ExprKind::Cond(
                Box::new(self.expr(c)?),
                Box::new(self.expr(a)?),
                Box::new(self.expr(b)?),
            ),
            ExprKind::Index {
                name,
                name_span,
                index,
            } => {
                let k = self.int(index, "an index")?;
                ExprKind::Name(self.element(name, *name_span, index, k, e.span)?)
            }
            ExprKind::Deriv {
                name,
                name_span,
                index,
                order,
            } => {
                let base = match index {
                    Some(index) => {
                        let k = self.int(index, "an index")?;
                        self.element(name, *name_span, index, k, e.span)?
                    }
                    None => name.clone(),
                };
                ExprKind::Name(format!("{base}{}", "'".repeat(usize::from(*order))))
            }
            ExprKind::Sum { body, range } => return self.sum(body, range, e.span),
        };
        Expr::node(kind, e.span)
    }

    fn sum(&mut self, body: &Expr, range: &Range, span: Span) -> Result<Expr, ExprError> {
        let (a, b) = self.bounds(range)?;
        let mut terms = Vec::new();
        for v in a..=b {
            self.vars.push((range.var.name.clone(), v));
            let term = self.expr(body);
            self.vars.pop();
            terms.push(term?);
        }
        // Pairwise: ((t1 + t2) + (t3 + t4)) + …, a tree of height log₂(terms).
        while terms.len() > 1 {
            let mut next = Vec::with_capacity(terms.len().div_ceil(2));
            let mut it = terms.into_iter();
            while let Some(x) = it.next() {
                match it.next() {
                    Some(y) => next.push(Expr::node(
                        ExprKind::Binary(BinOp::Add, Box::new(x), Box::new(y)),
                        span,
                    )?),
                    None => next.push(x),
                }
            }
            terms = next;
        }
        Ok(terms
            .pop()
            .unwrap_or_else(|| Expr::leaf(ExprKind::Num(0.0), span)))
    }

    /// `name` or `name[k]` for one instance of a statement, spanning the name and index.
    fn instance(&self, name: &Ident, index: &Option<Expr>, k: i64) -> Ident {
        match index {
            Some(i) => {
                // Through the closing bracket.
                let close = self.src.get(i.span.end..).and_then(|r| r.find(']'));
                let end = close.map_or(i.span.end, |c| i.span.end + c + 1);
                Ident {
                    name: element_name(&name.name, k),
                    span: name.span.to(Span::new(end, end)),
                }
            }
            None => name.clone(),
        }
    }

    /// Every instance of a statement about `name[index]` over `range`: `make(ex, ident)`
    /// builds one with the range variable bound.
    fn instances(
        &mut self,
        name: &Ident,
        index: &Option<Expr>,
        range: &Option<Range>,
        out: &mut Vec<Stmt>,
        make: impl Fn(&mut Self, Ident) -> Result<Stmt, ExprError>,
    ) -> Result<(), ExprError> {
        match index {
            None => {
                let s = make(self, name.clone())?;
                out.push(s);
                Ok(())
            }
            Some(i) => self.for_each_element(i, range.as_ref(), |ex, k, _| {
                let id = ex.instance(name, index, k);
                let s = make(ex, id)?;
                out.push(s);
                Ok(())
            }),
        }
    }

    /// The plain statements of `stmts` (no indices, ranges, sums or derivative syntax);
    /// parameters are kept as they are (their values are computed before).
    pub fn statements(&mut self, stmts: Vec<Stmt>) -> Result<Vec<Stmt>, ExprError> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            match s {
                Stmt::Param { .. } => out.push(s),
                Stmt::Equation {
                    name,
                    index,
                    order,
                    rhs,
                    range,
                } => self.instances(&name, &index, &range, &mut out, |ex, id| {
                    Ok(Stmt::Equation {
                        name: id,
                        index: None,
                        order,
                        rhs: ex.expr(&rhs)?,
                        range: None,
                    })
                })?,
                Stmt::Initial {
                    name,
                    index,
                    order,
                    value,
                    range,
                } => self.instances(&name, &index, &range, &mut out, |ex, id| {
                    Ok(Stmt::Initial {
                        name: id,
                        index: None,
                        order,
                        value: ex.expr(&value)?,
                        range: None,
                    })
                })?,
                Stmt::Define {
                    name,
                    index,
                    value,
                    range,
                } => self.instances(&name, &index, &range, &mut out, |ex, id| {
                    Ok(Stmt::Define {
                        name: id,
                        index: None,
                        value: ex.expr(&value)?,
                        range: None,
                    })
                })?,
                Stmt::Output { name, value, range } => self.each_value(range.as_ref(), |ex| {
                    let name = match (&range, ex.vars.last()) {
                        (Some(_), Some((_, k))) => Ident {
                            name: super::draw::element_output(&name.name, *k),
                            span: name.span,
                        },
                        _ => name.clone(),
                    };
                    out.push(Stmt::Output {
                        name,
                        value: ex.expr(&value)?,
                        range: None,
                    });
                    Ok(())
                })?,
                Stmt::Event {
                    name,
                    expr,
                    direction,
                    terminal,
                } => out.push(Stmt::Event {
                    name,
                    expr: self.expr(&expr)?,
                    direction,
                    terminal,
                }),
                Stmt::Coordinates { items, range } => self.each_value(range.as_ref(), |ex| {
                    for (name, index) in &items {
                        let id = match index {
                            Some(i) => {
                                let k = ex.int(i, "an index")?;
                                ex.instance(name, index, k)
                            }
                            None => name.clone(),
                        };
                        out.push(Stmt::Coordinates {
                            items: vec![(id, None)],
                            range: None,
                        });
                    }
                    Ok(())
                })?,
                Stmt::Mass {
                    entry,
                    values,
                    range,
                    span,
                } => self.each_value(range.as_ref(), |ex| {
                    let entry = match &entry {
                        Some((r, c)) => Some((ex.expr(r)?, ex.expr(c)?)),
                        None => None,
                    };
                    let values = values
                        .iter()
                        .map(|v| ex.expr(v))
                        .collect::<Result<_, _>>()?;
                    out.push(Stmt::Mass {
                        entry,
                        values,
                        range: None,
                        span,
                    });
                    Ok(())
                })?,
                Stmt::Force {
                    target,
                    value,
                    range,
                } => self.each_value(range.as_ref(), |ex| {
                    out.push(Stmt::Force {
                        target: ex.expr(&target)?,
                        value: ex.expr(&value)?,
                        range: None,
                    });
                    Ok(())
                })?,
                Stmt::Constraint {
                    name,
                    lhs,
                    rhs,
                    range,
                    span,
                } => self.each_value(range.as_ref(), |ex| {
                    let name = match &name {
                        Some((id, Some(i))) => {
                            let k = ex.int(i, "an index")?;
                            Some((ex.instance(id, &Some(i.clone()), k), None))
                        }
                        other => other.clone(),
                    };
                    out.push(Stmt::Constraint {
                        name,
                        lhs: ex.expr(&lhs)?,
                        rhs: ex.expr(&rhs)?,
                        range: None,
                        span,
                    });
                    Ok(())
                })?,
            }
        }
        Ok(out)
    }
}

/// The name of element k of a family: `u[3]`.
pub fn element_name(family: &str, k: i64) -> String {
    format!("{family}[{k}]")
}
