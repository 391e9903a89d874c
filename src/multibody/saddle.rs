//! The saddle-point system of the augmented (index-1) formulation, Gil, Sanfelice &
//! Nikravesh (LLM) eq. (9): [[M, −Φ_qᵀ], [Φ_q, 0]] (q̈, λ) = (Q, γ), solved for q̈ and the
//! multipliers λ by one LU. Both the augmented model (every f-evaluation) and the
//! outputs of every constrained formulation (λ per constraint) solve it.

use super::constrained::Constrained;
use super::mechanism::{Mechanism, Scalar};
use super::{ConstraintFailure, Stabilization};
use nalgebra::{DMatrix, DVector};

/// Smallest pivot, relative to the largest, of a saddle-point LU still accepted.
pub const PIVOT_RATIO: f64 = 1e-13;
/// The LU of eq. (9): dense, or on the sparsity pattern of a big typed system
/// ([`super::sparse_saddle`], f64 only).
pub enum SaddleLu<T: Scalar = f64> {
    Dense(nalgebra::LU<T, nalgebra::Dyn, nalgebra::Dyn>),
    #[cfg(feature = "full")]
    Sparse(Box<crate::linear_solver::structured::Factors<f64>>),
}

impl<T: Scalar> SaddleLu<T> {
    /// Solves K X = B; `None` when the dense LU is singular or an entry is not finite.
    pub fn solve(&self, b: &DMatrix<T>) -> Option<DMatrix<T>> {
        match self {
            SaddleLu::Dense(lu) => lu.solve(b),
            // Only ever made for f64, where `re` and `of` are the identity.
            #[cfg(feature = "full")]
            SaddleLu::Sparse(f) => {
                let mut x = DMatrix::from_fn(b.nrows(), b.ncols(), |r, c| b[(r, c)].re());
                for mut col in x.column_iter_mut() {
                    f.solve(col.as_mut_slice());
                }
                x.iter().all(|v| v.is_finite()).then(|| x.map(|v| T::of(v)))
            }
        }
    }

    /// Solves K X = B in place; false when singular (dense) or not finite.
    pub fn solve_mut(&self, b: &mut DMatrix<T>) -> bool {
        match self {
            SaddleLu::Dense(lu) => lu.solve_mut(b),
            #[cfg(feature = "full")]
            SaddleLu::Sparse(_) => match self.solve(b) {
                Some(x) => {
                    b.copy_from(&x);
                    true
                }
                None => false,
            },
        }
    }
}

/// q̈, λ and the LU of eq. (9) at one state.
pub struct SaddleSolution<T: Scalar = f64> {
    /// Φ_q at the state (the matrix's off-diagonal blocks).
    pub phi_q: DMatrix<T>,
    pub lu: SaddleLu<T>,
    pub qdd: DVector<T>,
    pub lambda: DVector<T>,
}

/// Solves eq. (9) at (q, q̇), with γ Baumgarte-stabilised if asked. Generic over the
/// scalar so that the tests can differentiate it, LU included, with dual numbers.
pub fn saddle_point<T: Scalar>(
    mech: &Mechanism,
    q: &[T],
    qd: &[T],
    stab: Stabilization,
) -> Result<SaddleSolution<T>, ConstraintFailure> {
    let d = mech.phi_q(q);
    let mut mass = DMatrix::zeros(mech.n(), mech.n());
    for (i, mi) in mech.mass_diagonal().iter().enumerate() {
        mass[(i, i)] = T::of(*mi);
    }
    let mut gamma = mech.gamma(q, qd);
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        gamma -= (&d * DVector::from_row_slice(qd)) * T::of(2.0 * alpha)
            + mech.phi(q) * T::of(beta * beta);
    }
    solve_saddle(&mass, d, mech.forces(q, qd), gamma)
}

