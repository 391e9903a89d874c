//! Consistent initial conditions for a constrained system, and the checks of its
//! start: a mass matrix that is not positive definite and redundant constraints are
//! refused by name, before anything is integrated.
//!
//! Positions: Gauss–Newton with the least change, Δq = −Φ_qᵀ(Φ_qΦ_qᵀ)⁻¹Φ (the
//! minimum-norm correction), until ‖Φ(q, t0)‖∞ ≤ 1e-12. Velocities: the ones the user
//! gave are kept and the others solved from Φ_q q̇ = −Φ_t with the least norm; when the
//! given ones already over-determine the motion (or contradict it), every velocity is
//! changed by the least amount instead, q̇ ← q̇ − Φ_qᵀ(Φ_qΦ_qᵀ)⁻¹(Φ_q q̇ + Φ_t). What
//! changed, and by how much, is reported.

use super::constrained::Constrained;
use crate::error::OdeError;
use nalgebra::{DMatrix, DVector};

/// Newton iterations allowed for the positions.
pub const MAX_ITER: u32 = 50;
/// ‖Φ‖∞ accepted.
pub const TOL: f64 = 1e-12;
/// A row of Φ_q whose part outside the span of the rows above it is below this
/// (relative to its norm) is a combination of them.
pub const DEPENDENT: f64 = 1e-9;

/// A consistent start and what was changed to reach it.
#[derive(Debug, Clone)]
pub struct Consistent {
    pub q: Vec<f64>,
    pub qd: Vec<f64>,
    /// (name, given, consistent) of every value that moved.
    pub changes: Vec<(String, f64, f64)>,
}

impl Consistent {
    /// "; initial conditions made consistent: x 0.5 → 0.49 (−0.01), …" or "".
    pub fn note(&self, _coords: &[String]) -> String {
        if self.changes.is_empty() {
            return String::new();
        }
        let items: Vec<String> = self
            .changes
            .iter()
            .map(|(n, a, b)| format!("{n} {a:.6} → {b:.6} ({:+.3e})", b - a))
            .collect();
        format!(
            "; initial conditions made consistent (least change): {}",
            items.join(", ")
        )
    }
}

/// σ_min/σ_max of Φ_q below which a configuration counts as locking.
pub const LOCK_RATIO: f64 = 1e-3;

/// The constraints involved when Φ_q (m × n) is close to losing rank: σ_min/σ_max <
/// [`LOCK_RATIO`], and the rows with a weight of at least a tenth of the largest in the
/// left singular vector of σ_min (the combination of rows that nearly vanishes). Empty
/// when Φ_q is well conditioned.
pub fn locking_constraints(d: &DMatrix<f64>, names: &[String]) -> Vec<String> {
    let m = d.nrows();
    if m == 0 || !d.iter().all(|v| v.is_finite()) {
        return vec![];
    }
    // The SVD of Φ_qᵀ (n × m, n ≥ m) gives the right singular vectors over the rows.
    let svd = d.transpose().svd(false, true);
    let Some(v_t) = svd.v_t else {
        return vec![];
    };
    let sv = &svd.singular_values;
    let (mut lo, mut hi) = (0, 0);
    for i in 0..sv.len() {
        if sv[i] < sv[lo] {
            lo = i;
        }
        if sv[i] > sv[hi] {
            hi = i;
        }
    }
    if sv[hi] <= 0.0 || sv[lo] >= LOCK_RATIO * sv[hi] {
        return vec![];
    }
    let row = v_t.row(lo);
    let largest = row.iter().fold(0.0_f64, |a, v| a.max(v.abs()));
    (0..m)
        .filter(|&r| row[r].abs() >= 0.1 * largest)
        .map(|r| {
            names
                .get(r)
                .cloned()
                .unwrap_or_else(|| format!("row {}", r + 1))
        })
        .collect()
}

/// Rows of `d` that are combinations of the rows above them (modified Gram–Schmidt).
pub fn dependent_rows(d: &DMatrix<f64>) -> Vec<usize> {
    let mut basis: Vec<DVector<f64>> = Vec::new();
    let mut out = Vec::new();
    for r in 0..d.nrows() {
        let row: DVector<f64> = d.row(r).transpose();
        let norm = row.norm();
        let mut v = row.clone();
        for b in &basis {
            let c = b.dot(&v);
            v -= b * c;
        }
        let rest = v.norm();
        // NaN counts as dependent.
        if rest.is_nan() || rest <= DEPENDENT * norm.max(1e-300) {
            out.push(r);
        } else {
            basis.push(v / rest);
        }
    }
    out
}

