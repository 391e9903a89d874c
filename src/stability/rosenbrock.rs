//! Rosenbrock and W-methods on y' = λy (J = λ exact): Negrut et al. 2003 eq. (2b) with
//! f = λy gives (I − z(α + Γ)) k = z 1 y_n, so R(z) = 1 + z bᵀ(I − z(α + Γ))⁻¹ 1 in
//! Hairer–Wanner's form, the DIRK formula of `rational.rs` with the lower-triangular
//! matrix β = α + Γ (βᵢⱼ = αᵢⱼ + γᵢⱼ, diagonal γ; Negrut et al. 2003 §2, the Sources panel's errata).
//!
//! The coefficients are read from the integrators' own `const` tables
//! (their registry entries, `crate::method::Xi::Rosenbrock`: `ros4` is Negrut et al. 2003 Table 1 with the γ21 sign corrected,
//! `w2` is Table 3), so the map shows exactly the method that runs.

use crate::method::{rosenbrock_tableau, RosenbrockTableau};

/// The rows of α + Γ (lower triangular, diagonal γ) and the weights b of the
/// Rosenbrock/W-method `id`, or `None` if `id` is not one.
pub fn tableau(id: &str) -> Option<(Vec<Vec<f64>>, Vec<f64>)> {
    Some(rows(rosenbrock_tableau(id)?))
}

/// The rows of α + Γ (lower triangular, diagonal γ) and the weights b of table `t`.
pub fn rows(t: &RosenbrockTableau) -> (Vec<Vec<f64>>, Vec<f64>) {
    let entry = |rows: &[&[f64]], i: usize, j: usize| {
        rows.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0.0)
    };
    let a = (0..t.stages())
        .map(|i| {
            (0..=i)
                .map(|j| {
                    if i == j {
                        t.gamma_diag
                    } else {
                        entry(t.alpha, i, j) + entry(t.gamma, i, j)
                    }
                })
                .collect()
        })
        .collect();
    (a, t.b.to_vec())
}
