//! The state-space formulation of Negrut et al. 2003 Algorithm 1 (generalized coordinate
//! partitioning, Negrut et al. 2003 §1 and the companion paper's Algorithm 1).
//!
//! **Partition (step 1, and step 7 when needed).** Φ_q (m × n) is factorised by
//! nalgebra's LU with full pivoting; the m pivot columns are the dependent coordinates
//! u, the other n − m the independent v (the columns of Φ_q that are best
//! conditioned to solve for). Both index lists are kept in ascending order, so the state
//! is y = (v, v̇) with v in the order of q.
//!
//! **The ODE in (v, v̇) (steps 4–5).** f(y): q is rebuilt from v by Newton on
//! Φ(v, u) = 0 (Φ_u Δu = −Φ, from the u of the last accepted step), u̇ from
//! Φ_u u̇ = −Φ_v v̇, then q̈ from the saddle-point system of Gil, Sanfelice & Nikravesh (LLM) eq. (9)
//! ([`super::augmented::saddle_point`]) and f = (v̇, v̈). The position and velocity
//! constraints hold at every evaluation to Newton tolerance: ‖Φ‖ does not drift.
//!
//! **After every accepted step (steps 6–7).** u and u̇ are recovered at the new v (and
//! kept as the next Newton start), and the partition is checked: when cond₂(Φ_u) (from
//! nalgebra's SVD) exceeds `partitionLimit` (default [`DEFAULT_PARTITION_LIMIT`]), Φ_q is
//! re-factorised at the current q, the state is rewritten in the new independent
//! coordinates and the driver restarts the method there (a Rosenbrock step keeps no
//! history; a multistep method restarts its history). If even the new partition's
//! cond(Φ_u) exceeds the limit, Φ_q has (nearly) lost rank: a typed
//! [`ConstraintFailure::Partition`] error.
//!
//! **Jacobian route (Negrut et al. 2003 §2: the state-space integration Jacobian).** With
//! H = ∂q/∂v (I on the v rows, −Φ_u⁻¹Φ_v on the u rows, since Φ(v, u(v)) = 0) and
//! q̇ = H v̇, differentiating Φ_q q̇ = 0 along the manifold gives ∂u̇/∂v = −Φ_u⁻¹ P H with
//! P = ∂(Φ_q q̇)/∂q (column c is (∂Φ_q/∂q_c) q̇, from [`Mechanism::derivatives`]). With
//! the augmented formulation's ∂q̈/∂q and ∂q̈/∂q̇ of Gil, Sanfelice & Nikravesh (LLM) eqs. (10)–(15)
//! ([`acceleration_jacobian`]), the chain rule gives
//! ∂v̈/∂v = (∂q̈/∂q H + ∂q̈/∂q̇ G)_v and ∂v̈/∂v̇ = (∂q̈/∂q̇ H)_v, G = ∂q̇/∂v (zero on the v
//! rows, −Φ_u⁻¹ P H on the u rows): the Jacobian costs one saddle-point LU and one
//! factorisation of Φ_u, no extra f-evaluations. It is checked against forward-mode
//! automatic differentiation through this very Newton recovery and saddle-point solve
//! (dual numbers, `src/multibody/ad_check.rs`: agreement to 1e-15 relative) and
//! against central differences. `jacobian: "fd"` in a spec still asks for forward
//! differences through the whole constraint solve (`src/jacobian.rs`). The Newton loop
//! converges past its tolerance (it stops when the correction is ≤ 1e-10, so the last
//! iterate is accurate to O(1e-20) by quadratic convergence) so that such differences
//! see a smooth u(v), not the iteration's stopping noise.

use super::augmented::{acceleration_jacobian, dot, saddle};
use super::constrained::Constrained;
use super::mechanism::Scalar;
use super::models::{output_names, write_outputs, Description};
use super::{ConstraintFailure, ConstraintReport, Repartition, Stabilization};
use crate::error::OdeError;
use crate::model::{Model, ModelInfo};
use crate::problem::System;
use nalgebra::{DMatrix, DVector};
use std::cell::{Cell, RefCell};

