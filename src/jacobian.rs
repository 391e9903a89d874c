//! Where the stiff and exponential methods get ∂f/∂y and ∂f/∂t.
//!
//! - **Analytic** (the default): the model's own [`System::jacobian`] and
//!   [`System::dfdt`]. Every built-in model has them; user systems (`src/expr`) get
//!   exact ones by forward-mode automatic differentiation over their tape.
//! - **Finite differences** (`jacobian: "fd"` in the spec), only on request: one-sided
//!   differences with the step δ_j = √ε · max(|y_j|, 1), which balances truncation
//!   (O(δ)) against cancellation (O(ε/δ)) for about 8 correct digits. Forward-mode AD
//!   over a built-in model would need its rhs written generically over dual numbers,
//!   which the built-in models are not; a model without a Jacobian and without
//!   `"fd"` is refused with [`OdeError::NoJacobian`] rather than silently approximated.
//!
//! [`JacobianProvider`] also implements the two teaching knobs of the spec:
//! `jacobianUpdate: k` (keep J frozen for k steps) and `jacobianScale: s` (hand the
//! method s·J: 0 gives J = 0, 3 gives J = 3·exact), which show that a W-method keeps
//! its order with an inexact Jacobian while a Rosenbrock method does not
//! (the Sources panel's errata). A retried step from the same (t, y) (after a rejection or
//! an event cut) reuses the Jacobian: `njev` counts real evaluations only.
//!
//! The provider keeps its dense matrix and ∂f/∂t and refills them each evaluation
//! ([`System::jacobian_into`], [`System::dfdt_into`]; a system with by-value
//! derivatives only has its matrix moved in): no allocation per step for a model that
//! fills buffers.
//!
//! A provider made [`JacobianProvider::sparse_if`] with its method's
//! `MethodInfo::sparse` (ros4, ros4-t2, w2, rodas, ode23s, bdf2, backward-euler,
//! implicit-midpoint, radau5, bdf, ndf, and llm above its dense limit) hands a [`Jacobian::Sparse`] when the system knows its
//! pattern (`System::jacobian_sparse`) and has at least [`SPARSE_MIN_DIM`] states; the
//! others always get the dense matrix.

use crate::error::OdeError;
use crate::linalg::append_short;
use crate::linear_solver::{Jacobian, SPARSE_MIN_DIM};
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

/// Where derivatives come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JacobianSource {
    /// The model's analytic (or AD) derivatives.
    #[default]
    Analytic,
    /// Forward finite differences of f.
    FiniteDifference,
}

/// How a method gets and reuses its Jacobian (from the spec's `jacobian`,
/// `jacobianUpdate` and `jacobianScale`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JacobianOptions {
    pub source: JacobianSource,
    /// Re-evaluate every `update_every` steps (1 = every step).
    pub update_every: usize,
    /// Factor applied to the Jacobian handed to the method (1 = exact).
    pub scale: f64,
}

impl Default for JacobianOptions {
    fn default() -> Self {
        Self {
            source: JacobianSource::Analytic,
            update_every: 1,
            scale: 1.0,
        }
    }
}

impl JacobianOptions {
    /// The checked options of a spec's `jacobian`, `jacobianUpdate`, `jacobianScale`.
    pub fn from_spec(
        source: Option<&str>,
        update_every: Option<usize>,
        scale: Option<f64>,
    ) -> Result<Self, OdeError> {
        let source = match source {
            None | Some("analytic") => JacobianSource::Analytic,
            Some("fd") => JacobianSource::FiniteDifference,
            Some(other) => {
                return Err(OdeError::BadSpec {
                    message: format!(
                        "unknown jacobian \"{other}\"; the choices are \"analytic\" (the \
                         model's own derivatives) and \"fd\" (finite differences)"
                    ),
                })
            }
        };
        let update_every = update_every.unwrap_or(1);
        if update_every == 0 {
            return Err(OdeError::OutOfRange {
                what: "jacobianUpdate".into(),
                value: 0.0,
                allowed: "a whole number of steps, 1 or more".into(),
            });
        }
        let scale = scale.unwrap_or(1.0);
        if !scale.is_finite() {
            return Err(OdeError::NotFinite {
                what: "jacobianScale".into(),
            });
        }
        Ok(Self {
            source,
            update_every,
            scale,
        })
    }
}

/// ∂f/∂y at (t, y): analytic or by finite differences; counts `njev` (and the f
/// evaluations of the differences in `nfev`).
pub fn jacobian(
    sys: &dyn System,
    source: JacobianSource,
    method: &str,
    t: f64,
    y: &[f64],
    stats: &mut Stats,
) -> Result<DMatrix<f64>, OdeError> {
    let mut jac = DMatrix::zeros(y.len(), y.len());
    jacobian_into(sys, source, method, t, y, &mut jac, stats)?;
    Ok(jac)
}

