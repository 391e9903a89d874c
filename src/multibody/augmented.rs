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
//! same LU solves all columns. ∂f/∂t = 0 (autonomous).
//!
//! **Drift.** The formulation keeps only Φ̈ = 0, so Φ and Φ_q q̇ drift away from 0 by the
//! integration error (Gil, Sanfelice & Nikravesh (LLM) Fig. 2); both norms are outputs. Stabilisation, off by
//! default: Baumgarte (γ ← γ − 2αΦ_q q̇ − β²Φ, also in the Jacobian) or projection after
//! every accepted step (q by Gauss–Newton with the minimum-norm correction
//! Δq = −Φ_qᵀ(Φ_qΦ_qᵀ)⁻¹Φ, then q̇ ← q̇ − Φ_qᵀ(Φ_qΦ_qᵀ)⁻¹Φ_q q̇).

use super::mechanism::{Derivatives, Mechanism, Scalar};
pub(crate) use super::models::dot;
use super::models::{output_names, write_outputs, Description};
use super::{ConstraintFailure, ConstraintReport, Stabilization};
use crate::model::{Model, ModelInfo};
use crate::problem::System;
use nalgebra::{DMatrix, DVector};
use std::cell::{Cell, RefCell};

/// Smallest pivot, relative to the largest, of a saddle-point LU still accepted.
pub const PIVOT_RATIO: f64 = 1e-13;
/// Tolerance ‖Φ‖∞ of the projection's Gauss–Newton iteration and its iteration cap.
pub const PROJECTION_TOL: f64 = 1e-12;
pub const PROJECTION_MAX_ITER: u32 = 20;

/// q̈, λ and the LU of eq. (9) at one state.
pub struct SaddleSolution<T: Scalar = f64> {
    /// Φ_q at the state (the matrix's off-diagonal blocks).
    pub phi_q: DMatrix<T>,
    pub lu: nalgebra::LU<T, nalgebra::Dyn, nalgebra::Dyn>,
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
    let (n, m) = (mech.n(), mech.m());
    let d = mech.phi_q(q);
    let mut k = DMatrix::zeros(n + m, n + m);
    for (i, mi) in mech.mass_diagonal().iter().enumerate() {
        k[(i, i)] = T::of(*mi);
    }
    for r in 0..m {
        for c in 0..n {
            k[(c, n + r)] = -d[(r, c)];
            k[(n + r, c)] = d[(r, c)];
        }
    }
    let mut gamma = mech.gamma(q, qd);
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        gamma -= (&d * DVector::from_row_slice(qd)) * T::of(2.0 * alpha)
            + mech.phi(q) * T::of(beta * beta);
    }
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&mech.forces(q, qd));
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
        lu,
        qdd: x.rows(0, n).into_owned(),
        lambda: x.rows(n, m).into_owned(),
    })
}

/// ∂q̈/∂q and ∂q̈/∂q̇ (n × n each) from eqs. (10)–(15), reusing Φ_q and the LU of `s`
/// and the derivatives `der` of Φ_q and γ at the same state.
pub fn acceleration_jacobian(
    mech: &Mechanism,
    q: &[f64],
    qd: &[f64],
    stab: Stabilization,
    s: &SaddleSolution,
    der: &Derivatives,
) -> Option<(DMatrix<f64>, DMatrix<f64>)> {
    let (n, m) = (mech.n(), mech.m());
    let mut dq_q = DMatrix::zeros(n, n);
    let mut dq_qd = DMatrix::zeros(n, n);
    mech.force_jacobian(q, qd, &mut dq_q, &mut dq_qd);
    let (mut gq, mut gqd) = (der.gamma_q.clone(), der.gamma_qd.clone());
    if let Stabilization::Baumgarte { alpha, beta } = stab {
        gq -= der.velocity_constraint_q(qd) * (2.0 * alpha);
        gq -= &s.phi_q * (beta * beta);
        gqd -= &s.phi_q * (2.0 * alpha);
    }
    let mut b = DMatrix::zeros(n + m, 2 * n);
    for (c, ddc) in der.phi_q_q.iter().enumerate() {
        b.view_mut((0, c), (n, 1)).copy_from(&dq_q.column(c));
        b.view_mut((0, n + c), (n, 1)).copy_from(&dq_qd.column(c));
        b.view_mut((n, c), (m, 1)).copy_from(&gq.column(c));
        b.view_mut((n, n + c), (m, 1)).copy_from(&gqd.column(c));
        if let Some(ddc) = ddc {
            let top = ddc.transpose() * &s.lambda;
            let bottom = ddc * &s.qdd;
            let mut t = b.view_mut((0, c), (n, 1));
            t += top;
            let mut bt = b.view_mut((n, c), (m, 1));
            bt -= bottom;
        }
    }
    let x = s.lu.solve(&b)?;
    Some((
        x.view((0, 0), (n, n)).into_owned(),
        x.view((0, n), (n, n)).into_owned(),
    ))
}

