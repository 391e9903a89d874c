//! Symbolic differentiation of expanded syntax trees (no indices, sums or derivative
//! syntax left, definitions inlined): d(e)/d(name) as a new tree, simplified only where
//! a factor is the literal 0 or 1, so the compiler (constant folding, shared
//! instructions) sees small trees. The constrained systems of `super::constrained` take
//! Φ_q, Φ_t and γ = −(Φ_q q̇)_q q̇ − 2Φ_qt q̇ − Φ_tt from here, exactly; the tape's
//! forward-mode AD (`super::diff`) then gives one more derivative (∂γ/∂q, ∂Φ_q/∂q).
//!
//! The derivative of a non-smooth operation is the active branch's, as in
//! `super::diff`: abs′ = sign, sign′ = 0, min/max and conditionals follow the chosen
//! argument, comparisons and logic have derivative 0.

use super::error::ExprError;
use super::lexer::Span;
use super::parser::{BinOp, Expr, ExprKind, UnOp};

fn num(x: f64, span: Span) -> Expr {
    Expr::leaf(ExprKind::Num(x), span)
}

fn is_num(e: &Expr, x: f64) -> bool {
    matches!(e.kind, ExprKind::Num(v) if v == x)
}

/// a + b with 0 dropped.
pub fn add(a: Expr, b: Expr) -> Result<Expr, ExprError> {
    if is_num(&a, 0.0) {
        return Ok(b);
    }
    if is_num(&b, 0.0) {
        return Ok(a);
    }
    let span = a.span.to(b.span);
    Expr::node(ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)), span)
}

/// a − b with 0 dropped.
pub fn sub(a: Expr, b: Expr) -> Result<Expr, ExprError> {
    if is_num(&b, 0.0) {
        return Ok(a);
    }
    if is_num(&a, 0.0) {
        return neg(b);
    }
    let span = a.span.to(b.span);
    Expr::node(ExprKind::Binary(BinOp::Sub, Box::new(a), Box::new(b)), span)
}

/// a · b with 0 and 1 simplified.
pub fn mul(a: Expr, b: Expr) -> Result<Expr, ExprError> {
    if is_num(&a, 0.0) || is_num(&b, 0.0) {
        return Ok(num(0.0, a.span.to(b.span)));
    }
    if is_num(&a, 1.0) {
        return Ok(b);
    }
    if is_num(&b, 1.0) {
        return Ok(a);
    }
    let span = a.span.to(b.span);
    Expr::node(ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b)), span)
}

fn div(a: Expr, b: Expr) -> Result<Expr, ExprError> {
    if is_num(&a, 0.0) {
        return Ok(a);
    }
    if is_num(&b, 1.0) {
        return Ok(a);
    }
    let span = a.span.to(b.span);
    Expr::node(ExprKind::Binary(BinOp::Div, Box::new(a), Box::new(b)), span)
}

/// −a (a literal is negated in place).
pub fn neg(a: Expr) -> Result<Expr, ExprError> {
    if let ExprKind::Num(x) = a.kind {
        return Ok(num(-x, a.span));
    }
    let span = a.span;
    Expr::node(ExprKind::Unary(UnOp::Neg, Box::new(a)), span)
}

fn call(name: &str, args: Vec<Expr>, span: Span) -> Result<Expr, ExprError> {
    Expr::node(
        ExprKind::Call {
            name: name.into(),
            name_span: span,
            args,
        },
        span,
    )
}

fn pow(a: Expr, b: Expr) -> Result<Expr, ExprError> {
    let span = a.span.to(b.span);
    Expr::node(ExprKind::Binary(BinOp::Pow, Box::new(a), Box::new(b)), span)
}

/// Whether `e` mentions `name`.
pub fn mentions(e: &Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Num(_) => false,
        ExprKind::Name(n) => n == name,
        ExprKind::Unary(_, a) => mentions(a, name),
        ExprKind::Binary(_, a, b) => mentions(a, name) || mentions(b, name),
        ExprKind::Call { args, .. } => args.iter().any(|a| mentions(a, name)),
        ExprKind::Cond(c, a, b) => mentions(c, name) || mentions(a, name) || mentions(b, name),
        // Expanded trees have none of these left.
        ExprKind::Index { .. } | ExprKind::Deriv { .. } | ExprKind::Sum { .. } => true,
    }
}