/// Default largest cond₂(Φ_u) kept before re-partitioning (Algorithm 1 step 7).
pub const DEFAULT_PARTITION_LIMIT: f64 = 100.0;
/// Newton on Φ(v, u) = 0: stop when the correction is below this (relative to 1 + ‖u‖)…
pub const NEWTON_STEP_TOL: f64 = 1e-10;
/// …and accept only if the residual ‖Φ‖∞ is then below this.
pub const NEWTON_TOL: f64 = 1e-10;
pub const NEWTON_MAX_ITER: u32 = 20;

/// ∂f/∂y and ∂f/∂t.
type JacobianAndRate = (DMatrix<f64>, DVector<f64>);

/// The dependent and independent coordinate indices.
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    pub dependent: Vec<usize>,
    pub independent: Vec<usize>,
}

/// Partition by full-pivoting LU of Φ_q: the pivot columns are dependent.
pub fn partition(phi_q: &DMatrix<f64>) -> Partition {
    let (m, n) = phi_q.shape();
    let lu = phi_q.clone().full_piv_lu();
    let mut order = DMatrix::from_fn(1, n, |_, c| c as f64);
    lu.q().permute_columns(&mut order);
    let mut dependent: Vec<usize> = order.iter().take(m).map(|&c| c as usize).collect();
    let mut independent: Vec<usize> = order.iter().skip(m).map(|&c| c as usize).collect();
    dependent.sort_unstable();
    independent.sort_unstable();
    Partition {
        dependent,
        independent,
    }
}

fn columns<T: Scalar>(d: &DMatrix<T>, cols: &[usize]) -> DMatrix<T> {
    d.select_columns(cols.iter())
}

/// cond₂ of a square matrix (∞ if singular).
pub fn condition(a: &DMatrix<f64>) -> f64 {
    let sv = a.singular_values();
    let (lo, hi) = (sv.min(), sv.max());
    if lo > 0.0 {
        hi / lo
    } else {
        f64::INFINITY
    }
}

/// The state-space model of a [`Description`].
pub struct StateSpace {
    desc: Description,
    part: Partition,
    limit: f64,
    /// Full q, q̇ at the last accepted step (the Newton start).
    q_acc: Vec<f64>,
    qd_acc: Vec<f64>,
    /// The time of the last accepted step.
    t_acc: f64,
    failure: RefCell<Option<ConstraintFailure>>,
    newton: Cell<u64>,
    solves: Cell<u64>,
    independent0: Vec<String>,
    /// The partition the run started with: its coordinates are the reported columns
    /// ([`Model::report_state`]) for the whole run.
    part0: Partition,
    /// The partition before the last re-partition (the dense output of the step that
    /// ended at it is in those coordinates).
    part_previous: Partition,
    repartitions: Vec<Repartition>,
}

/// Catalogue entry and model of the state-space formulation.
pub fn build(
    desc: Description,
    limit: f64,
    independent: Option<&[String]>,
) -> Result<(ModelInfo, Box<dyn Model>), OdeError> {
    let (info, model) = new(desc, limit, independent)?;
    Ok((info, Box::new(model)))
}

