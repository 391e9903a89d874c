//! A constrained system in the textbook form both formulations integrate
//! (Gil, Sanfelice & Nikravesh (LLM) §2 eqs. 7–8; Negrut et al. 2003 eqs. 1a–1d):
//!
//! ```text
//! M(q) q̈ = Q(q, q̇, t) − Φ_qᵀ λ,     Φ(q, t) = 0,
//! Φ_q q̈ = γ = −(Φ_q q̇)_q q̇ − 2 Φ_qt q̇ − Φ_tt.
//! ```
//!
//! [`Constrained`] gives M, Q, Φ, Φ_q, Φ_t, γ and the derivatives the formulations'
//! Jacobians need ([`Derivatives`]: ∂Φ_q/∂q, ∂γ/∂q, ∂γ/∂q̇, ∂M/∂q, and the partial
//! derivatives in t of a time-dependent system). The hand-derived [`Mechanism`](super::mechanism::Mechanism) of the
//! built-in models implements it, and so does a mechanism typed in the system language
//! (`crate::expr::constrained`), whose derivatives all come from exact differentiation.

use nalgebra::{DMatrix, DVector};

/// The partial derivatives in t of a time-dependent system (rheonomic constraints, a
/// force that depends on t).
#[derive(Debug, Clone)]
pub struct TimeDerivatives {
    /// ∂Φ_q/∂t (m × n).
    pub phi_q_t: DMatrix<f64>,
    /// ∂Φ_t/∂t (m).
    pub phi_tt: DVector<f64>,
    /// ∂γ/∂t (m).
    pub gamma_t: DVector<f64>,
    /// ∂Q/∂t (n).
    pub forces_t: DVector<f64>,
}

/// A matrix kept as its nonzero entries (row, column, value), in column-major order:
/// ∂Φ_q/∂q_c, of which a joint fills a handful of entries of an m × n matrix. Its
/// products accumulate each output entry in the order a dense column-major product
/// does, so they equal the dense ones to the last bit.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseBlock {
    pub nrows: usize,
    pub ncols: usize,
    pub entries: Vec<(usize, usize, f64)>,
}

impl SparseBlock {
    /// The nonzero entries of a dense matrix.
    pub fn from_dense(a: &DMatrix<f64>) -> Self {
        let mut entries = Vec::new();
        for c in 0..a.ncols() {
            for r in 0..a.nrows() {
                let v = a[(r, c)];
                if v != 0.0 {
                    entries.push((r, c, v));
                }
            }
        }
        Self {
            nrows: a.nrows(),
            ncols: a.ncols(),
            entries,
        }
    }

    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut a = DMatrix::zeros(self.nrows, self.ncols);
        for &(r, c, v) in &self.entries {
            a[(r, c)] = v;
        }
        a
    }

    /// out += A x.
    pub fn mul_add(&self, x: &[f64], out: &mut [f64]) {
        for &(r, c, v) in &self.entries {
            out[r] += v * x[c];
        }
    }

    /// out += Aᵀ y.
    pub fn tr_mul_add(&self, y: &[f64], out: &mut [f64]) {
        for &(r, c, v) in &self.entries {
            out[c] += v * y[r];
        }
    }

    /// A x.
    pub fn mul(&self, x: &[f64]) -> DVector<f64> {
        let mut out = DVector::zeros(self.nrows);
        self.mul_add(x, out.as_mut_slice());
        out
    }

    /// Aᵀ y.
    pub fn tr_mul(&self, y: &[f64]) -> DVector<f64> {
        let mut out = DVector::zeros(self.ncols);
        self.tr_mul_add(y, out.as_mut_slice());
        out
    }
}

/// The derivatives of Φ_q, Φ_t, γ and M that the Jacobian of Gil, Sanfelice & Nikravesh
/// (LLM) eqs. (10)–(15) needs.
pub struct Derivatives {
    /// ∂(Φ_q)/∂q_c for every coordinate c (None where it is zero: revolute joints reach
    /// only the angle columns), as its nonzero entries: a dense m × n matrix per
    /// coordinate would make a step of an N-body chain cost N³ in memory traffic alone.
    pub phi_q_q: Vec<Option<SparseBlock>>,
    /// ∂γ/∂q and ∂γ/∂q̇ (m × n each).
    pub gamma_q: DMatrix<f64>,
    pub gamma_qd: DMatrix<f64>,
    /// ∂M/∂q_c for every coordinate c; empty when M is constant (body coordinates).
    pub mass_q: Vec<Option<DMatrix<f64>>>,
    /// ∂Φ_t/∂q (m × n), when Φ depends on t.
    pub phi_t_q: Option<DMatrix<f64>>,
    /// The derivatives in t, when the system depends on t.
    pub time: Option<TimeDerivatives>,
}

