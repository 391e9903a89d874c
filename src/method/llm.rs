//! `llm`: the Local Linearization Method of seed 000 eqs. (1)–(6), with the dense
//! output of eq. (18), the local-error estimate of eqs. (29)–(33) and step-size control
//! by eqs. (38)–(40) through `crate::control`.
//!
//! **The step.** With J = f_y(t_n, y_n), f_t = f_t(t_n, y_n), f_n = f(t_n, y_n), one
//! (m+2) × (m+2) block-matrix exponential per step (000 eq. 6, Van Loan's theorem,
//! 000 eqs. 3–4):
//!
//! ```text
//! C_n = [[J, f_t, f_n − J y_n], [0, 0, 1], [0, 0, 0]],   e^{h C_n} = [[F, ·, ψ], …]
//! y_{n+1} = F y_n + ψ,   F = e^{hJ},   ψ = ∫₀ʰ e^{J(h−u)} (f_n − J y_n + f_t u) du
//! ```
//!
//! This is eq. (1) y_n + φ rearranged (φ = (F − I) y_n + ψ), as `../shared/METHODS.md`
//! suggests: on y' = λy it computes e^{hλ} y_n itself (the third column is 0), so it is
//! exact *relative to the exact value* even when hλ = −100, whereas y_n + φ leaves
//! round-off of size ε|y_n| where the exact value is e^{−100} y_n. Seed 000's C_n has the
//! third column f_n; ours has f_n − J y_n and the F block is used too.
//!
//! **Dense output** (000 eq. 18): y(t_n + θh) = e^{θhJ} y_n + ψ(θh), one more
//! exponential of θh C_n per interpolated point.
//!
//! **Error estimate** (000 eqs. 29–33): r = f(t_{n+1}, y_{n+1}) − g(y_{n+1}) with the
//! linearisation g(y) = f_n + J (y − y_n) + f_t h, v_n = r/h² (000 eq. 30; the 1/2 that
//! 000 eqs. 26/29 miss is harmless because eq. 30 redefines v_n, METHODS.md), and
//! l_{n+1} = ∫₀ʰ e^{J(h−u)} v_n u² du is the top-right block of e^{hL} with the
//! (m+3) × (m+3) L = [[J, 2v_n, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, 0, 0]]
//! (eqs. 32–33). It costs one f evaluation, f(t_{n+1}, y_{n+1}), which is the next
//! step's f_n, and a second exponential. Its order as an estimate is h³: q = 2 for the
//! controller, so k = 3 per step (EPS) or k = 2 per unit step (EPUS, 000 eq. 39 with
//! `controller.perUnitStep`), safety 0.9, PI (000 eq. 40) with `controller.kind: "pi"`.
//!
//! **Limitation at switches** (piecewise-linear f such as the penalty contact of
//! `bouncing-balls`, 000 §3). f and J are taken at t_n, so a step that starts at a
//! switch is linearised on the side the state is on, and within one linear regime
//! r ≡ 0: the estimate is 0 and the step grows. Under step-size control a step that
//! ends in the other regime is caught (r ≠ 0), but one that leaves a regime and comes
//! back (a whole 7 ms contact inside one step) has both ends on the same side and is
//! invisible to the estimate and to the event detector's end-point sign test. On
//! such models use a fixed h below the contact time, as 000 §3 does
//! (`tests/method/stiff_runs.rs` compares the contact times with dp45's).

use super::history::same_time;
use super::{MethodInfo, Stepper};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::expm;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

pub const INFO: MethodInfo = MethodInfo {
    id: "llm",
    name: "Local Linearization",
    order: 2,
    family: "exponential (local linearization)",
    source: "seed 000 eqs. (1)–(6), (18), (29)–(33), (38)–(40)",
    stages: 1,
    adaptive: true,
    embedded_order: Some(2),
    fsal: true,
    dense_order: 2,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: false,
};

