//! The saddle-point matrix K = [[M, −Φ_qᵀ], [Φ_q, 0]] of Gil, Sanfelice & Nikravesh (LLM)
//! eq. (9) factored on its sparsity pattern. In body coordinates a joint's rows of Φ_q
//! touch the two bodies it joins and M is block diagonal, so K of an N-body chain has
//! O(N) entries; after reverse Cuthill–McKee they lie in a band of width a few bodies,
//! and the band LU with partial pivoting (`crate::linalg::band`, LAPACK's `xGBTF2`) costs
//! O(N) where a dense LU of the (n + m) × (n + m) matrix costs O(N³).
//!
//! The pattern is structural (read off the typed system's expressions when it is
//! compiled), so it is planned once per system. Small systems keep the dense LU, which
//! is cheaper below a few dozen rows and keeps the built-in mechanisms' runs as they were.

use crate::linear_solver::structured::{Factors, Layout, Plan};
use crate::linear_solver::{SparseJacobian, SPARSE_MIN_DIM};
use nalgebra::DMatrix;
use std::rc::Rc;

/// Where entry k of K's pattern (column-major) comes from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// M(r, c).
    Mass(usize, usize),
    /// Φ_q(r, c).
    PhiQ(usize, usize),
    /// −Φ_q(r, c) (the transposed block).
    MinusPhiQ(usize, usize),
}

/// K's pattern and the band plan of its factorisation.
pub struct SaddlePattern {
    template: SparseJacobian,
    sources: Vec<Source>,
    plan: Rc<Plan>,
}

impl SaddlePattern {
    /// The pattern of K from the structurally nonzero entries of Φ_q (m × n) and M
    /// (n × n), when K is big enough for a sparse factorisation to pay and its entries
    /// fit a narrow band (else `None`: the dense LU).
    pub fn new(
        n: usize,
        m: usize,
        phi_q: &[(usize, usize)],
        mass: &[(usize, usize)],
    ) -> Option<Self> {
        let dim = n + m;
        if dim < SPARSE_MIN_DIM {
            return None;
        }
        let mut cols: Vec<Vec<(usize, Source)>> = vec![Vec::new(); dim];
        for &(r, c) in mass {
            cols[c].push((r, Source::Mass(r, c)));
        }
        for &(r, c) in phi_q {
            cols[c].push((n + r, Source::PhiQ(r, c)));
            cols[n + r].push((c, Source::MinusPhiQ(r, c)));
        }
        let mut col_start = vec![0];
        let (mut rows, mut sources) = (Vec::new(), Vec::new());
        for mut col in cols {
            col.sort_unstable_by_key(|&(r, _)| r);
            col.dedup_by_key(|e| e.0);
            for (r, s) in col {
                rows.push(r);
                sources.push(s);
            }
            col_start.push(rows.len());
        }
        let template = SparseJacobian {
            n: dim,
            col_start,
            values: vec![0.0; rows.len()],
            rows,
        };
        let plan = Rc::new(Plan::analyse(&template)?);
        matches!(plan.layout(), Layout::Band { .. }).then_some(Self {
            template,
            sources,
            plan,
        })
    }

    /// K at (M, Φ_q) factored; `None` when an entry is not finite or the smallest pivot
    /// is below `pivot_ratio` times the largest (a singular saddle-point matrix, as the
    /// dense route judges it).
    pub fn factor(
        &self,
        mass: &DMatrix<f64>,
        phi_q: &DMatrix<f64>,
        pivot_ratio: f64,
    ) -> Option<Factors<f64>> {
        let mut k = self.template.clone();
        for (v, s) in k.values.iter_mut().zip(&self.sources) {
            *v = match *s {
                Source::Mass(r, c) => mass[(r, c)],
                Source::PhiQ(r, c) => phi_q[(r, c)],
                Source::MinusPhiQ(r, c) => -phi_q[(r, c)],
            };
        }
        let mut f = Factors::new(self.plan.clone());
        // 0·I − (−1)·K = K.
        if !f.factor(&k, 0.0, -1.0) {
            return None;
        }
        let (smallest, largest) = f.pivot_range()?;
        (smallest > pivot_ratio * largest).then_some(f)
    }
}