/// As [`jacobian`], into `jac` (made n × n first if it is not): no allocation when the
/// system fills the buffer itself ([`System::jacobian_into`]), else its by-value
/// [`System::jacobian`] replaces the buffer.
pub fn jacobian_into(
    sys: &dyn System,
    source: JacobianSource,
    method: &str,
    t: f64,
    y: &[f64],
    jac: &mut DMatrix<f64>,
    stats: &mut Stats,
) -> Result<(), OdeError> {
    let n = y.len();
    if jac.shape() != (n, n) {
        *jac = DMatrix::zeros(n, n);
    }
    stats.njev += 1;
    match source {
        JacobianSource::Analytic => {
            if !sys.jacobian_into(t, y, jac) {
                *jac = sys.jacobian(t, y).ok_or_else(|| no_jacobian(method))?;
            }
            // A model bug, not user input; still an error rather than a panic later.
            if jac.shape() != (n, n) {
                return Err(OdeError::WrongLength {
                    what: "the model's Jacobian (rows × columns)".into(),
                    expected: n * n,
                    got: jac.len(),
                });
            }
            Ok(())
        }
        JacobianSource::FiniteDifference => {
            let mut f0 = vec![0.0; n];
            sys.rhs(t, y, &mut f0);
            let mut yp = y.to_vec();
            let mut fp = vec![0.0; n];
            for j in 0..n {
                let delta = f64::EPSILON.sqrt() * y[j].abs().max(1.0);
                yp[j] = y[j] + delta;
                // The step actually taken, after rounding of y_j + δ.
                let dj = yp[j] - y[j];
                sys.rhs(t, &yp, &mut fp);
                for i in 0..n {
                    jac[(i, j)] = (fp[i] - f0[i]) / dj;
                }
                yp[j] = y[j];
            }
            stats.nfev += n as u64 + 1;
            Ok(())
        }
    }
}

/// ∂f/∂t at (t, y): analytic, or a forward difference in t (2 f evaluations).
pub fn dfdt(
    sys: &dyn System,
    source: JacobianSource,
    method: &str,
    t: f64,
    y: &[f64],
    stats: &mut Stats,
) -> Result<DVector<f64>, OdeError> {
    let mut ft = DVector::zeros(y.len());
    dfdt_into(sys, source, method, t, y, &mut ft, stats)?;
    Ok(ft)
}

/// As [`dfdt`], into `ft` (made length n first if it is not).
pub fn dfdt_into(
    sys: &dyn System,
    source: JacobianSource,
    method: &str,
    t: f64,
    y: &[f64],
    ft: &mut DVector<f64>,
    stats: &mut Stats,
) -> Result<(), OdeError> {
    let n = y.len();
    if ft.len() != n {
        *ft = DVector::zeros(n);
    }
    match source {
        JacobianSource::Analytic => {
            if !sys.dfdt_into(t, y, ft) {
                *ft = sys.dfdt(t, y).ok_or_else(|| no_jacobian(method))?;
            }
            if ft.len() != n {
                return Err(OdeError::WrongLength {
                    what: "the model's ∂f/∂t".into(),
                    expected: n,
                    got: ft.len(),
                });
            }
            Ok(())
        }
        JacobianSource::FiniteDifference => {
            let mut f0 = vec![0.0; n];
            let mut f1 = vec![0.0; n];
            let delta = f64::EPSILON.sqrt() * t.abs().max(1.0);
            let t1 = t + delta;
            sys.rhs(t, y, &mut f0);
            sys.rhs(t1, y, &mut f1);
            stats.nfev += 2;
            let dt = t1 - t;
            for ((d, a), b) in ft.iter_mut().zip(&f0).zip(&f1) {
                *d = (b - a) / dt;
            }
            Ok(())
        }
    }
}

fn no_jacobian(method: &str) -> OdeError {
    OdeError::NoJacobian {
        method: method.to_string(),
        model: "this system".to_string(),
    }
}

/// The Jacobian a method works with, kept between steps: reused for a retry from the
/// same point, frozen for `update_every` steps, scaled by `scale`. Its dense matrix and
/// ∂f/∂t are buffers every evaluation refills: a step allocates nothing here when the
/// system fills them itself ([`System::jacobian_into`], [`System::dfdt_into`]).
#[derive(Debug, Clone)]
pub struct JacobianProvider {
    options: JacobianOptions,
    method: &'static str,
    /// Whether the method takes a sparse Jacobian ([`JacobianProvider::sparse`]).
    sparse: bool,
    /// The current ∂f/∂y, meaningful once `held`.
    jac: Jacobian,
    held: bool,
    /// The point of the last call, so a retry from it is recognised.
    at_t: f64,
    at_y: Vec<f64>,
    /// Distinct starting points served by the current `jac`.
    uses: usize,
    /// ∂f/∂t at (`at_t`, `at_y`).
    ft: DVector<f64>,
    /// `ft` holds an autonomous system's analytic ∂f/∂t, zeros that no later point
    /// changes: it is not asked for again ([`System::autonomous`]).
    ft_constant: bool,
}

