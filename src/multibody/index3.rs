//! The index-3 formulation: the equations of motion and the position constraints as
//! they stand (Gil, Sanfelice & Nikravesh (LLM) §2 eqs. 7–8), a differential-algebraic
//! system integrated directly by radau5 as Hairer & Wanner integrate mechanical
//! systems (Solving ODEs II §VII.8, "index 3 problems"; their code RADAU5 with
//! IMAS = 1 and NIND1, NIND2, NIND3):
//!
//! ```text
//! q̇ = v                                   index 1 (n components)
//! v̇ = M(q)⁻¹ (Q(q, v, t) + Φ_qᵀ λ)         index 2 (n components)
//! 0 = Φ(q, t)                             index 3 (m components, M's zeros)
//! ```
//!
//! y = (q, v, λ), mass matrix diag(I, I, 0); λ has the sign of the saddle-point system
//! [[M, −Φ_qᵀ], [Φ_q, 0]] (q̈, λ) = (Q, γ) of the other formulations (`saddle.rs`), so
//! that the multipliers of all three are the same numbers. M(q)⁻¹ is applied on the right so that
//! the DAE's mass matrix stays constant also for a configuration-dependent M(q) (a
//! typed `mass(x, φ) = …`): each f-evaluation solves with M(q) (an LU, diagonal for
//! body coordinates). The velocity constraints are not imposed, only implied: Φ holds
//! at every stage to the Newton tolerance, Φ_q q̇ to the integration error.
//!
//! radau5 measures the errors of v and λ multiplied by h and h² (their Newton and
//! error scales divided by h, h²), which makes the estimate of an index-k component,
//! O(h^(−k+1)) too large, one that step-size control can use.
//!
//! **Jacobian.** With a = M⁻¹(Q + Φ_qᵀλ): ∂a/∂q_c = M⁻¹(∂Q/∂q_c + (∂Φ_q/∂q_c)ᵀλ −
//! (∂M/∂q_c) a), ∂a/∂v = M⁻¹ ∂Q/∂q̇, ∂a/∂λ = M⁻¹Φ_qᵀ; the constraint rows are
//! (Φ_q, 0, 0). ∂f/∂t = (0, M⁻¹(∂Q/∂t + (∂Φ_q/∂t)ᵀλ), Φ_t).

use super::augmented::dot;
use super::models::{output_names, write_outputs, Description};
use super::saddle::saddle;
use super::{ConstraintFailure, ConstraintReport, Stabilization};
use crate::error::OdeError;
use crate::model::{Model, ModelInfo};
use crate::problem::{Dae, System};
use nalgebra::{DMatrix, DVector};
use std::cell::{Cell, RefCell};

/// The only method that integrates the index-3 formulation.
pub const METHOD: &str = "radau5";

/// The index-3 model of a [`Description`].
pub struct Index3 {
    desc: Description,
    y0: Vec<f64>,
    failure: RefCell<Option<ConstraintFailure>>,
    solves: Cell<u64>,
    /// The last accepted (t, q), where a stop looks for locking constraints.
    last_t: f64,
    last_q: Vec<f64>,
}

/// Catalogue entry and model of the index-3 formulation, started from the
/// description's (consistent) q, q̇ and the multipliers of eq. (9) there.
pub fn build(desc: Description) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    let sys = desc.system.as_ref();
    let (n, m) = (sys.n(), sys.m());
    let t0 = desc.native.t0;
    let start =
        saddle(sys, t0, &desc.q0, &desc.qd0, Stabilization::None).map_err(|f| f.at(t0, 0.0))?;
    let coords = sys.coordinate_names();
    let mut names = coords.clone();
    names.extend(coords.iter().map(|c| dot(c)));
    names.extend(sys.constraint_names().iter().map(|c| format!("λ({c})")));
    let mut y0 = desc.q0.clone();
    y0.extend_from_slice(&desc.qd0);
    y0.extend(start.lambda.iter());
    let native = &desc.native;
    let info = ModelInfo {
        id: native.id.clone(),
        name: format!(
            "{} — index-3 DAE (coordinates, velocities, multipliers)",
            native.name
        ),
        dim: 2 * n + m,
        names,
        params: native.params.clone(),
        y0: y0.clone(),
        t0: native.t0,
        t1: native.t1,
        source: format!(
            "{}; index-3 DAE integrated by Radau IIA, Hairer & Wanner, Solving ODEs II §VII.8",
            native.source
        ),
        outputs: output_names(&desc),
        exact: false,
        second_order: false,
        events: vec![],
        formulations: native.formulations.clone(),
        fast: vec![],
    };
    let model = Index3 {
        last_t: desc.native.t0,
        last_q: desc.q0.clone(),
        desc,
        y0,
        failure: RefCell::new(None),
        solves: Cell::new(0),
    };
    Ok((info, Box::new(model)))
}

impl Index3 {
    fn record(&self, f: ConstraintFailure) {
        self.failure.borrow_mut().get_or_insert(f);
    }

    /// a = M⁻¹(Q + Φ_qᵀλ), M's LU and Φ_q at (t, q, v, λ).
    fn acceleration(&self, t: f64, q: &[f64], v: &[f64], lambda: &[f64]) -> Option<Accel> {
        let sys = self.desc.system.as_ref();
        self.solves.set(self.solves.get() + 1);
        let d = sys.phi_q(t, q);
        let rhs = sys.forces(t, q, v) + d.transpose() * DVector::from_row_slice(lambda);
        let lu = sys.mass(q).lu();
        let a = lu.solve(&rhs).filter(|a| a.iter().all(|x| x.is_finite()));
        match a {
            Some(a) => Some(Accel { a, lu, phi_q: d }),
            None => {
                self.record(ConstraintFailure::SingularSaddlePoint);
                None
            }
        }
    }