impl Derivatives {
    /// ∂Φ̇/∂q at the q̇ the derivatives were taken at (m × n), Φ̇ = Φ_q q̇ + Φ_t: column c
    /// is (∂Φ_q/∂q_c) q̇ + ∂Φ_t/∂q_c. Baumgarte's Jacobian and the state-space chain rule
    /// need it.
    pub fn velocity_constraint_q(&self, qd: &[f64]) -> DMatrix<f64> {
        let m = self.gamma_q.nrows();
        let mut p = DMatrix::zeros(m, qd.len());
        for (c, ddc) in self.phi_q_q.iter().enumerate() {
            if let Some(ddc) = ddc {
                p.set_column(c, &ddc.mul(qd));
            }
        }
        if let Some(ptq) = &self.phi_t_q {
            p += ptq;
        }
        p
    }
}

/// A constrained system M(q) q̈ = Q − Φ_qᵀλ, Φ(q, t) = 0 (see the module doc).
pub trait Constrained {
    /// Number of coordinates n.
    fn n(&self) -> usize;
    /// Number of constraint equations m.
    fn m(&self) -> usize;
    /// Names of the coordinates (x1, y1, φ1, … for bodies).
    fn coordinate_names(&self) -> Vec<String>;
    /// Names of the constraint equations, one per row of Φ (used in messages and for
    /// the multipliers λ).
    fn constraint_names(&self) -> Vec<String>;
    /// Whether Φ depends on t (then Φ_t is not zero).
    fn rheonomic(&self) -> bool {
        false
    }
    /// Whether anything (Φ or Q) depends on t explicitly.
    fn time_dependent(&self) -> bool {
        false
    }
    /// M(q), n × n, symmetric positive definite.
    fn mass(&self, q: &[f64]) -> DMatrix<f64>;
    /// Q(q, q̇, t).
    fn forces(&self, t: f64, q: &[f64], qd: &[f64]) -> DVector<f64>;
    /// Φ(q, t).
    fn phi(&self, t: f64, q: &[f64]) -> DVector<f64>;
    /// Φ_q (m × n).
    fn phi_q(&self, t: f64, q: &[f64]) -> DMatrix<f64>;
    /// Φ_t (m), None when Φ does not depend on t.
    fn phi_t(&self, _t: f64, _q: &[f64]) -> Option<DVector<f64>> {
        None
    }
    /// γ = −(Φ_q q̇)_q q̇ − 2Φ_qt q̇ − Φ_tt.
    fn gamma(&self, t: f64, q: &[f64], qd: &[f64]) -> DVector<f64>;
    /// The derivatives at (q, q̇, t) (see [`Derivatives`]).
    fn derivatives(&self, t: f64, q: &[f64], qd: &[f64]) -> Derivatives;
    /// ∂Q/∂q and ∂Q/∂q̇, added to `jq` and `jqd` (n × n).
    fn force_jacobian(
        &self,
        t: f64,
        q: &[f64],
        qd: &[f64],
        jq: &mut DMatrix<f64>,
        jqd: &mut DMatrix<f64>,
    );
    /// The sparsity pattern of the saddle-point matrix of Gil, Sanfelice & Nikravesh
    /// (LLM) eq. (9), when the system is big and sparse enough for it to be factored
    /// on it (see [`super::sparse_saddle`]).
    #[cfg(feature = "full")]
    fn saddle_pattern(&self) -> Option<&super::sparse_saddle::SaddlePattern> {
        None
    }
    /// Kinetic plus potential energy, when the system defines one.
    fn energy(&self, _t: f64, _q: &[f64], _qd: &[f64]) -> Option<f64> {
        None
    }
}
