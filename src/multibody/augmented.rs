//! The augmented (index-1) formulation of Gil, Sanfelice & Nikravesh (LLM) §2: y = (q, q̇) in body coordinates
//! and, at every f-evaluation, the saddle-point system of Gil, Sanfelice & Nikravesh (LLM) eq. (9)
//!
//! ```text
//! [ M   −Φ_qᵀ ] [ q̈ ]   [ Q(q, q̇) ]
//! [ Φ_q   0   ] [ λ ] = [ γ(q, q̇) ]
//! ```
//!
//! solved by nalgebra's LU with partial pivoting. A pivot below 1e-13 times the largest
//! (relative) is a singular saddle-point matrix (redundant or degenerate joints): a
//! typed [`ConstraintFailure::SingularSaddlePoint`], reported by the driver with t, h.
//!
//! **Jacobian (Gil, Sanfelice & Nikravesh (LLM) eqs. 10–15).** Differentiating eq. (9) with respect to a state
//! component y_c (∂M/∂q = 0 in body coordinates) gives
//! [[M, −Φ_qᵀ], [Φ_q, 0]] ∂(q̈, λ)/∂y_c = (∂Q/∂y_c + (∂Φ_q/∂y_c)ᵀ λ, ∂γ/∂y_c − (∂Φ_q/∂y_c) q̈),
//! eqs. (11)–(15) written with the saddle-point matrix instead of (Φ_q M⁻¹ Φ_qᵀ)⁻¹; the
//! same LU solves all columns. A mass matrix M(q) adds −(∂M/∂q_c) q̈ to the top rows; a
//! system that depends on t (a driven crank) adds one column for ∂(q̈, λ)/∂t, with
//! (∂Q/∂t + (∂Φ_q/∂t)ᵀλ, ∂γ/∂t − (∂Φ_q/∂t) q̈); otherwise ∂f/∂t = 0.
//!
//! The formulation runs on any [`Constrained`] system: the built-in [`Mechanism`](super::mechanism::Mechanism)s and
//! the mechanisms typed in the system language. [`saddle_point`] is the same solve over
//! any scalar for a [`Mechanism`](super::mechanism::Mechanism) (the tests differentiate it with dual numbers).
//!
//! **Drift.** The formulation keeps only Φ̈ = 0, so Φ and Φ_q q̇ drift away from 0 by the
//! integration error (Gil, Sanfelice & Nikravesh (LLM) Fig. 2); both norms are outputs. Stabilisation, off by
//! default: Baumgarte (γ ← γ − 2αΦ_q q̇ − β²Φ, also in the Jacobian) or projection after
//! every accepted step (q by Gauss–Newton with the minimum-norm correction
//! Δq = −Φ_qᵀ(Φ_qΦ_qᵀ)⁻¹Φ, then q̇ ← q̇ − Φ_qᵀ(Φ_qΦ_qᵀ)⁻¹Φ_q q̇).

use super::constrained::{Constrained, Derivatives};
pub(crate) use super::models::dot;
use super::models::{output_names, write_outputs, Description};
pub use super::saddle::{saddle, saddle_point, SaddleSolution, PIVOT_RATIO};
use super::{ConstraintFailure, ConstraintReport, Stabilization};
use crate::model::{Model, ModelInfo};
use crate::problem::System;
use nalgebra::{DMatrix, DVector};
use std::cell::{Cell, RefCell};

/// Tolerance ‖Φ‖∞ of the projection's Gauss–Newton iteration and its iteration cap.
pub const PROJECTION_TOL: f64 = 1e-12;
pub const PROJECTION_MAX_ITER: u32 = 20;