/// Catalogue entry and the state-space model itself.
pub fn new(
    desc: Description,
    limit: f64,
    independent: Option<&[String]>,
) -> Result<(ModelInfo, StateSpace), OdeError> {
    let mech = desc.system.as_ref();
    let t0 = desc.native.t0;
    let d = mech.phi_q(t0, &desc.q0);
    let coords = mech.coordinate_names();
    let named = independent.or(desc.independent.as_deref());
    let part = match named {
        None => partition(&d),
        Some(names) => chosen(&coords, names, mech.n() - mech.m())?,
    };
    let cond = condition(&columns(&d, &part.dependent));
    if cond > limit {
        // Named coordinates that cannot be independent here, in a mechanism that has a
        // good partition, are a choice to change, not a singular configuration.
        let own = partition(&d);
        if named.is_some() && condition(&columns(&d, &own.dependent)) <= limit {
            let list = |idx: &[usize]| {
                idx.iter()
                    .map(|&i| coords[i].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(OdeError::BadSpec {
                message: format!(
                    "independent: {} cannot be the independent coordinates at the initial \
                     pose: the constraints do not determine {} from them (cond Φu = {cond:.3e}); \
                     choose others, e.g. {} (the partition chosen at this pose when \
                     \"independent\" is left out)",
                    list(&part.independent),
                    list(&part.dependent),
                    list(&own.independent),
                ),
            });
        }
        return Err(ConstraintFailure::Partition { condition: cond }.at(desc.native.t0, 0.0));
    }
    let ind_names: Vec<String> = part
        .independent
        .iter()
        .map(|&i| coords[i].clone())
        .collect();
    let mut names = ind_names.clone();
    names.extend(ind_names.iter().map(|c| dot(c)));
    let mut model = StateSpace {
        part0: part.clone(),
        part_previous: part.clone(),
        part,
        limit,
        q_acc: desc.q0.clone(),
        qd_acc: desc.qd0.clone(),
        t_acc: t0,
        failure: RefCell::new(None),
        newton: Cell::new(0),
        solves: Cell::new(0),
        independent0: ind_names,
        repartitions: vec![],
        desc,
    };
    // Start from a consistent state: u from v by Newton, u̇ from v̇.
    let y0 = model.state_of(&model.q_acc, &model.qd_acc);
    let (q, qd) = model
        .recover(t0, &y0)
        .map_err(|f| f.at(model.desc.native.t0, 0.0))?;
    model.q_acc = q;
    model.qd_acc = qd;
    let info = ModelInfo {
        id: model.desc.native.id.clone(),
        name: format!(
            "{} — state-space (coordinate partitioning)",
            model.desc.native.name
        ),
        dim: y0.len(),
        names,
        params: model.desc.native.params.clone(),
        y0,
        t0: model.desc.native.t0,
        t1: model.desc.native.t1,
        source: format!(
            "{}; state-space formulation, Negrut et al. 2003, Algorithm 1",
            model.desc.native.source
        ),
        outputs: output_names(&model.desc),
        exact: false,
        second_order: true,
        events: vec![],
        formulations: model.desc.native.formulations.clone(),
        fast: vec![],
    };
    Ok((info, model))
}

/// A partition with the named independent coordinates.
fn chosen(coords: &[String], names: &[String], count: usize) -> Result<Partition, OdeError> {
    let mut independent = Vec::new();
    for name in names {
        match coords.iter().position(|c| c == name) {
            Some(i) if !independent.contains(&i) => independent.push(i),
            _ => {
                return Err(OdeError::BadSpec {
                    message: format!(
                        "independent: \"{name}\" is not a coordinate (or is repeated); the \
                         coordinates are {}",
                        coords.join(", ")
                    ),
                })
            }
        }
    }
    if independent.len() != count {
        return Err(OdeError::WrongLength {
            what: "independent (one name per degree of freedom)".into(),
            expected: count,
            got: independent.len(),
        });
    }
    independent.sort_unstable();
    let dependent = (0..coords.len())
        .filter(|i| !independent.contains(i))
        .collect();
    Ok(Partition {
        dependent,
        independent,
    })
}

impl StateSpace {
    fn state_of(&self, q: &[f64], qd: &[f64]) -> Vec<f64> {
        self.state_in(&self.part, q, qd)
    }

    /// (v, v̇) of a partition from the full (q, q̇).
    fn state_in(&self, part: &Partition, q: &[f64], qd: &[f64]) -> Vec<f64> {
        let ind = &part.independent;
        ind.iter()
            .map(|&i| q[i])
            .chain(ind.iter().map(|&i| qd[i]))
            .collect()
    }

    /// Full (q, q̇) from y = (v, v̇) at t: Newton on Φ(v, u, t) = 0, then
    /// Φ_u u̇ = −Φ_v v̇ − Φ_t.
    pub fn recover(&self, t: f64, y: &[f64]) -> Result<(Vec<f64>, Vec<f64>), ConstraintFailure> {
        self.recover_in(&self.part, t, y)
    }

    /// [`StateSpace::recover`] for y = (v, v̇) written in the partition `part`.
    fn recover_in(
        &self,
        part: &Partition,
        t: f64,
        y: &[f64],
    ) -> Result<(Vec<f64>, Vec<f64>), ConstraintFailure> {
        let sys = self.desc.system.as_ref();
        // A driven system moves with t even where v stands still: Newton starts from
        // the last accepted q carried forward by its velocity (so it stays on the
        // branch it was on).
        let start = sys.rheonomic().then(|| {
            let dt = t - self.t_acc;
            self.q_acc
                .iter()
                .zip(&self.qd_acc)
                .map(|(q, v)| q + v * dt)
                .collect::<Vec<f64>>()
        });
        self.recover_from(
            start.as_deref().unwrap_or(&self.q_acc),
            part,
            y,
            |q| sys.phi(t, q),
            |q| sys.phi_q(t, q),
            |q| sys.phi_t(t, q),
        )
    }

    /// The Newton recovery over any scalar, with Φ, Φ_q and Φ_t given: the tests
    /// differentiate through it with dual numbers (the derivative part converges with
    /// the Newton iterates).
    pub fn recover_with<T: Scalar>(
        &self,
        part: &Partition,
        y: &[T],
        phi_of: impl Fn(&[T]) -> DVector<T>,
        phi_q_of: impl Fn(&[T]) -> DMatrix<T>,
        phi_t_of: impl Fn(&[T]) -> Option<DVector<T>>,
    ) -> Result<(Vec<T>, Vec<T>), ConstraintFailure> {
        self.recover_from(&self.q_acc, part, y, phi_of, phi_q_of, phi_t_of)
    }

    /// [`StateSpace::recover_with`] with Newton started from `start`.
    fn recover_from<T: Scalar>(
        &self,
        start: &[f64],
        part: &Partition,
        y: &[T],
        phi_of: impl Fn(&[T]) -> DVector<T>,
        phi_q_of: impl Fn(&[T]) -> DMatrix<T>,
        phi_t_of: impl Fn(&[T]) -> Option<DVector<T>>,
    ) -> Result<(Vec<T>, Vec<T>), ConstraintFailure> {
        let (dep, ind) = (&part.dependent, &part.independent);
        let k = ind.len();
        // ‖·‖∞ of the real parts; NaN propagates (f64::max would drop it).
        let largest = |x: &mut dyn Iterator<Item = T>| {
            x.map(|v| v.re().abs()).fold(
                0.0,
                |acc: f64, v| if v.is_nan() || v > acc { v } else { acc },
            )
        };
        let mut q: Vec<T> = start.iter().map(|&v| T::of(v)).collect();
        for (j, &i) in ind.iter().enumerate() {
            q[i] = y[j];
        }
        let mut iterations = 0;
        loop {
            let phi = phi_of(&q);
            if iterations >= NEWTON_MAX_ITER || !phi.iter().all(|v| v.is_finite()) {
                return Err(ConstraintFailure::Newton {
                    iterations,
                    residual: largest(&mut phi.iter().copied()),
                });
            }
            let du = columns(&phi_q_of(&q), dep)
                .lu()
                .solve(&phi)
                .filter(|x| x.iter().all(|v| v.is_finite()))
                .ok_or(ConstraintFailure::Partition {
                    condition: f64::INFINITY,
                })?;
            let unorm = largest(&mut dep.iter().map(|&i| q[i]));
            for (j, &i) in dep.iter().enumerate() {
                q[i] -= du[j];
            }
            iterations += 1;
            if largest(&mut du.iter().copied()) <= NEWTON_STEP_TOL * (1.0 + unorm) {
                break;
            }
        }
        self.newton.set(self.newton.get() + u64::from(iterations));
        let residual = largest(&mut phi_of(&q).iter().copied());
        if residual > NEWTON_TOL || residual.is_nan() {
            return Err(ConstraintFailure::Newton {
                iterations,
                residual,
            });
        }
        let d = phi_q_of(&q);
        let vdot = DVector::from_row_slice(&y[k..]);
        let mut rhs = -(columns(&d, ind) * vdot);
        if let Some(pt) = phi_t_of(&q) {
            rhs -= pt;
        }
        let udot = columns(&d, dep)
            .lu()
            .solve(&rhs)
            .ok_or(ConstraintFailure::Partition {
                condition: f64::INFINITY,
            })?;
        let mut qd = vec![T::zero(); q.len()];
        for (j, &i) in ind.iter().enumerate() {
            qd[i] = y[k + j];
        }
        for (j, &i) in dep.iter().enumerate() {
            qd[i] = udot[j];
        }
        Ok((q, qd))
    }

    /// The state-space Jacobian ∂(v̇, v̈)/∂(v, v̇) by the chain rule through the
    /// constraint solve (see the module doc), at the consistent (q, q̇) of y, and ∂f/∂t
    /// (zeros unless the system depends on t).
    fn analytic_jacobian(
        &self,
        t: f64,
        y: &[f64],
    ) -> Result<Option<JacobianAndRate>, ConstraintFailure> {
        let mech = self.desc.system.as_ref();
        let (dep, ind) = (&self.part.dependent, &self.part.independent);
        let (n, k) = (mech.n(), ind.len());
        let (q, qd) = self.recover(t, y)?;
        self.solves.set(self.solves.get() + 1);
        let s = saddle(mech, t, &q, &qd, Stabilization::None)?;
        let der = mech.derivatives(t, &q, &qd);
        let Some(acc) = acceleration_jacobian(mech, t, &q, &qd, Stabilization::None, &s, &der)
        else {
            return Ok(None);
        };
        let (jq, jqd) = (&acc.q, &acc.qd);
        let d = &s.phi_q;
        let phi_u = columns(d, dep).lu();
        let singular = ConstraintFailure::Partition {
            condition: f64::INFINITY,
        };
        // H = ∂q/∂v: I on the v rows, −Φ_u⁻¹ Φ_v on the u rows.
        let hu = phi_u.solve(&columns(d, ind)).ok_or(singular)?;
        let mut h = DMatrix::zeros(n, k);
        for (j, &i) in ind.iter().enumerate() {
            h[(i, j)] = 1.0;
        }
        for (j, &i) in dep.iter().enumerate() {
            h.set_row(i, &(-hu.row(j)));
        }
        let p = der.velocity_constraint_q(&qd);
        // G = ∂q̇/∂v (v̇ held): 0 on the v rows, −Φ_u⁻¹ P H on the u rows.
        let gu = phi_u.solve(&(&p * &h)).ok_or(singular)?;
        let mut g = DMatrix::zeros(n, k);
        for (j, &i) in dep.iter().enumerate() {
            g.set_row(i, &(-gu.row(j)));
        }
        let acc_v = jq * &h + jqd * &g;
        let acc_vd = jqd * &h;
        let mut jac = DMatrix::zeros(2 * k, 2 * k);
        for j in 0..k {
            jac[(j, k + j)] = 1.0;
        }
        for (r, &i) in ind.iter().enumerate() {
            for c in 0..k {
                jac[(k + r, c)] = acc_v[(i, c)];
                jac[(k + r, k + c)] = acc_vd[(i, c)];
            }
        }
        let mut ft = DVector::zeros(2 * k);
        if let (Some(acc_t), Some(td)) = (&acc.t, &der.time) {
            // ∂q/∂t (v held): −Φ_u⁻¹ Φ_t on the u rows; ∂q̇/∂t (v, v̇ held):
            // −Φ_u⁻¹ (P ∂q/∂t + Φ_qt q̇ + Φ_tt) on the u rows.
            let mut q_t = DVector::zeros(n);
            if let Some(pt) = mech.phi_t(t, &q) {
                let ut = phi_u.solve(&pt).ok_or(singular)?;
                for (j, &i) in dep.iter().enumerate() {
                    q_t[i] = -ut[j];
                }
            }
            let rhs = &p * &q_t + &td.phi_q_t * DVector::from_row_slice(&qd) + &td.phi_tt;
            let udt = phi_u.solve(&rhs).ok_or(singular)?;
            let mut qd_t = DVector::zeros(n);
            for (j, &i) in dep.iter().enumerate() {
                qd_t[i] = -udt[j];
            }
            let total = jq * q_t + jqd * qd_t + acc_t;
            for (r, &i) in ind.iter().enumerate() {
                ft[k + r] = total[i];
            }
        }
        Ok(Some((jac, ft)))
    }

    /// The constrained system being integrated.
    pub fn system(&self) -> &dyn Constrained {
        self.desc.system.as_ref()
    }

    /// The built-in mechanism being integrated, if it is one.
    pub fn desc_mechanism(&self) -> Option<&super::mechanism::Mechanism> {
        self.desc.mechanism.as_ref()
    }

    /// The current partition.
    pub fn partition(&self) -> &Partition {
        &self.part
    }

    fn derivatives(&self, t: f64, y: &[f64]) -> Option<JacobianAndRate> {
        match self.analytic_jacobian(t, y) {
            Ok(j) => j,
            Err(f) => {
                self.failure.borrow_mut().get_or_insert(f);
                // A NaN Jacobian makes the step's matrix fail; the driver then reports
                // the recorded failure.
                Some((
                    DMatrix::from_element(y.len(), y.len(), f64::NAN),
                    DVector::from_element(y.len(), f64::NAN),
                ))
            }
        }
    }
}

impl System for StateSpace {
    fn dim(&self) -> usize {
        2 * self.part.independent.len()
    }

    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let k = self.part.independent.len();
        dy[..k].copy_from_slice(&y[k..]);
        let result = self.recover(t, y).and_then(|(q, qd)| {
            self.solves.set(self.solves.get() + 1);
            saddle(self.desc.system.as_ref(), t, &q, &qd, Stabilization::None)
        });
        match result {
            Ok(s) => {
                for (j, &i) in self.part.independent.iter().enumerate() {
                    dy[k + j] = s.qdd[i];
                }
            }
            Err(f) => {
                self.failure.borrow_mut().get_or_insert(f);
                dy[k..].fill(f64::NAN);
            }
        }
    }

    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        self.derivatives(t, y).map(|(j, _)| j)
    }

    fn dfdt(&self, t: f64, y: &[f64]) -> Option<DVector<f64>> {
        if !self.desc.system.time_dependent() {
            return Some(DVector::zeros(y.len()));
        }
        self.derivatives(t, y).map(|(_, ft)| ft)
    }
}

