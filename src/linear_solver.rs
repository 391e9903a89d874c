//! The linear algebra seam of the stiff methods: a Jacobian that is dense or sparse, and
//! the factorisation of their step matrix dI − cJ (I − γhJ, I − hβJ, I/(γh) − J) that
//! goes with it.
//!
//! Small systems stay dense (nalgebra's LU via [`Factored`]). A system that knows its
//! sparsity pattern ([`crate::problem::System::jacobian_sparse`], user systems from
//! their tape) and has at least [`SPARSE_MIN_DIM`] states hands a [`SparseJacobian`];
//! its step matrix is factorised on the plan of its pattern ([`structured`], made once
//! per pattern): as a band (in its own numbering or after reverse Cuthill–McKee) when
//! the entries lie in a narrow one, else by faer's sparse LU (fill-reducing column
//! ordering, partial pivoting) with its symbolic analysis reused, so a step of the
//! 2,000-cell heat equation costs O(N), not the O(N³) of a dense LU. Steppers see only
//! [`Jacobian`] and [`StepMatrix`]: build I − cJ, solve, and y += αJx;
//! [`StepMatrix::refactor`] factorises the next step's matrix in the storage of the
//! last (dense, band or faer's values; no allocation per step for the first two).

use crate::error::OdeError;
use crate::linalg::{fixed, Factored};
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

#[cfg(feature = "full")]
pub mod structured;

/// Systems smaller than this use the dense path even when they know a pattern: a dense
/// LU of a few dozen states is cheaper than the sparse machinery.
pub const SPARSE_MIN_DIM: usize = 64;

/// ∂f/∂y in compressed sparse column form: column j's rows are
/// `rows[col_start[j]..col_start[j + 1]]`, sorted, with `values` alongside.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseJacobian {
    pub n: usize,
    pub col_start: Vec<usize>,
    pub rows: Vec<usize>,
    pub values: Vec<f64>,
}

impl SparseJacobian {
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.rows.len()
    }

    /// The same matrix, dense.
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut m = DMatrix::zeros(self.n, self.n);
        for j in 0..self.n {
            for k in self.col_start[j]..self.col_start[j + 1] {
                m[(self.rows[k], j)] = self.values[k];
            }
        }
        m
    }
}

/// ∂f/∂y as a method receives it.
#[derive(Debug, Clone, PartialEq)]
pub enum Jacobian {
    Dense(DMatrix<f64>),
    Sparse(SparseJacobian),
}

impl Jacobian {
    /// The number of rows (and columns).
    pub fn nrows(&self) -> usize {
        match self {
            Jacobian::Dense(m) => m.nrows(),
            Jacobian::Sparse(s) => s.n,
        }
    }

    /// Multiplies every entry by `s` (the `jacobianScale` knob).
    pub fn scale(&mut self, s: f64) {
        match self {
            Jacobian::Dense(m) => *m *= s,
            Jacobian::Sparse(m) => m.values.iter_mut().for_each(|v| *v *= s),
        }
    }

    /// y ← y + α J x.
    pub fn mul_add(&self, alpha: f64, x: &DVector<f64>, y: &mut DVector<f64>) {
        self.mul_add_n::<0>(alpha, x.as_slice(), y.as_mut_slice());
    }

    /// As [`Jacobian::mul_add`], on slices of length n, a size known at compile time
    /// when `N` > 0 (`crate::linalg::fixed`). The dense product is nalgebra's
    /// `gemv(α, J, x, 1)` operation for operation (column by column,
    /// yᵢ ← (α·Jᵢⱼ)·xⱼ + yᵢ) without its generic views, which cost several times the
    /// arithmetic on a 2 × 2 matrix.
    pub fn mul_add_n<const N: usize>(&self, alpha: f64, x: &[f64], y: &mut [f64]) {
        match self {
            Jacobian::Dense(m) => {
                let n = fixed::<N>(y.len());
                let (x, y) = (&x[..n], &mut y[..n]);
                for (column, &xj) in m.as_slice()[..n * n].chunks_exact(n.max(1)).zip(x) {
                    for (yi, &a) in y.iter_mut().zip(column) {
                        *yi += alpha * a * xj;
                    }
                }
            }
            Jacobian::Sparse(m) => {
                for (j, &x_j) in x[..m.n].iter().enumerate() {
                    let xj = alpha * x_j;
                    if xj != 0.0 {
                        for k in m.col_start[j]..m.col_start[j + 1] {
                            y[m.rows[k]] += m.values[k] * xj;
                        }
                    }
                }
            }
        }
    }

    /// The dense matrix (a copy for a sparse one).
    pub fn to_dense(&self) -> DMatrix<f64> {
        match self {
            Jacobian::Dense(m) => m.clone(),
            Jacobian::Sparse(m) => m.to_dense(),
        }
    }
}