/// ∂q̈/∂q, ∂q̈/∂q̇ (n × n each) and, for a time-dependent system, ∂q̈/∂t from
/// eqs. (10)–(15), reusing Φ_q and the LU of `s` and the derivatives `der` at the same
/// state. With M(q) the top rows gain −(∂M/∂q_c) q̈ (eq. 11).
pub fn acceleration_jacobian<S: Constrained + ?Sized>(
    sys: &S,
    t: f64,
    q: &[f64],
    qd: &[f64],
    stab: Stabilization,
    s: &SaddleSolution,
    der: &Derivatives,
) -> Option<AccelerationJacobian> {
    let (n, m) = (sys.n(), sys.m());
    let mut dq_q = DMatrix::zeros(n, n);
    let mut dq_qd = DMatrix::zeros(n, n);
    sys.force_jacobian(t, q, qd, &mut dq_q, &mut dq_qd);
    let (mut gq, mut gqd) = (der.gamma_q.clone(), der.gamma_qd.clone());
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        gq -= der.velocity_constraint_q(qd) * (2.0 * alpha);
        gq -= &s.phi_q * (beta * beta);
        gqd -= &s.phi_q * (2.0 * alpha);
    }
    let timed = der.time.as_ref();
    let cols = 2 * n + usize::from(timed.is_some());
    let mut b = DMatrix::zeros(n + m, cols);
    for (c, ddc) in der.phi_q_q.iter().enumerate() {
        b.view_mut((0, c), (n, 1)).copy_from(&dq_q.column(c));
        b.view_mut((0, n + c), (n, 1)).copy_from(&dq_qd.column(c));
        b.view_mut((n, c), (m, 1)).copy_from(&gq.column(c));
        b.view_mut((n, n + c), (m, 1)).copy_from(&gqd.column(c));
        if let Some(ddc) = ddc {
            let top = ddc.tr_mul(s.lambda.as_slice());
            let bottom = ddc.mul(s.qdd.as_slice());
            let mut t = b.view_mut((0, c), (n, 1));
            t += top;
            let mut bt = b.view_mut((n, c), (m, 1));
            bt -= bottom;
        }
        if let Some(Some(dm)) = der.mass_q.get(c) {
            let mut t = b.view_mut((0, c), (n, 1));
            t -= dm * &s.qdd;
        }
    }
    if let Some(td) = timed {
        let top = &td.forces_t + td.phi_q_t.transpose() * &s.lambda;
        let mut bottom = &td.gamma_t - &td.phi_q_t * &s.qdd;
        if let Stabilization::Baumgarte { alpha, beta } = stab {
            let velocity_t = &td.phi_q_t * DVector::from_row_slice(qd) + &td.phi_tt;
            bottom -= velocity_t * (2.0 * alpha);
            if let Some(pt) = sys.phi_t(t, q) {
                bottom -= pt * (beta * beta);
            }
        }
        b.view_mut((0, 2 * n), (n, 1)).copy_from(&top);
        b.view_mut((n, 2 * n), (m, 1)).copy_from(&bottom);
    }
    let x = s.lu.solve(&b)?;
    Some(AccelerationJacobian {
        q: x.view((0, 0), (n, n)).into_owned(),
        qd: x.view((0, n), (n, n)).into_owned(),
        t: timed.map(|_| x.view((0, 2 * n), (n, 1)).column(0).into_owned()),
    })
}

/// ∂q̈/∂q, ∂q̈/∂q̇ and (time-dependent systems) ∂q̈/∂t.
pub struct AccelerationJacobian {
    pub q: DMatrix<f64>,
    pub qd: DMatrix<f64>,
    pub t: Option<DVector<f64>>,
}

/// Projects (q, q̇) onto Φ(q, t) = 0 and Φ_q q̇ + Φ_t = 0; returns the Gauss–Newton
/// iterations.
pub fn project<S: Constrained + ?Sized>(
    sys: &S,
    t: f64,
    q: &mut [f64],
    qd: &mut [f64],
) -> Result<u32, ConstraintFailure> {
    let n = sys.n();
    let mut iterations = 0;
    loop {
        let phi = sys.phi(t, q);
        let residual = phi.amax();
        if residual <= PROJECTION_TOL {
            break;
        }
        if iterations >= PROJECTION_MAX_ITER || !residual.is_finite() {
            return Err(ConstraintFailure::Newton {
                iterations,
                residual,
            });
        }
        let d = sys.phi_q(t, q);
        let lu = (&d * d.transpose()).lu();
        let mu = lu.solve(&phi).ok_or(ConstraintFailure::Partition {
            condition: f64::INFINITY,
        })?;
        let dq = d.transpose() * mu;
        for i in 0..n {
            q[i] -= dq[i];
        }
        iterations += 1;
    }
    let d = sys.phi_q(t, q);
    let mut v = &d * DVector::from_row_slice(qd);
    if let Some(pt) = sys.phi_t(t, q) {
        v += pt;
    }
    let mu = (&d * d.transpose())
        .lu()
        .solve(&v)
        .ok_or(ConstraintFailure::Partition {
            condition: f64::INFINITY,
        })?;
    let dv = d.transpose() * mu;
    for i in 0..n {
        qd[i] -= dv[i];
    }
    Ok(iterations)
}

/// The augmented model of a [`Description`].
pub struct Augmented {
    desc: Description,
    stab: Stabilization,
    failure: RefCell<Option<ConstraintFailure>>,
    newton: u64,
    solves: Cell<u64>,
    /// The last accepted (t, q), where a stop looks for locking constraints.
    last_t: f64,
    last_q: Vec<f64>,
}

