//! The stability function R(z) of a user's tableau, in a form the page renders as a
//! formula: coefficient arrays and a plain-text and a TeX string.
//!
//! Explicit tableaux: R(z) = Σ_{k=0}^{s} γ_k z^k with γ_0 = 1 and γ_k = bᵀA^{k−1}1
//! (Hairer–Wanner II, §IV.2, eq. (2.9); the Neumann series of 1 + z bᵀ(I − zA)⁻¹1,
//! finite because A is nilpotent), exact when A and b are fractions. Diagonally
//! implicit tableaux: R = N/D from `crate::stability::rational` (the same function the
//! stability map draws), in floating point.

use super::exact::Frac;
use super::spec::ButcherTableau;
use crate::error::num;
use crate::stability::rational::Rational;
use serde::Serialize;

/// R(z) = N(z)/D(z), coefficients in ascending powers of z.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StabilityFunction {
    pub numerator: Vec<f64>,
    /// `[1]` for explicit methods.
    pub denominator: Vec<f64>,
    /// The numerator's coefficients as exact fractions ("1/24"), when A and b are exact
    /// and the method is explicit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numerator_exact: Option<Vec<String>>,
    /// e.g. "1 + z + z^2/2 + z^3/6 + z^4/24".
    pub text: String,
    /// e.g. "1 + z + \frac{z^2}{2} + \frac{z^3}{6} + \frac{z^4}{24}".
    pub tex: String,
}

/// A coefficient: exact, or a float.
#[derive(Debug, Clone, Copy)]
enum Coef {
    Exact(Frac),
    Float(f64),
}

impl Coef {
    fn is_zero(self) -> bool {
        match self {
            Coef::Exact(f) => f.is_zero(),
            Coef::Float(x) => x == 0.0,
        }
    }

    fn negative(self) -> bool {
        match self {
            Coef::Exact(f) => f.num < 0,
            Coef::Float(x) => x < 0.0,
        }
    }

    fn abs(self) -> Coef {
        match self {
            Coef::Exact(f) => Coef::Exact(Frac {
                num: f.num.saturating_abs(),
                den: f.den,
            }),
            Coef::Float(x) => Coef::Float(x.abs()),
        }
    }
}

fn power(k: usize, tex: bool) -> String {
    match (k, tex) {
        (0, _) => String::new(),
        (1, _) => "z".into(),
        (_, true) => format!("z^{{{k}}}"),
        (_, false) => format!("z^{k}"),
    }
}

/// |c| z^k, for a positive coefficient.
fn monomial(c: Coef, k: usize, tex: bool) -> String {
    let zk = power(k, tex);
    let (n, d): (String, Option<String>) = match c {
        Coef::Exact(f) if f.den == 1 => (f.num.to_string(), None),
        Coef::Exact(f) => (f.num.to_string(), Some(f.den.to_string())),
        Coef::Float(x) => (num(x), None),
    };
    if k == 0 {
        return match (d, tex) {
            (None, _) => n,
            (Some(d), true) => format!("\\frac{{{n}}}{{{d}}}"),
            (Some(d), false) => format!("{n}/{d}"),
        };
    }
    let numer = if n == "1" { zk } else { format!("{n} {zk}") };
    match (d, tex) {
        (None, _) => numer,
        (Some(d), true) => format!("\\frac{{{numer}}}{{{d}}}"),
        (Some(d), false) => format!("{numer}/{d}"),
    }
}

fn polynomial(coefs: &[Coef], tex: bool) -> String {
    let mut out = String::new();
    for (k, &c) in coefs.iter().enumerate() {
        if c.is_zero() {
            continue;
        }
        let term = monomial(c.abs(), k, tex);
        if out.is_empty() {
            if c.negative() {
                out.push('-');
            }
        } else {
            out.push_str(if c.negative() { " - " } else { " + " });
        }
        out.push_str(&term);
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

/// γ_k = bᵀA^{k−1}1 exactly, k = 0..=s (γ_0 = 1); `None` on overflow.
fn exact_coefficients(a: &[Vec<Frac>], b: &[Frac]) -> Option<Vec<Frac>> {
    let s = b.len();
    let mut v = vec![Frac::ONE; s];
    let mut out = vec![Frac::ONE];
    for _ in 0..s {
        out.push(b.iter().zip(&v).try_fold(Frac::ZERO, |acc, (&bi, &vi)| {
            acc.checked_add(bi.checked_mul(vi)?)
        })?);
        let mut next = Vec::with_capacity(s);
        for row in a {
            next.push(row.iter().zip(&v).try_fold(Frac::ZERO, |acc, (&x, &vi)| {
                acc.checked_add(x.checked_mul(vi)?)
            })?);
        }
        v = next;
    }
    Some(out)
}

/// γ_k = bᵀA^{k−1}1 in floating point, k = 0..=s.
fn float_coefficients(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let s = b.len();
    let mut v = vec![1.0; s];
    let mut out = vec![1.0];
    for _ in 0..s {
        out.push(b.iter().zip(&v).map(|(x, y)| x * y).sum());
        v = a
            .iter()
            .map(|row| row.iter().zip(&v).map(|(x, y)| x * y).sum())
            .collect();
    }
    out
}

fn trim<T>(v: &mut Vec<T>, zero: impl Fn(&T) -> bool) {
    while v.len() > 1 && v.last().is_some_and(&zero) {
        v.pop();
    }
}

/// R(z) of a checked tableau.
pub fn stability_function(tab: &ButcherTableau) -> StabilityFunction {
    if tab.explicit {
        let exact = match (&tab.a_exact, &tab.b_exact) {
            (Some(a), Some(b)) => exact_coefficients(a, b),
            _ => None,
        };
        if let Some(mut exact) = exact {
            trim(&mut exact, |f| f.is_zero());
            let coefs: Vec<Coef> = exact.iter().map(|&f| Coef::Exact(f)).collect();
            return StabilityFunction {
                numerator: exact.iter().map(|f| f.to_f64()).collect(),
                denominator: vec![1.0],
                numerator_exact: Some(exact.iter().map(|f| f.to_string()).collect()),
                text: polynomial(&coefs, false),
                tex: polynomial(&coefs, true),
            };
        }
        let mut numerator = float_coefficients(&tab.a, &tab.b);
        trim(&mut numerator, |x| *x == 0.0);
        let coefs: Vec<Coef> = numerator.iter().map(|&x| Coef::Float(x)).collect();
        return StabilityFunction {
            text: polynomial(&coefs, false),
            tex: polynomial(&coefs, true),
            numerator,
            denominator: vec![1.0],
            numerator_exact: None,
        };
    }
    let r = Rational::from_lower_triangular(&tab.a, &tab.b);
    let n: Vec<Coef> = r.num.iter().map(|&x| Coef::Float(x)).collect();
    let d: Vec<Coef> = r.den.iter().map(|&x| Coef::Float(x)).collect();
    StabilityFunction {
        text: format!("({}) / ({})", polynomial(&n, false), polynomial(&d, false)),
        tex: format!(
            "\\frac{{{}}}{{{}}}",
            polynomial(&n, true),
            polynomial(&d, true)
        ),
        numerator: r.num,
        denominator: r.den,
        numerator_exact: None,
    }
}