/// The factorised step matrix dI − cJ. The sparse LU (faer, ~250 KB of wasm) is in the
/// whole engine only (cargo feature `full`): in the first-load build no system hands a
/// sparse Jacobian (only user systems know their pattern), and one that did would be
/// refused with [`OdeError::NotInThisBuild`].
pub enum StepMatrix {
    Dense(Factored),
    #[cfg(feature = "full")]
    Sparse {
        lu: Box<structured::Factors<f64>>,
        t: f64,
        h: f64,
        what: &'static str,
    },
}

impl StepMatrix {
    /// Factorises dI − cJ (counted in `nlu`); a non-finite entry or a singular matrix
    /// is [`OdeError::SingularMatrix`] at (t, h). The dense matrix is formed as
    /// `I·d − J·c`, the same operations the steppers did before (bitwise the same runs).
    pub fn new(
        jac: &Jacobian,
        d: f64,
        c: f64,
        what: &'static str,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<Self, OdeError> {
        match jac {
            Jacobian::Dense(j) => Ok(StepMatrix::Dense(Factored::shifted(
                j, d, c, what, t, h, stats,
            )?)),
            #[cfg(not(feature = "full"))]
            Jacobian::Sparse(_) => {
                let _ = stats;
                Err(OdeError::NotInThisBuild {
                    what: "the sparse LU of a big system",
                })
            }
            #[cfg(feature = "full")]
            Jacobian::Sparse(j) => {
                let plan = structured::Plan::for_pattern(j).ok_or_else(|| singular(what, t, h))?;
                let mut lu = Box::new(structured::Factors::new(plan));
                stats.nlu += 1;
                if !lu.factor(j, d, c) {
                    return Err(singular(what, t, h));
                }
                Ok(StepMatrix::Sparse { lu, t, h, what })
            }
        }
    }

    /// The step's dI − cJ factorised in the matrix a stepper keeps across steps:
    /// refactorised in its storage ([`StepMatrix::refactor`]) once there is one, made
    /// ([`StepMatrix::new`]) the first time.
    // Inlined into each stepper's step, as the match it replaces was: out of line it
    // cost ros4 ~1 % (callgrind, Van der Pol).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn in_kept<'a>(
        kept: &'a mut Option<StepMatrix>,
        jac: &Jacobian,
        d: f64,
        c: f64,
        what: &'static str,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<&'a StepMatrix, OdeError> {
        Ok(match kept {
            Some(lu) => {
                lu.refactor(jac, d, c, what, t, h, stats)?;
                lu
            }
            empty => empty.insert(StepMatrix::new(jac, d, c, what, t, h, stats)?),
        })
    }

    /// Factorises the next step's dI − cJ: in this matrix's storage when both are
    /// dense (no allocation), else as [`StepMatrix::new`]. `what` names the matrix
    /// in errors, as in `new`; a stepper passes the same one every step.
    #[allow(clippy::too_many_arguments)]
    pub fn refactor(
        &mut self,
        jac: &Jacobian,
        d: f64,
        c: f64,
        what: &'static str,
        t: f64,
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        match (&mut *self, jac) {
            (StepMatrix::Dense(f), Jacobian::Dense(j)) => f.reshift(j, d, c, t, h, stats),
            // The same pattern: its plan and storage serve again (no new analysis).
            #[cfg(feature = "full")]
            (
                StepMatrix::Sparse {
                    lu,
                    t: t_made,
                    h: h_made,
                    what: what_made,
                },
                Jacobian::Sparse(j),
            ) if lu.plan().matches(j) => {
                (*t_made, *h_made, *what_made) = (t, h, what);
                stats.nlu += 1;
                if lu.factor(j, d, c) {
                    Ok(())
                } else {
                    Err(singular(what, t, h))
                }
            }
            _ => {
                *self = StepMatrix::new(jac, d, c, what, t, h, stats)?;
                Ok(())
            }
        }
    }

    /// Solves (dI − cJ) x = b in place; a non-finite solution is an error.
    pub fn solve_in_place(&self, b: &mut DVector<f64>) -> Result<(), OdeError> {
        self.solve_slice(b.as_mut_slice())
    }

    /// As [`StepMatrix::solve_in_place`], on a slice of length n.
    pub fn solve_slice(&self, b: &mut [f64]) -> Result<(), OdeError> {
        self.solve_n::<0>(b)
    }

    /// [`StepMatrix::solve_slice`] for a size known at compile time when `N` > 0.
    pub fn solve_n<const N: usize>(&self, b: &mut [f64]) -> Result<(), OdeError> {
        match self {
            StepMatrix::Dense(f) => f.solve_n::<N>(b),
            #[cfg(feature = "full")]
            StepMatrix::Sparse { lu, t, h, what } => {
                lu.solve(b);
                if b.iter().all(|v| v.is_finite()) {
                    Ok(())
                } else {
                    Err(OdeError::SingularMatrix {
                        t: *t,
                        h: *h,
                        what: what.to_string(),
                    })
                }
            }
        }
    }
}

/// A factorisation refused: a non-finite entry or a singular matrix at (t, h).
#[cfg(feature = "full")]
fn singular(what: &str, t: f64, h: f64) -> OdeError {
    OdeError::SingularMatrix {
        t,
        h,
        what: what.to_string(),
    }
}