    fn derivatives(&self, t: f64, y: &[f64]) -> (DMatrix<f64>, DVector<f64>) {
        let sys = self.desc.system.as_ref();
        let (n, m) = (sys.n(), sys.m());
        let dim = 2 * n + m;
        let (q, rest) = y.split_at(n);
        let (v, lambda) = rest.split_at(n);
        let Some(acc) = self.acceleration(t, q, v, lambda) else {
            // A NaN Jacobian makes the step's matrix fail; the driver then reports the
            // recorded failure.
            return (
                DMatrix::from_element(dim, dim, f64::NAN),
                DVector::from_element(dim, f64::NAN),
            );
        };
        let der = sys.derivatives(t, q, v);
        let lam = DVector::from_row_slice(lambda);
        let mut dq = DMatrix::zeros(n, n);
        let mut dv = DMatrix::zeros(n, n);
        sys.force_jacobian(t, q, v, &mut dq, &mut dv);
        for (c, ddc) in der.phi_q_q.iter().enumerate() {
            if let Some(ddc) = ddc {
                let mut col = dq.column_mut(c);
                col += ddc.tr_mul(lam.as_slice());
            }
            if let Some(Some(dm)) = der.mass_q.get(c) {
                let mut col = dq.column_mut(c);
                col -= dm * &acc.a;
            }
        }
        let mut dl = acc.phi_q.transpose();
        let solve = |b: &mut DMatrix<f64>| acc.lu.solve_mut(b);
        let ok = solve(&mut dq) && solve(&mut dv) && solve(&mut dl);
        let mut j = DMatrix::zeros(dim, dim);
        for i in 0..n {
            j[(i, n + i)] = 1.0;
        }
        j.view_mut((n, 0), (n, n)).copy_from(&dq);
        j.view_mut((n, n), (n, n)).copy_from(&dv);
        j.view_mut((n, 2 * n), (n, m)).copy_from(&dl);
        j.view_mut((2 * n, 0), (m, n)).copy_from(&acc.phi_q);
        let mut ft = DVector::zeros(dim);
        if let Some(td) = &der.time {
            let mut at = &td.forces_t + td.phi_q_t.transpose() * &lam;
            let ok_t = acc.lu.solve_mut(&mut at);
            ft.rows_mut(n, n).copy_from(&at);
            if !ok_t {
                ft.fill(f64::NAN);
            }
        }
        if let Some(pt) = sys.phi_t(t, q) {
            ft.rows_mut(2 * n, m).copy_from(&pt);
        }
        if !ok {
            self.record(ConstraintFailure::SingularSaddlePoint);
            j.fill(f64::NAN);
        }
        (j, ft)
    }
}

struct Accel {
    a: DVector<f64>,
    lu: nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>,
    phi_q: DMatrix<f64>,
}

impl System for Index3 {
    fn dim(&self) -> usize {
        let sys = self.desc.system.as_ref();
        2 * sys.n() + sys.m()
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let sys = self.desc.system.as_ref();
        let n = sys.n();
        let (q, rest) = y.split_at(n);
        let (v, lambda) = rest.split_at(n);
        dy[..n].copy_from_slice(v);
        match self.acceleration(t, q, v, lambda) {
            Some(acc) => dy[n..2 * n].copy_from_slice(acc.a.as_slice()),
            None => dy[n..2 * n].fill(f64::NAN),
        }
        dy[2 * n..].copy_from_slice(sys.phi(t, q).as_slice());
    }

    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        Some(self.derivatives(t, y).0)
    }

    fn dfdt(&self, t: f64, y: &[f64]) -> Option<DVector<f64>> {
        if !self.desc.system.time_dependent() {
            return Some(DVector::zeros(y.len()));
        }
        Some(self.derivatives(t, y).1)
    }

    fn dae(&self) -> Option<Dae> {
        let sys = self.desc.system.as_ref();
        let (n, m) = (sys.n(), sys.m());
        Some(Dae {
            index: [n, n, m],
            differential: 2 * n,
        })
    }
}

impl Model for Index3 {
    fn default_y0(&self) -> Option<Vec<f64>> {
        Some(self.y0.clone())
    }

    /// The outputs of every formulation, with the multipliers (when reported) the
    /// integrated λ of the state rather than eq. (9)'s at (q, q̇).
    fn outputs(&self, t: f64, y: &[f64], out: &mut [f64]) {
        let n = self.desc.system.n();
        write_outputs(&self.desc, t, &y[..n], &y[n..2 * n], out);
        if self.desc.multipliers {
            let m = self.desc.system.m();
            let k = out.len() - m;
            out[k..].copy_from_slice(&y[2 * n..]);
        }
    }

    fn acts_between_steps(&self) -> bool {
        true
    }

    fn take_failure(&self) -> Option<ConstraintFailure> {
        self.failure.borrow_mut().take()
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> Result<bool, ConstraintFailure> {
        let n = self.desc.system.n();
        self.last_t = t;
        self.last_q.copy_from_slice(&y[..n]);
        Ok(false)
    }

    fn constraint_report(&self) -> Option<ConstraintReport> {
        Some(ConstraintReport {
            formulation: "index-3".into(),
            independent: vec![],
            repartitions: vec![],
            newton_iterations: 0,
            saddle_solves: self.solves.get(),
            locked: super::locked_at(self.desc.system.as_ref(), self.last_t, &self.last_q),
        })
    }
}