/// Catalogue entry and model of the augmented formulation.
pub fn build(desc: Description, stab: Stabilization) -> (ModelInfo, Box<dyn Model>) {
    let n = desc.system.n();
    let coords = desc.system.coordinate_names();
    let mut names = coords.clone();
    names.extend(coords.iter().map(|c| dot(c)));
    let mut y0 = desc.q0.clone();
    y0.extend_from_slice(&desc.qd0);
    let native = &desc.native;
    let info = ModelInfo {
        id: native.id.clone(),
        name: format!(
            "{} — augmented (body coordinates + multipliers)",
            native.name
        ),
        dim: 2 * n,
        names,
        params: native.params.clone(),
        y0,
        t0: native.t0,
        t1: native.t1,
        source: format!(
            "{}; augmented index-1 formulation, Gil, Sanfelice & Nikravesh (LLM), eqs. (7)–(15)",
            native.source
        ),
        outputs: output_names(&desc),
        exact: false,
        second_order: true,
        events: vec![],
        formulations: native.formulations.clone(),
        fast: vec![],
    };
    let model = Augmented {
        last_t: desc.native.t0,
        last_q: desc.q0.clone(),
        desc,
        stab,
        failure: RefCell::new(None),
        newton: 0,
        solves: Cell::new(0),
    };
    (info, Box::new(model))
}

impl Augmented {
    fn record(&self, f: ConstraintFailure) {
        self.failure.borrow_mut().get_or_insert(f);
    }
}

impl System for Augmented {
    fn dim(&self) -> usize {
        2 * self.desc.system.n()
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.desc.system.n();
        dy[..n].copy_from_slice(&y[n..]);
        self.solves.set(self.solves.get() + 1);
        match saddle(self.desc.system.as_ref(), t, &y[..n], &y[n..], self.stab) {
            Ok(s) => dy[n..].copy_from_slice(s.qdd.as_slice()),
            Err(f) => {
                self.record(f);
                dy[n..].fill(f64::NAN);
            }
        }
    }

    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let (j, _) = self.derivatives(t, y)?;
        Some(j)
    }

    fn dfdt(&self, t: f64, y: &[f64]) -> Option<DVector<f64>> {
        if !self.desc.system.time_dependent() {
            return Some(DVector::zeros(y.len()));
        }
        let (_, ft) = self.derivatives(t, y)?;
        Some(ft)
    }
}

impl Augmented {
    /// ∂f/∂y and ∂f/∂t (zeros for an autonomous system) at (t, y).
    fn derivatives(&self, t: f64, y: &[f64]) -> Option<(DMatrix<f64>, DVector<f64>)> {
        let sys = self.desc.system.as_ref();
        let n = sys.n();
        let (q, qd) = y.split_at(n);
        self.solves.set(self.solves.get() + 1);
        let s = match saddle(sys, t, q, qd, self.stab) {
            Ok(s) => s,
            Err(f) => {
                self.record(f);
                // A NaN Jacobian makes the step's matrix fail; the driver then reports
                // the recorded failure.
                return Some((
                    DMatrix::from_element(2 * n, 2 * n, f64::NAN),
                    DVector::from_element(2 * n, f64::NAN),
                ));
            }
        };
        let der = sys.derivatives(t, q, qd);
        let acc = acceleration_jacobian(sys, t, q, qd, self.stab, &s, &der)?;
        let mut j = DMatrix::zeros(2 * n, 2 * n);
        for i in 0..n {
            j[(i, n + i)] = 1.0;
        }
        j.view_mut((n, 0), (n, n)).copy_from(&acc.q);
        j.view_mut((n, n), (n, n)).copy_from(&acc.qd);
        let mut ft = DVector::zeros(2 * n);
        if let Some(at) = acc.t {
            ft.rows_mut(n, n).copy_from(&at);
        }
        Some((j, ft))
    }
}

impl Model for Augmented {
    fn default_y0(&self) -> Option<Vec<f64>> {
        let mut y = self.desc.q0.clone();
        y.extend_from_slice(&self.desc.qd0);
        Some(y)
    }

    fn outputs(&self, t: f64, y: &[f64], out: &mut [f64]) {
        let n = self.desc.system.n();
        write_outputs(&self.desc, t, &y[..n], &y[n..], out);
    }

    fn acts_between_steps(&self) -> bool {
        true
    }

    fn take_failure(&self) -> Option<ConstraintFailure> {
        self.failure.borrow_mut().take()
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> Result<bool, ConstraintFailure> {
        let n = self.desc.system.n();
        if self.stab == Stabilization::Projection {
            let (q, qd) = y.split_at_mut(n);
            self.newton += u64::from(project(self.desc.system.as_ref(), t, q, qd)?);
        }
        self.last_t = t;
        self.last_q.copy_from_slice(&y[..n]);
        Ok(false)
    }

    fn constraint_report(&self) -> Option<ConstraintReport> {
        Some(ConstraintReport {
            formulation: "augmented".into(),
            independent: vec![],
            repartitions: vec![],
            newton_iterations: self.newton,
            saddle_solves: self.solves.get(),
            locked: super::locked_at(self.desc.system.as_ref(), self.last_t, &self.last_q),
        })
    }
}