fn redundant(sys: &dyn Constrained, d: &DMatrix<f64>, when: &str) -> Result<(), OdeError> {
    let dep = dependent_rows(d);
    if dep.is_empty() {
        return Ok(());
    }
    let names = sys.constraint_names();
    let list: Vec<String> = dep.iter().map(|&r| format!("\"{}\"", names[r])).collect();
    Err(OdeError::BadSpec {
        message: format!(
            "redundant constraints {when}: {} {} a combination of the constraints above \
             (Φ_q has rank {} of {}); remove {} or check the joints",
            list.join(", "),
            if dep.len() == 1 { "is" } else { "are" },
            d.nrows() - dep.len(),
            d.nrows(),
            if dep.len() == 1 { "it" } else { "them" },
        ),
    })
}

/// Checks M at q: symmetric positive definite, else names the coordinate.
pub fn check_mass(sys: &dyn Constrained, q: &[f64]) -> Result<(), OdeError> {
    let m = sys.mass(q);
    let coords = sys.coordinate_names();
    for i in 0..m.nrows() {
        if m[(i, i)].is_nan() || m[(i, i)] <= 0.0 {
            return Err(OdeError::BadSpec {
                message: format!(
                    "the mass matrix is singular: its entry for coordinate {} is {}; every \
                     coordinate needs a positive mass or inertia",
                    coords[i],
                    m[(i, i)]
                ),
            });
        }
    }
    if m.clone().cholesky().is_none() || (&m - m.transpose()).amax() > 1e-12 * m.amax() {
        return Err(OdeError::BadSpec {
            message: "the mass matrix is not symmetric positive definite at the initial \
                      pose; check the mass(a, b) entries"
                .into(),
        });
    }
    Ok(())
}

/// Solves Φ(q, t0) = 0 and Φ_q q̇ = −Φ_t from the given start (see the module doc).
pub fn make_consistent(
    sys: &dyn Constrained,
    t0: f64,
    q_given: Vec<f64>,
    qd_given: &[Option<f64>],
) -> Result<Consistent, OdeError> {
    let coords = sys.coordinate_names();
    let names = sys.constraint_names();
    check_mass(sys, &q_given)?;
    let n = sys.n();
    redundant(sys, &sys.phi_q(t0, &q_given), "at the initial pose")?;
    let mut q = q_given.clone();
    let mut iterations = 0;
    loop {
        let phi = sys.phi(t0, &q);
        let residual = phi.amax();
        if residual <= TOL {
            break;
        }
        let unreachable = |phi: &DVector<f64>| {
            let worst = (0..phi.len())
                .max_by(|&a, &b| phi[a].abs().total_cmp(&phi[b].abs()))
                .unwrap_or(0);
            OdeError::BadSpec {
                message: format!(
                    "the initial pose cannot be made consistent: after {iterations} Newton \
                     steps constraint \"{}\" is still off by {:.3e} (an unreachable pose? \
                     check its lengths and the initial values)",
                    names.get(worst).map_or("?", String::as_str),
                    phi[worst].abs()
                ),
            }
        };
        if iterations >= MAX_ITER || !residual.is_finite() {
            return Err(unreachable(&phi));
        }
        let d = sys.phi_q(t0, &q);
        let Some(mu) = (&d * d.transpose()).lu().solve(&phi) else {
            return Err(unreachable(&phi));
        };
        let dq = d.transpose() * mu;
        for i in 0..n {
            q[i] -= dq[i];
        }
        iterations += 1;
    }
    let d = sys.phi_q(t0, &q);
    redundant(sys, &d, "at the consistent initial pose")?;
    let phi_t = sys.phi_t(t0, &q).unwrap_or_else(|| DVector::zeros(sys.m()));
    let mut qd: Vec<f64> = qd_given.iter().map(|v| v.unwrap_or(0.0)).collect();
    let unknown: Vec<usize> = (0..n).filter(|&i| qd_given[i].is_none()).collect();
    let residual = |qd: &[f64]| &d * DVector::from_row_slice(qd) + &phi_t;
    let mut solved = false;
    if !unknown.is_empty() {
        let a = d.select_columns(unknown.iter());
        if dependent_rows(&a).is_empty() {
            let r = residual(&qd);
            if let Some(mu) = (&a * a.transpose()).lu().solve(&r) {
                let x = a.transpose() * mu;
                for (j, &i) in unknown.iter().enumerate() {
                    qd[i] -= x[j];
                }
                solved = true;
            }
        }
    }
    if !solved {
        let r = residual(&qd);
        if let Some(mu) = (&d * d.transpose()).lu().solve(&r) {
            let x = d.transpose() * mu;
            for i in 0..n {
                qd[i] -= x[i];
            }
        }
    }
    let mut changes = Vec::new();
    for i in 0..n {
        if (q[i] - q_given[i]).abs() > 1e-12 * q_given[i].abs().max(1.0) {
            changes.push((coords[i].clone(), q_given[i], q[i]));
        }
    }
    for i in 0..n {
        if let Some(v) = qd_given[i] {
            if (qd[i] - v).abs() > 1e-12 * v.abs().max(1.0) {
                changes.push((format!("{}'", coords[i]), v, qd[i]));
            }
        }
    }
    Ok(Consistent { q, qd, changes })
}
