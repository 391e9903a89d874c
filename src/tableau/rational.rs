//! The stability function of a Runge–Kutta tableau (explicit or diagonally implicit) as
//! a ratio of real polynomials, R(z) = N(z)/D(z), precomputed once so a map evaluates
//! two Horner loops per point and allocates nothing.
//!
//! On the test equation y' = λy (Schwab & Delhaes eq. 7.10, Gil, Sanfelice & Nikravesh 2013 eq. 48) a tableau (A, b)
//! gives y_{n+1} = R(z) y_n with R(z) = 1 + z bᵀ(I − zA)⁻¹ 1, z = hλ. For lower
//! triangular A, g = (I − zA)⁻¹ 1 is a forward substitution
//! g_i = (1 + z Σ_{j<i} a_ij g_j)/(1 − a_ii z), done here on polynomials: g_i = P_i/D_i
//! with D_i = Π_{k≤i}(1 − a_kk z). Then D = D_s and N = D_s + z Σ_i b_i P_i D_s/D_i.
//! Explicit tableaux give D = 1 and N the stability polynomial (Schwab & Delhaes §7.1–7.3: Euler
//! 1 + z, Heun 1 + z + z²/2, RK4 Gil, Sanfelice & Nikravesh 2013 eq. 49). Rosenbrock and W-methods on y' = λy with
//! J = λ are the same formula with A replaced by α + Γ (Hairer–Wanner; see
//! `rosenbrock.rs`). Backward Euler (Schwab & Delhaes §7.7) is the one-stage tableau A = (1), b = (1).
//! A full (fully implicit) A, radau5's, goes through determinants instead:
//! R(z) = det(I − zA + z 1bᵀ)/det(I − zA) ([`Rational::from_full`]).

use nalgebra::Complex;

type C = Complex<f64>;

/// R(z) = N(z)/D(z) with real coefficients in ascending powers, both padded to the same
/// length when D is not 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Rational {
    /// Numerator coefficients, ascending.
    pub num: Vec<f64>,
    /// Denominator coefficients, ascending; `[1.0]` for explicit methods.
    pub den: Vec<f64>,
}

fn mul(p: &[f64], q: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; p.len() + q.len() - 1];
    for (i, &a) in p.iter().enumerate() {
        for (j, &b) in q.iter().enumerate() {
            out[i + j] += a * b;
        }
    }
    out
}

fn add_into(acc: &mut Vec<f64>, p: &[f64], scale: f64) {
    if acc.len() < p.len() {
        acc.resize(p.len(), 0.0);
    }
    for (a, &c) in acc.iter_mut().zip(p) {
        *a += scale * c;
    }
}

/// Π_{k ∈ range}(1 − a_kk z).
fn diag_product(diag: &[f64], range: std::ops::Range<usize>) -> Vec<f64> {
    let mut p = vec![1.0];
    for &d in &diag[range] {
        if d != 0.0 {
            p = mul(&p, &[1.0, -d]);
        }
    }
    p
}

/// The determinant of a square matrix of polynomials, by cofactor expansion along the
/// first row (for the small s of a Runge–Kutta tableau).
fn poly_det(m: &[Vec<Vec<f64>>]) -> Vec<f64> {
    match m.len() {
        0 => vec![1.0],
        1 => m[0][0].clone(),
        n => {
            let mut det = vec![0.0];
            for (j, entry) in m[0].iter().enumerate() {
                let minor: Vec<Vec<Vec<f64>>> = m[1..]
                    .iter()
                    .map(|row| {
                        row.iter()
                            .enumerate()
                            .filter(|&(k, _)| k != j)
                            .map(|(_, p)| p.clone())
                            .collect()
                    })
                    .collect();
                let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
                add_into(&mut det, &mul(entry, &poly_det(&minor)), sign);
                debug_assert!(det.len() <= 2 * n);
            }
            det
        }
    }
}

/// Horner evaluation of a real polynomial at a complex point.
#[inline]
pub fn horner(coef: &[f64], z: C) -> C {
    let mut acc = C::new(0.0, 0.0);
    for &c in coef.iter().rev() {
        acc = acc * z + c;
    }
    acc
}

/// The coefficients (ascending, complex) of q(x) = p(s·(x + iy)) as a polynomial in real
/// x, for a real polynomial p (ascending `coef`): the Taylor shift of p(s·t) by iy, by
/// repeated synthetic division (n²/2 complex multiply-adds, once per map row). A map row
/// then evaluates q with real x: two real multiply-adds per coefficient instead of a
/// complex product. `out` has `coef.len()` entries.
pub fn shifted(coef: &[f64], s: f64, y: f64, out: &mut [C]) {
    let n = coef.len();
    let mut power = 1.0;
    for (o, &c) in out.iter_mut().zip(coef) {
        *o = C::new(c * power, 0.0);
        power *= s;
    }
    let iy = C::new(0.0, y);
    for i in 0..n.saturating_sub(1) {
        for j in (i..n - 1).rev() {
            let next = out[j + 1];
            out[j] += iy * next;
        }
    }
}