/// d(e)/d(var).
pub fn derivative(e: &Expr, var: &str) -> Result<Expr, ExprError> {
    let span = e.span;
    if !mentions(e, var) {
        return Ok(num(0.0, span));
    }
    match &e.kind {
        ExprKind::Num(_) => Ok(num(0.0, span)),
        ExprKind::Name(n) => Ok(num(if n == var { 1.0 } else { 0.0 }, span)),
        ExprKind::Unary(UnOp::Neg, a) => neg(derivative(a, var)?),
        ExprKind::Unary(UnOp::Not, _) => Ok(num(0.0, span)),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (a.as_ref(), b.as_ref());
            match op {
                BinOp::Add => add(derivative(a, var)?, derivative(b, var)?),
                BinOp::Sub => sub(derivative(a, var)?, derivative(b, var)?),
                BinOp::Mul => add(
                    mul(derivative(a, var)?, b.clone())?,
                    mul(a.clone(), derivative(b, var)?)?,
                ),
                BinOp::Div => {
                    // a′/b − a b′/b²
                    let first = div(derivative(a, var)?, b.clone())?;
                    let db = derivative(b, var)?;
                    if is_num(&db, 0.0) {
                        return Ok(first);
                    }
                    let second = div(mul(a.clone(), db)?, pow(b.clone(), num(2.0, span))?)?;
                    sub(first, second)
                }
                BinOp::Pow => {
                    let da = derivative(a, var)?;
                    if !mentions(b, var) {
                        // b a^(b−1) a′
                        let reduced = match b.kind {
                            ExprKind::Num(x) => num(x - 1.0, b.span),
                            _ => sub(b.clone(), num(1.0, span))?,
                        };
                        let inner = if is_num(&reduced, 1.0) {
                            a.clone()
                        } else {
                            pow(a.clone(), reduced)?
                        };
                        return mul(mul(b.clone(), inner)?, da);
                    }
                    // a^b (b′ ln a + b a′/a)
                    let db = derivative(b, var)?;
                    let log = call("log", vec![a.clone()], span)?;
                    let rate = add(mul(db, log)?, div(mul(b.clone(), da)?, a.clone())?)?;
                    mul(e.clone(), rate)
                }
                _ => Ok(num(0.0, span)),
            }
        }
        ExprKind::Cond(c, a, b) => Expr::node(
            ExprKind::Cond(
                c.clone(),
                Box::new(derivative(a, var)?),
                Box::new(derivative(b, var)?),
            ),
            span,
        ),
        ExprKind::Call { name, args, .. } => call_derivative(name, args, var, span),
        ExprKind::Index { .. } | ExprKind::Deriv { .. } | ExprKind::Sum { .. } => {
            Ok(num(f64::NAN, span))
        }
    }
}

fn call_derivative(name: &str, args: &[Expr], var: &str, span: Span) -> Result<Expr, ExprError> {
    let arg = |i: usize| args.get(i).cloned().unwrap_or_else(|| num(f64::NAN, span));
    let d = |i: usize| derivative(&arg(i), var);
    let one = || num(1.0, span);
    let f = |n: &str, x: Expr| call(n, vec![x], span);
    let square = |x: Expr| pow(x, num(2.0, span));
    let chain = |outer: Expr| -> Result<Expr, ExprError> { mul(outer, d(0)?) };
    match name {
        "sin" => chain(f("cos", arg(0))?),
        "cos" => chain(neg(f("sin", arg(0))?)?),
        "tan" => chain(add(one(), square(f("tan", arg(0))?)?)?),
        "asin" => chain(div(one(), f("sqrt", sub(one(), square(arg(0))?)?)?)?),
        "acos" => chain(neg(div(one(), f("sqrt", sub(one(), square(arg(0))?)?)?)?)?),
        "atan" => chain(div(one(), add(one(), square(arg(0))?)?)?),
        "exp" => chain(f("exp", arg(0))?),
        "log" => div(d(0)?, arg(0)),
        "sqrt" => div(d(0)?, mul(num(2.0, span), f("sqrt", arg(0))?)?),
        "abs" => chain(f("sign", arg(0))?),
        "sinh" => chain(f("cosh", arg(0))?),
        "cosh" => chain(f("sinh", arg(0))?),
        "tanh" => chain(sub(one(), square(f("tanh", arg(0))?)?)?),
        "sign" => Ok(num(0.0, span)),
        "atan2" => {
            // atan2(y, x)′ = (x y′ − y x′)/(x² + y²)
            let (y, x) = (arg(0), arg(1));
            let top = sub(mul(x.clone(), d(0)?)?, mul(y.clone(), d(1)?)?)?;
            div(top, add(square(x)?, square(y)?)?)
        }
        "min" | "max" => {
            let op = if name == "min" { BinOp::Le } else { BinOp::Ge };
            let c = Expr::node(
                ExprKind::Binary(op, Box::new(arg(0)), Box::new(arg(1))),
                span,
            )?;
            Expr::node(
                ExprKind::Cond(Box::new(c), Box::new(d(0)?), Box::new(d(1)?)),
                span,
            )
        }
        "if" => Expr::node(
            ExprKind::Cond(Box::new(arg(0)), Box::new(d(1)?), Box::new(d(2)?)),
            span,
        ),
        // Unknown names are reported by the compiler, with their place.
        _ => Ok(num(f64::NAN, span)),
    }
}

/// `e` with every name in `defs` replaced by its (already inlined) tree.
pub fn inline(e: &Expr, defs: &std::collections::HashMap<String, Expr>) -> Result<Expr, ExprError> {
    let kind = match &e.kind {
        ExprKind::Name(n) => {
            return Ok(match defs.get(n) {
                Some(d) => d.clone(),
                None => e.clone(),
            })
        }
        ExprKind::Num(_)
        | ExprKind::Index { .. }
        | ExprKind::Deriv { .. }
        | ExprKind::Sum { .. } => return Ok(e.clone()),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(inline(a, defs)?)),
        ExprKind::Binary(op, a, b) => {
            ExprKind::Binary(*op, Box::new(inline(a, defs)?), Box::new(inline(b, defs)?))
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
                .map(|a| inline(a, defs))
                .collect::<Result<_, _>>()?,
        },
        ExprKind::Cond(c, a, b) => ExprKind::Cond(
            Box::new(inline(c, defs)?),
            Box::new(inline(a, defs)?),
            Box::new(inline(b, defs)?),
        ),
    };
    Expr::node(kind, e.span)
}