/// The LLM stepper: the last step's block matrix C_n (for the dense output), its
/// start and end, and f at both (f at the end is the next step's f_n).
pub struct Llm {
    provider: JacobianProvider,
    /// C_n of the last step, (m+2) × (m+2).
    block: DMatrix<f64>,
    last_t: f64,
    last_h: f64,
    last_y: Vec<f64>,
    last_y_new: Vec<f64>,
    f_start: Vec<f64>,
    f_end: Vec<f64>,
    error: Vec<f64>,
}

impl Llm {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian),
            block: DMatrix::zeros(dim + 2, dim + 2),
            last_t: f64::NAN,
            last_h: f64::NAN,
            last_y: vec![0.0; dim],
            last_y_new: vec![0.0; dim],
            f_start: vec![0.0; dim],
            f_end: vec![0.0; dim],
            error: vec![0.0; dim],
        }
    }

    /// e^{τ C_n} applied as y(t_n + τ) = F y_n + ψ (the rearranged eq. 1, eq. 18).
    fn propagate(&self, tau: f64, out: &mut [f64], stats: &mut Stats) -> Result<(), OdeError> {
        let m = out.len();
        let e = expm(&(&self.block * tau), self.last_t, tau, stats)?;
        for (i, o) in out.iter_mut().enumerate() {
            let mut acc = e[(i, m + 1)];
            for (j, yj) in self.last_y.iter().enumerate() {
                acc += e[(i, j)] * yj;
            }
            *o = acc;
        }
        Ok(())
    }
}

impl Stepper for Llm {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    fn step(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let m = y.len();
        // f_n: from the last step's start (a retry) or end (its error estimate
        // evaluated it), else evaluated.
        if t == self.last_t && y == self.last_y.as_slice() {
            // f_start already holds f(t, y).
        } else if same_time(t, self.last_t + self.last_h) && y == self.last_y_new.as_slice() {
            self.f_start.copy_from_slice(&self.f_end);
        } else {
            sys.rhs(t, y, &mut self.f_start);
            stats.nfev += 1;
        }
        let (jac, ft) = self.provider.at(sys, t, y, stats)?;
        let (jac, ft) = (jac.clone(), ft.clone());
        let jac = &jac;
        let yv = DVector::from_column_slice(y);
        let jy = jac * &yv;
        self.block.fill(0.0);
        self.block.view_mut((0, 0), (m, m)).copy_from(jac);
        for i in 0..m {
            self.block[(i, m)] = ft[i];
            self.block[(i, m + 1)] = self.f_start[i] - jy[i];
        }
        self.block[(m, m + 1)] = 1.0;
        self.last_t = t;
        self.last_h = h;
        self.last_y.copy_from_slice(y);
        self.propagate(h, y_out, stats)?;
        self.last_y_new.copy_from_slice(y_out);

        // Local error estimate, 000 eqs. (29)–(33).
        sys.rhs(t + h, y_out, &mut self.f_end);
        stats.nfev += 1;
        let mut l = DMatrix::<f64>::zeros(m + 3, m + 3);
        l.view_mut((0, 0), (m, m)).copy_from(jac);
        for i in 0..m {
            let g = self.f_start[i]
                + (0..m).map(|j| jac[(i, j)] * (y_out[j] - y[j])).sum::<f64>()
                + ft[i] * h;
            let v = (self.f_end[i] - g) / (h * h);
            l[(i, m)] = 2.0 * v;
        }
        l[(m, m + 1)] = 1.0;
        l[(m + 1, m + 2)] = 1.0;
        let e = expm(&(l * h), t, h, stats)?;
        for (i, err) in self.error.iter_mut().enumerate() {
            *err = e[(i, m + 2)];
        }
        Ok(())
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        Some(&self.error)
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if theta == 1.0 {
            out.copy_from_slice(&self.last_y_new);
            return Ok(());
        }
        if theta == 0.0 {
            out.copy_from_slice(&self.last_y);
            return Ok(());
        }
        self.propagate(theta * self.last_h, out, stats)
    }
}
