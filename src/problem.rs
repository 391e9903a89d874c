//! The system abstraction: y' = f(t, y), with an optional Jacobian ∂f/∂y and ∂f/∂t.
//!
//! Methods see only this trait; models implement it. Dense matrices are nalgebra's
//! `DMatrix`, row-major questions never arise at this level.

use crate::linear_solver::SparseJacobian;
use nalgebra::{DMatrix, DVector};

/// A first-order system y' = f(t, y) of fixed dimension.
pub trait System {
    /// Number of states.
    fn dim(&self) -> usize;

    /// Writes f(t, y) into `dy`. `y` and `dy` have length [`System::dim`].
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);

    /// The Jacobian ∂f/∂y at (t, y), if the system knows it analytically.
    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        None
    }

    /// The time derivative ∂f/∂t at (t, y), if the system knows it analytically.
    /// Autonomous systems return a zero vector.
    fn dfdt(&self, _t: f64, _y: &[f64]) -> Option<DVector<f64>> {
        None
    }

    /// The Jacobian in sparse form, if the system knows its sparsity pattern and the
    /// pattern is sparse enough to pay (`crate::linear_solver`); the stiff methods then
    /// factorise sparse.
    fn jacobian_sparse(&self, _t: f64, _y: &[f64]) -> Option<SparseJacobian> {
        None
    }
}
