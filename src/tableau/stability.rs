//! The stability function R(z) of a user's tableau, in a form the page renders as a
//! formula: coefficient arrays and a plain-text and a TeX string.
//!
//! Explicit tableaux: R(z) = Σ_{k=0}^{s} γ_k z^k with γ_0 = 1 and γ_k = bᵀA^{k−1}1
//! (Hairer–Wanner II, §IV.2, eq. (2.9); the Neumann series of 1 + z bᵀ(I − zA)⁻¹1,
//! finite because A is nilpotent), exact when A and b are fractions. Diagonally
//! implicit tableaux: R = N/D by the forward substitution of `rational.rs`
//! (the same function the stability map draws), redone here in exact arithmetic when
//! A and b are fractions (so the implicit midpoint rule prints as (1 + z/2)/(1 − z/2)),
//! else taken from there in floating point.

use super::exact::Frac;
use super::rational::Rational;
use super::spec::ButcherTableau;
use crate::error::num;
use serde::Serialize;

/// R(z) = N(z)/D(z), coefficients in ascending powers of z.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct StabilityFunction {
    pub numerator: Vec<f64>,
    /// `[1]` for explicit methods.
    pub denominator: Vec<f64>,
    /// The numerator's coefficients as exact fractions ("1/24"), when A and b are exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub numerator_exact: Option<Vec<String>>,
    /// The denominator's, likewise (`["1"]` for explicit methods).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub denominator_exact: Option<Vec<String>>,
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

/// Largest denominator a float coefficient is shown with.
const MAX_SHOWN_DENOMINATOR: i128 = 1_000_000;
/// How close (relative) a float coefficient must be to p/q to be shown as p/q.
const SHOWN_FRACTION_TOLERANCE: f64 = 1e-14;

/// The fraction p/q (q ≤ 10⁶) within 1e-14 relative of x, by continued fractions:
/// so a tableau typed in decimals (or computed, like the catalogue's `1.0 / 6.0`) still
/// shows R as 1 + z + z²/2 + z³/6 + z⁴/24. Only the text and TeX use it; the
/// coefficient arrays keep the computed values.
fn shown_fraction(x: f64) -> Option<Frac> {
    if !x.is_finite() || x.abs() > 1e12 {
        return None;
    }
    let (mut h0, mut h1, mut k0, mut k1) = (0i128, 1i128, 1i128, 0i128);
    let mut r = x.abs();
    for _ in 0..40 {
        let a = r.floor();
        let ai = a as i128;
        let (h2, k2) = (
            ai.checked_mul(h1)?.checked_add(h0)?,
            ai.checked_mul(k1)?.checked_add(k0)?,
        );
        if k2 > MAX_SHOWN_DENOMINATOR {
            return None;
        }
        (h0, h1, k0, k1) = (h1, h2, k1, k2);
        let approx = h1 as f64 / k1 as f64;
        if (approx - x.abs()).abs() <= SHOWN_FRACTION_TOLERANCE * x.abs().max(1.0) {
            return Frac::new(if x < 0.0 { -h1 } else { h1 }, k1);
        }
        let frac = r - a;
        if frac <= 0.0 {
            return None;
        }
        r = 1.0 / frac;
    }
    None
}

