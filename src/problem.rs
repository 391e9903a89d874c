//! The system abstraction: y' = f(t, y), with an optional Jacobian ∂f/∂y and ∂f/∂t.
//!
//! Methods see only this trait; models implement it. Dense matrices are nalgebra's
//! `DMatrix`, row-major questions never arise at this level.
//!
//! The derivatives come two ways: by value ([`System::jacobian`], [`System::dfdt`]:
//! whether the system has them at all, and what a one-off caller reads) and into the
//! caller's buffers ([`System::jacobian_into`], [`System::dfdt_into`]: what the stiff
//! methods call every step, through `crate::jacobian::JacobianProvider`). The `_into`
//! forms say "not filled" by default and the caller falls back to the by-value ones,
//! so a system that only has those keeps working; a model on a hot path overrides
//! them to fill the buffer without allocating, and then writes its by-value forms
//! through them (one formula).

use crate::linalg::fill_short;
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

    /// Whether [`System::jacobian`] and [`System::dfdt`] answer, asked once before a run
    /// by the methods that need them. The default asks both at (t, y); a system whose
    /// derivatives always exist says so without building the n × n matrix only to drop
    /// it (a typed 2,000-state system's dense Jacobian is 32 MB).
    fn has_derivatives(&self, t: f64, y: &[f64]) -> bool {
        self.jacobian(t, y).is_some() && self.dfdt(t, y).is_some()
    }

    /// Whether f does not depend on t: ∂f/∂t ≡ 0, which the defaults of
    /// [`System::dfdt`] and [`System::dfdt_into`] then give, and which a Rosenbrock
    /// step's provider fills once instead of asking every step
    /// (`crate::jacobian::JacobianProvider`). The default, false, is always safe.
    fn autonomous(&self) -> bool {
        false
    }

    /// The time derivative ∂f/∂t at (t, y), if the system knows it analytically. The
    /// default: zeros for an [`System::autonomous`] system, else unknown.
    fn dfdt(&self, _t: f64, _y: &[f64]) -> Option<DVector<f64>> {
        self.autonomous().then(|| DVector::zeros(self.dim()))
    }

    /// Writes ∂f/∂y at (t, y) into `jac` (the caller's n × n buffer) and returns true,
    /// for a system that fills buffers; the default returns false without writing,
    /// and the caller asks [`System::jacobian`] instead.
    fn jacobian_into(&self, _t: f64, _y: &[f64], _jac: &mut DMatrix<f64>) -> bool {
        false
    }

    /// Writes ∂f/∂t at (t, y) into `ft` (the caller's length-n buffer) and returns
    /// true, for a system that fills buffers. The default fills an
    /// [`System::autonomous`] system's zeros; for any other it returns false without
    /// writing, and the caller asks [`System::dfdt`] instead.
    fn dfdt_into(&self, _t: f64, _y: &[f64], ft: &mut DVector<f64>) -> bool {
        if self.autonomous() {
            fill_short(ft.as_mut_slice(), 0.0);
        }
        self.autonomous()
    }

    /// The Jacobian in sparse form, if the system knows its sparsity pattern and the
    /// pattern is sparse enough to pay (`crate::linear_solver`); the stiff methods then
    /// factorise sparse.
    fn jacobian_sparse(&self, _t: f64, _y: &[f64]) -> Option<SparseJacobian> {
        None
    }

    /// For a differential-algebraic system M y' = f(t, y), its structure ([`Dae`]);
    /// `None` (the default) for an ODE, M = I. Only a method that says it integrates
    /// such systems may be given one (radau5).
    fn dae(&self) -> Option<Dae> {
        None
    }
}

/// The structure of a differential-algebraic system M y' = f(t, y) in the form of
/// Hairer & Wanner's RADAU5 (Solving ODEs II §VII.8): M = diag(1, …, 1, 0, …, 0), the
/// components ordered by index, `index[0]` of index 0–1, `index[1]` of index 2,
/// `index[2]` of index 3 (RADAU5's NIND1, NIND2, NIND3), and M's ones on the first
/// `differential` components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dae {
    pub index: [usize; 3],
    pub differential: usize,
}
