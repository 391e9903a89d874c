//! The order conditions of a Runge–Kutta method up to order 5: one per rooted tree t,
//! Σ b_i Φ_i(t) = 1/γ(t) (Butcher, *Numerical Methods for ODEs*, §31; Hairer–Nørsett–
//! Wanner I, §II.2, Theorem 2.13 and Table 2.2). There are 1, 1, 2, 4, 9 trees of
//! orders 1 to 5: 17 conditions. They are written with c_i = Σ_j a_ij, which
//! [`super::spec`] enforces, and hold for explicit and diagonally implicit A alike.
//!
//! A condition holds when |Σ b_i Φ_i − 1/γ| ≤ 1e-12 · max(1, Σ |b_i| |Φ_i|) (the sum
//! evaluated with |A|, |b|, |c|: a bound on its rounding error, so a tableau typed in
//! decimals to full precision passes and one off in the 10th digit does not), and the
//! residual is also below an absolute 1e-10. The second test is what keeps cancellation
//! honest: weights such as (0, 1e14, −1e14) make the rounding bound ~100, large enough to
//! excuse Σ b_i = 0, yet a method whose conditions hold only to 1e-2 in the arithmetic
//! it runs in does not have that order. The targets 1/γ are at least 1/120, so 1e-10
//! still accepts every tableau whose coefficients are below ~1e5 and typed to full
//! precision.

use serde::Serialize;

/// Relative tolerance of a condition (see the module doc).
pub const TOLERANCE: f64 = 1e-12;

/// The largest residual any condition may have, whatever its rounding bound.
pub const MAX_RESIDUAL: f64 = 1e-10;

/// Highest order whose conditions are checked.
pub const MAX_ORDER: u32 = 5;

/// One order condition evaluated on a tableau.
#[derive(Debug, Clone, PartialEq, Serialize, tsify::Tsify)]
#[tsify(rename = "OrderCondition")]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// The order of the tree (its number of nodes).
    pub order: u32,
    /// The tree in Butcher's bracket notation, e.g. `[τ[τ]]`.
    pub tree: &'static str,
    /// The condition as a formula, e.g. "Σ bᵢcᵢ² = 1/3" (sums over repeated indices).
    pub name: String,
    /// Σ b_i Φ_i(t) for this tableau.
    pub value: f64,
    /// 1/γ(t).
    pub target: f64,
    /// value − target.
    pub residual: f64,
    pub holds: bool,
}

/// The vectors Φ(t) (one entry per stage) of the 17 trees, built from A and c.
struct Phis {
    rows: Vec<[f64; 17]>,
}

fn mat_vec(a: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    a.iter()
        .map(|row| row.iter().zip(v).map(|(x, y)| x * y).sum())
        .collect()
}

fn times(u: &[f64], v: &[f64]) -> Vec<f64> {
    u.iter().zip(v).map(|(x, y)| x * y).collect()
}

impl Phis {
    fn new(a: &[Vec<f64>], c: &[f64]) -> Phis {
        let s = c.len();
        let c2 = times(c, c);
        let c3 = times(&c2, c);
        let c4 = times(&c3, c);
        let ac = mat_vec(a, c);
        let ac2 = mat_vec(a, &c2);
        let ac3 = mat_vec(a, &c3);
        let aac = mat_vec(a, &ac);
        let aac2 = mat_vec(a, &ac2);
        let aaac = mat_vec(a, &aac);
        let a_cac = mat_vec(a, &times(c, &ac));
        let rows = (0..s)
            .map(|i| {
                [
                    1.0,
                    c[i],
                    c2[i],
                    ac[i],
                    c3[i],
                    c[i] * ac[i],
                    ac2[i],
                    aac[i],
                    c4[i],
                    c2[i] * ac[i],
                    c[i] * ac2[i],
                    c[i] * aac[i],
                    ac[i] * ac[i],
                    ac3[i],
                    a_cac[i],
                    aac2[i],
                    aaac[i],
                ]
            })
            .collect();
        Phis { rows }
    }

    fn weighted(&self, b: &[f64], k: usize) -> f64 {
        b.iter().zip(&self.rows).map(|(bi, r)| bi * r[k]).sum()
    }
}

/// The 17 trees: (order, bracket notation, formula, γ(t)). HNW I Table II.2.2.
const TREES: [(u32, &str, &str, u32); 17] = [
    (1, "τ", "Σ bᵢ", 1),
    (2, "[τ]", "Σ bᵢcᵢ", 2),
    (3, "[τ²]", "Σ bᵢcᵢ²", 3),
    (3, "[[τ]]", "Σ bᵢaᵢⱼcⱼ", 6),
    (4, "[τ³]", "Σ bᵢcᵢ³", 4),
    (4, "[τ[τ]]", "Σ bᵢcᵢaᵢⱼcⱼ", 8),
    (4, "[[τ²]]", "Σ bᵢaᵢⱼcⱼ²", 12),
    (4, "[[[τ]]]", "Σ bᵢaᵢⱼaⱼₖcₖ", 24),
    (5, "[τ⁴]", "Σ bᵢcᵢ⁴", 5),
    (5, "[τ²[τ]]", "Σ bᵢcᵢ²aᵢⱼcⱼ", 10),
    (5, "[τ[τ²]]", "Σ bᵢcᵢaᵢⱼcⱼ²", 15),
    (5, "[τ[[τ]]]", "Σ bᵢcᵢaᵢⱼaⱼₖcₖ", 30),
    (5, "[[τ]²]", "Σ bᵢ(aᵢⱼcⱼ)²", 20),
    (5, "[[τ³]]", "Σ bᵢaᵢⱼcⱼ³", 20),
    (5, "[[τ[τ]]]", "Σ bᵢaᵢⱼcⱼaⱼₖcₖ", 40),
    (5, "[[[τ²]]]", "Σ bᵢaᵢⱼaⱼₖcₖ²", 60),
    (5, "[[[[τ]]]]", "Σ bᵢaᵢⱼaⱼₖaₖₗcₗ", 120),
];

/// The 17 conditions for weights `b` (the method's b, or an embedded b̂).
pub fn order_conditions(a: &[Vec<f64>], b: &[f64], c: &[f64]) -> Vec<Condition> {
    let phis = Phis::new(a, c);
    let abs_a: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(|x| x.abs()).collect())
        .collect();
    let abs_c: Vec<f64> = c.iter().map(|x| x.abs()).collect();
    let abs_b: Vec<f64> = b.iter().map(|x| x.abs()).collect();
    let bounds = Phis::new(&abs_a, &abs_c);
    TREES
        .iter()
        .enumerate()
        .map(|(k, &(order, tree, formula, gamma))| {
            let value = phis.weighted(b, k);
            let target = 1.0 / f64::from(gamma);
            let residual = value - target;
            let scale = bounds.weighted(&abs_b, k).max(1.0);
            let target_text = if gamma == 1 {
                "1".to_string()
            } else {
                format!("1/{gamma}")
            };
            Condition {
                order,
                tree,
                name: format!("{formula} = {target_text}"),
                value,
                target,
                residual,
                holds: residual.abs() <= (TOLERANCE * scale).min(MAX_RESIDUAL),
            }
        })
        .collect()
}

/// The highest p ≤ 5 such that every condition of order ≤ p holds (0: not even
/// consistent, Σ b_i ≠ 1).
pub fn order_of(conditions: &[Condition]) -> u32 {
    (1..=MAX_ORDER)
        .take_while(|&p| conditions.iter().filter(|c| c.order == p).all(|c| c.holds))
        .last()
        .unwrap_or(0)
}