/// |c| z^k, for a positive coefficient.
fn monomial(c: Coef, k: usize, tex: bool) -> String {
    let c = match c {
        Coef::Float(x) => shown_fraction(x).map_or(c, Coef::Exact),
        exact => exact,
    };
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
                denominator_exact: Some(vec!["1".into()]),
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
            denominator_exact: None,
        };
    }
    let exact = match (&tab.a_exact, &tab.b_exact) {
        (Some(a), Some(b)) => exact_rational(a, b),
        _ => None,
    };
    if let Some((mut num, mut den)) = exact {
        trim(&mut num, |f| f.is_zero());
        trim(&mut den, |f| f.is_zero());
        let n: Vec<Coef> = num.iter().map(|&f| Coef::Exact(f)).collect();
        let d: Vec<Coef> = den.iter().map(|&f| Coef::Exact(f)).collect();
        return StabilityFunction {
            text: ratio_text(&n, &d),
            tex: ratio_tex(&n, &d),
            numerator: num.iter().map(|f| f.to_f64()).collect(),
            denominator: den.iter().map(|f| f.to_f64()).collect(),
            numerator_exact: Some(num.iter().map(|f| f.to_string()).collect()),
            denominator_exact: Some(den.iter().map(|f| f.to_string()).collect()),
        };
    }
    let r = Rational::from_lower_triangular(&tab.a, &tab.b);
    let n: Vec<Coef> = r.num.iter().map(|&x| Coef::Float(x)).collect();
    let d: Vec<Coef> = r.den.iter().map(|&x| Coef::Float(x)).collect();
    StabilityFunction {
        text: ratio_text(&n, &d),
        tex: ratio_tex(&n, &d),
        numerator: r.num,
        denominator: r.den,
        numerator_exact: None,
        denominator_exact: None,
    }
}

fn ratio_text(n: &[Coef], d: &[Coef]) -> String {
    format!("({}) / ({})", polynomial(n, false), polynomial(d, false))
}

fn ratio_tex(n: &[Coef], d: &[Coef]) -> String {
    format!(
        "\\frac{{{}}}{{{}}}",
        polynomial(n, true),
        polynomial(d, true)
    )
}

type Poly = Vec<Frac>;

fn poly_mul(p: &[Frac], q: &[Frac]) -> Option<Poly> {
    let mut out = vec![Frac::ZERO; p.len() + q.len() - 1];
    for (i, &x) in p.iter().enumerate() {
        for (j, &y) in q.iter().enumerate() {
            out[i + j] = out[i + j].checked_add(x.checked_mul(y)?)?;
        }
    }
    Some(out)
}

/// acc += scale · z^shift · p.
fn poly_add_into(acc: &mut Poly, p: &[Frac], scale: Frac, shift: usize) -> Option<()> {
    if acc.len() < p.len() + shift {
        acc.resize(p.len() + shift, Frac::ZERO);
    }
    for (k, &c) in p.iter().enumerate() {
        acc[k + shift] = acc[k + shift].checked_add(scale.checked_mul(c)?)?;
    }
    Some(())
}

/// Π_{k ∈ range}(1 − a_kk z).
fn diag_product(diag: &[Frac], range: std::ops::Range<usize>) -> Option<Poly> {
    let mut p = vec![Frac::ONE];
    for &d in &diag[range] {
        if !d.is_zero() {
            p = poly_mul(&p, &[Frac::ONE, d.checked_neg()?])?;
        }
    }
    Some(p)
}

/// N and D of a lower-triangular tableau in exact arithmetic: the forward substitution
/// g_i = P_i/D_i of `rational.rs`, D_i = Π_{k≤i}(1 − a_kk z),
/// P_i = D_{i−1} + z Σ_{j<i} a_ij P_j Π_{j<k<i}(1 − a_kk z), N = D_s + z Σ b_i P_i D_s/D_i.
fn exact_rational(a: &[Vec<Frac>], b: &[Frac]) -> Option<(Poly, Poly)> {
    let s = b.len();
    let diag: Vec<Frac> = (0..s).map(|i| a[i][i]).collect();
    let mut p: Vec<Poly> = Vec::with_capacity(s);
    for (i, row) in a.iter().enumerate().take(s) {
        let mut pi = diag_product(&diag, 0..i)?;
        for (j, pj) in p.iter().enumerate() {
            if !row[j].is_zero() {
                let term = poly_mul(pj, &diag_product(&diag, j + 1..i)?)?;
                poly_add_into(&mut pi, &term, row[j], 1)?;
            }
        }
        p.push(pi);
    }
    let den = diag_product(&diag, 0..s)?;
    let mut num = den.clone();
    for (i, pi) in p.iter().enumerate() {
        if !b[i].is_zero() {
            let term = poly_mul(pi, &diag_product(&diag, i + 1..s)?)?;
            poly_add_into(&mut num, &term, b[i], 1)?;
        }
    }
    Some((num, den))
}