impl Model for StateSpace {
    fn default_y0(&self) -> Option<Vec<f64>> {
        Some(self.state_of(&self.q_acc, &self.qd_acc))
    }

    fn outputs(&self, t: f64, y: &[f64], out: &mut [f64]) {
        match self.recover(t, y) {
            Ok((q, qd)) => write_outputs(&self.desc, t, &q, &qd, out),
            Err(_) => out.fill(f64::NAN),
        }
    }

    fn acts_between_steps(&self) -> bool {
        true
    }

    fn take_failure(&self) -> Option<ConstraintFailure> {
        self.failure.borrow_mut().take()
    }

    fn after_step(&mut self, t: f64, y: &mut [f64]) -> Result<bool, ConstraintFailure> {
        // Step 6: recover u, u̇ at the accepted v.
        let (q, qd) = self.recover(t, y)?;
        self.q_acc = q;
        self.qd_acc = qd;
        self.t_acc = t;
        // Step 7: check the partition.
        let d = self.desc.system.phi_q(t, &self.q_acc);
        let cond = condition(&columns(&d, &self.part.dependent));
        if cond <= self.limit {
            return Ok(false);
        }
        let part = partition(&d);
        let new_cond = condition(&columns(&d, &part.dependent));
        if new_cond > self.limit {
            return Err(ConstraintFailure::Partition {
                condition: new_cond,
            });
        }
        let coords = self.desc.system.coordinate_names();
        self.repartitions.push(Repartition {
            t,
            condition: cond,
            independent: part
                .independent
                .iter()
                .map(|&i| coords[i].clone())
                .collect(),
        });
        self.part_previous = std::mem::replace(&mut self.part, part);
        let y_new = self.state_of(&self.q_acc, &self.qd_acc);
        y.copy_from_slice(&y_new);
        Ok(true)
    }