impl JacobianProvider {
    // Out of line: every stiff stepper's constructor builds one (smaller first-load
    // wasm).
    #[inline(never)]
    pub fn new(method: &'static str, options: JacobianOptions) -> Self {
        Self {
            options,
            method,
            sparse: false,
            jac: Jacobian::Dense(DMatrix::zeros(0, 0)),
            held: false,
            at_t: f64::NAN,
            at_y: Vec::new(),
            uses: 0,
            ft: DVector::zeros(0),
            ft_constant: false,
        }
    }

    /// The same provider, handing sparse Jacobians when `on` (the method's
    /// `MethodInfo::sparse`: it factorises them, `crate::linear_solver::StepMatrix`).
    pub fn sparse_if(mut self, on: bool) -> Self {
        self.sparse = on;
        self
    }

    /// Evaluates ∂f/∂y at (t, y) into `jac`: sparse when the method and the system
    /// allow it, else into the dense buffer; scaled.
    fn evaluate(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.held = false;
        let analytic = self.options.source == JacobianSource::Analytic;
        let sparse_possible = self.sparse && analytic && y.len() >= SPARSE_MIN_DIM;
        // The usual case first: an analytic J the system writes into the kept dense
        // buffer, unscaled (what the general path below comes to after checking for a
        // sparse form, a by-value J and a scale: ~2 % of a ros4 solve of Van der Pol in
        // WASM). A system without `jacobian_into` falls through to the general path.
        let dense_into = analytic && self.options.scale == 1.0 && !sparse_possible;
        if let (true, Jacobian::Dense(m)) = (dense_into, &mut self.jac) {
            if m.shape() == (y.len(), y.len()) && sys.jacobian_into(t, y, m) {
                stats.njev += 1;
                self.held = true;
                return Ok(());
            }
        }
        // Asked for only when it may be used (no empty Option of a sparse matrix to
        // build and drop on every dense evaluation).
        let sparse = if sparse_possible {
            sys.jacobian_sparse(t, y).filter(|s| s.n == y.len())
        } else {
            None
        };
        if let Some(s) = sparse {
            stats.njev += 1;
            self.jac = Jacobian::Sparse(s);
        } else {
            if let Jacobian::Sparse(_) = self.jac {
                self.jac = Jacobian::Dense(DMatrix::zeros(0, 0));
            }
            if let Jacobian::Dense(m) = &mut self.jac {
                jacobian_into(sys, self.options.source, self.method, t, y, m, stats)?;
            }
        }
        if self.options.scale != 1.0 {
            self.jac.scale(self.options.scale);
        }
        self.held = true;
        Ok(())
    }

    /// A freshly evaluated (and scaled) ∂f/∂y at (t, y), for a Newton iteration that
    /// needs a better one than the step started with. It becomes the provider's
    /// current Jacobian.
    pub fn fresh(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) -> Result<&Jacobian, OdeError> {
        self.evaluate(sys, t, y, stats)?;
        self.uses = 1;
        Ok(&self.jac)
    }

    /// The Jacobian last evaluated, if any (a method that decides itself when to
    /// refresh it: `bdf`, `ndf`).
    pub fn held(&self) -> Option<&Jacobian> {
        self.held.then_some(&self.jac)
    }

    /// The (possibly frozen, scaled) ∂f/∂y and the ∂f/∂t for a step from (t, y).
    /// ∂f/∂t is always evaluated at (t, y) (it is cheap and only the Jacobian is the
    /// subject of the knobs).
    pub fn at(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) -> Result<(&DMatrix<f64>, &DVector<f64>), OdeError> {
        let method = self.method;
        match self.at_any(sys, t, y, stats)? {
            (Jacobian::Dense(j), ft) => Ok((j, ft)),
            // Only a provider made `sparse()` holds a sparse one, and it calls `at_any`.
            (Jacobian::Sparse(_), _) => Err(no_jacobian(method)),
        }
    }

    /// As [`JacobianProvider::at`], dense or sparse.
    pub fn at_any(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) -> Result<(&Jacobian, &DVector<f64>), OdeError> {
        let same_point = self.held && t == self.at_t && y == self.at_y.as_slice();
        if !same_point {
            let fresh = !self.held || self.uses >= self.options.update_every;
            if fresh {
                self.evaluate(sys, t, y, stats)?;
                self.uses = 0;
            }
            self.uses += 1;
            if !(self.ft_constant && self.ft.len() == y.len()) {
                let (source, method) = (self.options.source, self.method);
                dfdt_into(sys, source, method, t, y, &mut self.ft, stats)?;
                // Finite differences count f evaluations: they are taken every time.
                self.ft_constant = source == JacobianSource::Analytic && sys.autonomous();
            }
            self.at_t = t;
            self.at_y.clear();
            append_short(&mut self.at_y, y);
        }
        Ok((&self.jac, &self.ft))
    }
}