/// Solves eq. (9) of a [`Constrained`] system at (t, q, q̇), with γ Baumgarte-stabilised
/// if asked (γ − 2αΦ̇ − β²Φ, Φ̇ = Φ_q q̇ + Φ_t).
pub fn saddle<S: Constrained + ?Sized>(
    sys: &S,
    t: f64,
    q: &[f64],
    qd: &[f64],
    stab: Stabilization,
) -> Result<SaddleSolution, ConstraintFailure> {
    let d = sys.phi_q(t, q);
    let mass = sys.mass(q);
    let mut gamma = sys.gamma(t, q, qd);
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        let mut velocity = &d * DVector::from_row_slice(qd);
        if let Some(pt) = sys.phi_t(t, q) {
            velocity += pt;
        }
        gamma -= velocity * (2.0 * alpha) + sys.phi(t, q) * (beta * beta);
    }
    let forces = sys.forces(t, q, qd);
    #[cfg(feature = "full")]
    if let Some(pattern) = sys.saddle_pattern() {
        return solve_sparse(pattern, &mass, d, forces, gamma);
    }
    solve_saddle(&mass, d, forces, gamma)
}

/// [`solve_saddle`] on K's sparsity pattern.
#[cfg(feature = "full")]
fn solve_sparse(
    pattern: &super::sparse_saddle::SaddlePattern,
    mass: &DMatrix<f64>,
    d: DMatrix<f64>,
    forces: DVector<f64>,
    gamma: DVector<f64>,
) -> Result<SaddleSolution, ConstraintFailure> {
    let (m, n) = d.shape();
    if !forces.iter().chain(gamma.iter()).all(|v| v.is_finite()) {
        return Err(ConstraintFailure::SingularSaddlePoint);
    }
    let f = pattern
        .factor(mass, &d, PIVOT_RATIO)
        .ok_or(ConstraintFailure::SingularSaddlePoint)?;
    let mut x: Vec<f64> = forces.iter().chain(gamma.iter()).copied().collect();
    f.solve(&mut x);
    if !x.iter().all(|v| v.is_finite()) {
        return Err(ConstraintFailure::SingularSaddlePoint);
    }
    Ok(SaddleSolution {
        phi_q: d,
        lu: SaddleLu::Sparse(Box::new(f)),
        qdd: DVector::from_row_slice(&x[..n]),
        lambda: DVector::from_row_slice(&x[n..n + m]),
    })
}

/// The LU of [[M, −Φ_qᵀ], [Φ_q, 0]] and its solution for (q̈, λ) with right-hand side
/// (Q, γ).
fn solve_saddle<T: Scalar>(
    mass: &DMatrix<T>,
    d: DMatrix<T>,
    forces: DVector<T>,
    gamma: DVector<T>,
) -> Result<SaddleSolution<T>, ConstraintFailure> {
    let (m, n) = d.shape();
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(mass);
    for r in 0..m {
        for c in 0..n {
            k[(c, n + r)] = -d[(r, c)];
            k[(n + r, c)] = d[(r, c)];
        }
    }
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&forces);
    rhs.rows_mut(n, m).copy_from(&gamma);
    if !k.iter().chain(rhs.iter()).all(|v| v.is_finite()) {
        return Err(ConstraintFailure::SingularSaddlePoint);
    }
    let lu = k.lu();
    let pivots = lu.u().diagonal().map(|p| p.abs());
    let (smallest, largest) = pivots.iter().fold((pivots[0], pivots[0]), |(lo, hi), &p| {
        (if p < lo { p } else { lo }, if p > hi { p } else { hi })
    });
    if smallest <= T::of(PIVOT_RATIO) * largest {
        return Err(ConstraintFailure::SingularSaddlePoint);
    }
    let x = lu
        .solve(&rhs)
        .filter(|x| x.iter().all(|v| v.is_finite()))
        .ok_or(ConstraintFailure::SingularSaddlePoint)?;
    Ok(SaddleSolution {
        phi_q: d,
        lu: SaddleLu::Dense(lu),
        qdd: x.rows(0, n).into_owned(),
        lambda: x.rows(n, m).into_owned(),
    })
}