    /// After a re-partition the integrated coordinates are no longer the columns the
    /// run is named by (the initial independent coordinates and their rates): the
    /// full (q, q̇) is recovered from y (Newton from the last accepted q, not counted
    /// as the run's work) and the named coordinates read from it.
    fn report_state(&self, y: &[f64], out: &mut [f64], previous: bool) -> bool {
        let part = if previous {
            &self.part_previous
        } else {
            &self.part
        };
        if part.independent == self.part0.independent {
            return false;
        }
        let newton = self.newton.get();
        // The re-partitioned dense output is read at the last accepted time (exact for
        // constraints that do not depend on t).
        let recovered = self.recover_in(part, self.t_acc, y);
        self.newton.set(newton);
        match recovered {
            Ok((q, qd)) => out.copy_from_slice(&self.state_in(&self.part0, &q, &qd)),
            Err(_) => out.fill(f64::NAN),
        }
        true
    }

    fn constraint_report(&self) -> Option<ConstraintReport> {
        Some(ConstraintReport {
            formulation: "state-space".into(),
            independent: self.independent0.clone(),
            repartitions: self.repartitions.clone(),
            newton_iterations: self.newton.get(),
            saddle_solves: self.solves.get(),
            locked: super::locked_at(self.desc.system.as_ref(), self.t_acc, &self.q_acc),
        })
    }
}