/// Projects (q, q̇) onto Φ = 0 and Φ_q q̇ = 0; returns the Gauss–Newton iterations.
pub fn project(mech: &Mechanism, q: &mut [f64], qd: &mut [f64]) -> Result<u32, ConstraintFailure> {
    let n = mech.n();
    let mut iterations = 0;
    loop {
        let phi = mech.phi(q);
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
        let d = mech.phi_q(q);
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
    let d = mech.phi_q(q);
    let v = &d * DVector::from_row_slice(qd);
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
}

/// Catalogue entry and model of the augmented formulation.
pub fn build(desc: Description, stab: Stabilization) -> (ModelInfo, Box<dyn Model>) {
    let n = desc.mechanism.n();
    let coords = desc.mechanism.coordinate_names();
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
        2 * self.desc.mechanism.n()
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.desc.mechanism.n();
        dy[..n].copy_from_slice(&y[n..]);
        self.solves.set(self.solves.get() + 1);
        match saddle_point(&self.desc.mechanism, &y[..n], &y[n..], self.stab) {
            Ok(s) => dy[n..].copy_from_slice(s.qdd.as_slice()),
            Err(f) => {
                self.record(f);
                dy[n..].fill(f64::NAN);
            }
        }
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let mech = &self.desc.mechanism;
        let n = mech.n();
        let (q, qd) = y.split_at(n);
        self.solves.set(self.solves.get() + 1);
        let s = match saddle_point(mech, q, qd, self.stab) {
            Ok(s) => s,
            Err(f) => {
                self.record(f);
                // A NaN Jacobian makes the step's matrix fail; the driver then reports
                // the recorded failure.
                return Some(DMatrix::from_element(2 * n, 2 * n, f64::NAN));
            }
        };
        let der = mech.derivatives(q, qd);
        let (jq, jqd) = acceleration_jacobian(mech, q, qd, self.stab, &s, &der)?;
        let mut j = DMatrix::zeros(2 * n, 2 * n);
        for i in 0..n {
            j[(i, n + i)] = 1.0;
        }
        j.view_mut((n, 0), (n, n)).copy_from(&jq);
        j.view_mut((n, n), (n, n)).copy_from(&jqd);
        Some(j)
    }

    fn dfdt(&self, _t: f64, y: &[f64]) -> Option<DVector<f64>> {
        Some(DVector::zeros(y.len()))
    }
}

impl Model for Augmented {
    fn default_y0(&self) -> Option<Vec<f64>> {
        let mut y = self.desc.q0.clone();
        y.extend_from_slice(&self.desc.qd0);
        Some(y)
    }

    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        let n = self.desc.mechanism.n();
        write_outputs(&self.desc, &y[..n], &y[n..], out);
    }

    fn acts_between_steps(&self) -> bool {
        true
    }

    fn take_failure(&self) -> Option<ConstraintFailure> {
        self.failure.borrow_mut().take()
    }

    fn after_step(&mut self, _t: f64, y: &mut [f64]) -> Result<bool, ConstraintFailure> {
        if self.stab == Stabilization::Projection {
            let n = self.desc.mechanism.n();
            let (q, qd) = y.split_at_mut(n);
            self.newton += u64::from(project(&self.desc.mechanism, q, qd)?);
        }
        Ok(false)
    }

    fn constraint_report(&self) -> Option<ConstraintReport> {
        Some(ConstraintReport {
            formulation: "augmented".into(),
            independent: vec![],
            repartitions: vec![],
            newton_iterations: self.newton,
            saddle_solves: self.solves.get(),
        })
    }
}