/// Horner on the reversed coefficients: w^(n−1) p(1/w) for p of length n.
#[inline]
fn horner_reversed(coef: &[f64], w: C) -> C {
    let mut acc = C::new(0.0, 0.0);
    for &c in coef {
        acc = acc * w + c;
    }
    acc
}

impl Rational {
    /// R of a lower-triangular tableau given by rows `a[i][j]` (j ≤ i; missing entries
    /// are 0) and weights `b`. The caller has checked the shape (`spec.rs`).
    pub fn from_lower_triangular(a: &[Vec<f64>], b: &[f64]) -> Self {
        let s = b.len();
        let entry = |i: usize, j: usize| a.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0.0);
        let diag: Vec<f64> = (0..s).map(|i| entry(i, i)).collect();
        // P_i, the numerator of g_i over D_i.
        let mut p: Vec<Vec<f64>> = Vec::with_capacity(s);
        for i in 0..s {
            // D_{i−1} + z Σ_{j<i} a_ij P_j Π_{j<k<i}(1 − a_kk z)
            let mut pi = diag_product(&diag, 0..i);
            let mut sum = vec![0.0];
            for (j, pj) in p.iter().enumerate() {
                let aij = entry(i, j);
                if aij != 0.0 {
                    add_into(&mut sum, &mul(pj, &diag_product(&diag, j + 1..i)), aij);
                }
            }
            let mut zsum = vec![0.0];
            zsum.extend_from_slice(&sum);
            add_into(&mut pi, &zsum, 1.0);
            p.push(pi);
        }
        let den = diag_product(&diag, 0..s);
        let mut num = den.clone();
        for (i, pi) in p.iter().enumerate() {
            if b[i] != 0.0 {
                let mut term = vec![0.0];
                term.extend(mul(pi, &diag_product(&diag, i + 1..s)));
                add_into(&mut num, &term, b[i]);
            }
        }
        while num.len() > 1 && num[num.len() - 1] == 0.0 {
            num.pop();
        }
        let mut r = Rational { num, den };
        if r.den.len() > 1 {
            let n = r.num.len().max(r.den.len());
            r.num.resize(n, 0.0);
            r.den.resize(n, 0.0);
        }
        r
    }

    /// R of a full (fully implicit) tableau A, b: R(z) = det(I − zA + z 1bᵀ)/det(I − zA)
    /// (Hairer–Wanner II Prop. IV.3.2), both determinants expanded as polynomials in
    /// z by cofactors (s ≤ 4 here: radau5 has s = 3).
    pub fn from_full(a: &[Vec<f64>], b: &[f64]) -> Self {
        let s = b.len();
        let entry = |i: usize, j: usize| a.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0.0);
        // Entry (i, j) of I − zA (+ z 1bᵀ): the polynomial [δᵢⱼ, −aᵢⱼ (+ bⱼ)].
        let matrix = |with_b: bool| -> Vec<Vec<Vec<f64>>> {
            (0..s)
                .map(|i| {
                    (0..s)
                        .map(|j| {
                            let delta = if i == j { 1.0 } else { 0.0 };
                            let bj = if with_b { b[j] } else { 0.0 };
                            vec![delta, bj - entry(i, j)]
                        })
                        .collect()
                })
                .collect()
        };
        let mut num = poly_det(&matrix(true));
        let mut den = poly_det(&matrix(false));
        let n = num.len().max(den.len());
        num.resize(n, 0.0);
        den.resize(n, 0.0);
        Rational { num, den }
    }

    /// True when D = 1 (an explicit method: R is a polynomial).
    pub fn is_polynomial(&self) -> bool {
        self.den.len() == 1 && self.den[0] == 1.0
    }

    /// R(z). For |z| > 1 a non-trivial ratio is evaluated in w = 1/z on the reversed
    /// coefficients (same degree on both sides), so large |z| neither overflows nor
    /// gives ∞/∞.
    #[inline]
    pub fn eval(&self, z: C) -> C {
        if self.is_polynomial() {
            return horner(&self.num, z);
        }
        if z.norm_sqr() <= 1.0 {
            horner(&self.num, z) / horner(&self.den, z)
        } else {
            let w = z.inv();
            horner_reversed(&self.num, w) / horner_reversed(&self.den, w)
        }
    }

    /// |R(z)|; +∞ at a pole.
    #[inline]
    pub fn modulus(&self, z: C) -> f64 {
        if self.is_polynomial() {
            return horner(&self.num, z).norm_sqr().sqrt();
        }
        let (n, d) = if z.norm_sqr() <= 1.0 {
            (horner(&self.num, z), horner(&self.den, z))
        } else {
            let w = z.inv();
            (horner_reversed(&self.num, w), horner_reversed(&self.den, w))
        };
        let v = (n.norm_sqr() / d.norm_sqr()).sqrt();
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    }

    /// lim_{z→∞} |R(z)| (L-stability is A-stability with this = 0); +∞ for a
    /// polynomial of degree ≥ 1.
    pub fn modulus_at_infinity(&self) -> f64 {
        if self.is_polynomial() {
            return if self.num.len() > 1 {
                f64::INFINITY
            } else {
                self.num[0].abs()
            };
        }
        let n = self.num.len() - 1;
        (self.num[n] / self.den[n]).abs()
    }
}
