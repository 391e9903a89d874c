//! `llm`: the Local Linearization Method of Gil, Sanfelice & Nikravesh (LLM) eqs. (1)–(6), with the dense
//! output of eq. (18), the local-error estimate of eqs. (29)–(33) and step-size control
//! by eqs. (38)–(40) through `crate::control`.
//!
//! **The step** (Gil, Sanfelice & Nikravesh (LLM) eqs. 1–2 in increment form). With J = f_y(t_n, y_n),
//! f_t = f_t(t_n, y_n), f_n = f(t_n, y_n):
//!
//! ```text
//! y_{n+1} = y_n + h φ₁(hJ) f_n + h² φ₂(hJ) f_t = y_n + ∫₀ʰ e^{J(h−u)} (f_n + f_t u) du
//! ```
//!
//! — the φ of Gil, Sanfelice & Nikravesh (LLM) eq. (2), the top-right block of Gil, Sanfelice & Nikravesh (LLM) eq. (6)'s e^{hC_n}, here with the
//! φ-functions of hJ from `crate::phi` (one scaling-and-squaring evaluation of φ₀ … φ₃ as
//! m × m matrices, no bordered block). The increment form matters on stiff problems:
//! the earlier rearrangement y_{n+1} = e^{hJ} y_n + ψ with ψ built from f_n − J y_n
//! cancelled catastrophically when |J y_n| ≫ |f_n| (Robertson's kinetics: 3–4 correct
//! digits whatever the tolerance, and a fixed-step error that grew as h shrank), because
//! the rounding of J y_n is then carried by h φ₁(hJ) ≈ h along the slow directions. Here
//! only the rounding of f_n is. On y' = λy the step is y_n (1 + hλ φ₁(hλ)) = e^{hλ} y_n
//! with φ₁ from the same evaluation: exact to round-off relative to |y_n| for every hλ
//! (for hλ ≲ −36, where e^{hλ} is below that round-off, the result is ~1e-16 |y_n|
//! instead of e^{hλ} y_n).
//!
//! **Dense output** (Gil, Sanfelice & Nikravesh (LLM) eq. 18): y(t_n + τ) = y_n + τ φ₁(τJ) f_n + τ² φ₂(τJ) f_t, one
//! more φ evaluation per interpolated point.
//!
//! **Error estimate** (Gil, Sanfelice & Nikravesh (LLM) eqs. 29–33): r = f(t_{n+1}, y_{n+1}) − g(y_{n+1}) with the
//! linearisation g(y) = f_n + J (y − y_n) + f_t h, v_n = r/h² (Gil, Sanfelice & Nikravesh (LLM) eq. 30; the 1/2 that
//! Gil, Sanfelice & Nikravesh (LLM) eqs. 26/29 miss is harmless because eq. 30 redefines v_n, the Sources panel's errata), and
//! l_{n+1} = ∫₀ʰ e^{J(h−u)} v_n u² du (eq. 31), which Gil, Sanfelice & Nikravesh (LLM) eqs. (32)–(33) read from
//! the (m+3)-block e^{hL}; it equals 2h³ φ₃(hJ) v_n = 2h φ₃(hJ) r, and φ₃ comes from the
//! step's own φ evaluation. So the estimate costs one f evaluation,
//! f(t_{n+1}, y_{n+1}), which is the next step's f_n (it is not wasted on fixed steps),
//! one product per squaring for φ₃ and two matrix–vector products. Its order as an estimate is h³: q = 2 for the
//! controller, so k = 3 per step (EPS) or k = 2 per unit step (EPUS, Gil, Sanfelice & Nikravesh (LLM) eq. 39 with
//! `controller.perUnitStep`), safety 0.9, PI (Gil, Sanfelice & Nikravesh (LLM) eq. 40) with `controller.kind: "pi"`.
//!
//! **Limitation at switches** (piecewise-linear f such as the penalty contact of
//! `bouncing-balls`, Gil, Sanfelice & Nikravesh (LLM) §3). f and J are taken at t_n, so a step that starts at a
//! switch is linearised on the side the state is on, and within one linear regime
//! r ≡ 0: the estimate is 0 and the step grows. Under step-size control a step that
//! ends in the other regime is caught (r ≠ 0), but one that leaves a regime and comes
//! back (a whole 7 ms contact inside one step) has both ends on the same side and is
//! invisible to the estimate and to the event detector's end-point sign test. On
//! such models use a fixed h below the contact time, as Gil, Sanfelice & Nikravesh (LLM) §3 does
//! (`tests/method/stiff_runs.rs` compares the contact times with dp45's).

use super::history::same_time;
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::copy_short;
#[cfg(feature = "full")]
use crate::linear_solver::Jacobian;
#[cfg(feature = "full")]
use crate::phi::krylov::{norm2, KrylovPhi};
use crate::phi::PhiFunctions;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::{DMatrix, DVector};

pub const INFO: MethodInfo = MethodInfo {
    id: "llm",
    name: "Local Linearization",
    order: 2,
    family: "exponential (local linearization)",
    source: "Gil, Sanfelice & Nikravesh (LLM), eqs. (1)–(6), (18), (29)–(33), (38)–(40)",
    stages: 1,
    adaptive: true,
    embedded_order: Some(2),
    fsal: true,
    dense_order: 2,
    second_order: false,
    needs_jacobian: true,
    l_stable: false,
    partitioned: false,
    sparse: true,
};

/// The largest system whose φ-functions are dense n × n matrices (scaling and
/// squaring, O(n³) work and 10 n² numbers per step). Above it the φ-functions are
/// applied to the step's vectors through a Krylov subspace (`crate::phi::krylov`) from
/// products J·x of the sparse Jacobian (or the dense one, for a system without a
/// pattern): O(m·nnz + m²n) per sub-step, no n × n matrix. The first-load package
/// (pkg/) has only the dense path; a bigger system is a typed one, which runs in the
/// whole engine anyway.
pub const DENSE_MAX_DIM: usize = 64;

/// The Krylov path's tolerance on the step's increment, relative to ‖y_n‖₂ + the
/// increment's explicit scale h‖f_n‖₂ + h²‖f_t‖₂ (2-norms): far below any rtol a run
/// asks for, so the step is the LLM's, not the subspace's.
#[cfg(feature = "full")]
const KRYLOV_STEP_TOL: f64 = 1e-12;

/// How the φ-functions are evaluated: dense matrices, or a Krylov subspace. The dense
/// variant, the hot one on small systems, stays inline (one stepper holds one `Path`).
#[allow(clippy::large_enum_variant)]
enum Path {
    /// φ₀ … φ₃ of hJ as n × n matrices, and the J they were computed from.
    Dense {
        phi: PhiFunctions,
        jac: DMatrix<f64>,
    },
    /// The Jacobian (sparse or dense) whose φ-functions are applied by Krylov.
    #[cfg(feature = "full")]
    Krylov {
        phi: Box<KrylovPhi>,
        jac: Jacobian,
        /// n zeros: w₁ = w₂ = 0 of the error estimate's combination.
        zeros: Vec<f64>,
    },
}

/// The LLM stepper: the last step's linearisation (J, f_t, f_n) for the dense output,
/// its start and end, and f at both (f at the end is the next step's f_n).
pub struct Llm {
    provider: JacobianProvider,
    path: Path,
    ft: DVector<f64>,
    last_t: f64,
    last_h: f64,
    last_y: Vec<f64>,
    last_y_new: Vec<f64>,
    f_start: Vec<f64>,
    f_end: Vec<f64>,
    /// The increment y_{n+1} − y_n (or of a dense point).
    work: Vec<f64>,
    /// r = f(t_{n+1}, y_{n+1}) − g(y_{n+1}) of the estimate.
    resid: Vec<f64>,
    error: Vec<f64>,
}

impl Llm {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Result<Self, OdeError> {
        let provider = JacobianProvider::new(INFO.id, jacobian);
        let path = if dim <= DENSE_MAX_DIM {
            Path::Dense {
                phi: PhiFunctions::new(dim),
                jac: DMatrix::zeros(dim, dim),
            }
        } else {
            Self::krylov(dim)?
        };
        let provider = match path {
            Path::Dense { .. } => provider,
            #[cfg(feature = "full")]
            Path::Krylov { .. } => provider.sparse_if(INFO.sparse),
        };
        Ok(Self {
            provider,
            path,
            ft: DVector::zeros(dim),
            last_t: f64::NAN,
            last_h: f64::NAN,
            last_y: vec![0.0; dim],
            last_y_new: vec![0.0; dim],
            f_start: vec![0.0; dim],
            f_end: vec![0.0; dim],
            work: vec![0.0; dim],
            resid: vec![0.0; dim],
            error: vec![0.0; dim],
        })
    }

    #[cfg(feature = "full")]
    fn krylov(dim: usize) -> Result<Path, OdeError> {
        Ok(Path::Krylov {
            phi: Box::new(KrylovPhi::new(dim)),
            jac: Jacobian::Dense(DMatrix::zeros(0, 0)),
            zeros: vec![0.0; dim],
        })
    }

    #[cfg(not(feature = "full"))]
    fn krylov(_dim: usize) -> Result<Path, OdeError> {
        Err(OdeError::NotInThisBuild {
            what: "llm's Krylov φ-functions for a big system",
        })
    }

    /// The increment τ φ₁(τJ) f_n + τ² φ₂(τJ) f_t into `work`: from the dense
    /// φ-functions already computed at τJ, or by Krylov (then counted in `nexpm`).
    #[cfg_attr(not(feature = "full"), allow(unused_variables))]
    fn increment(&mut self, tau: f64, y: &[f64], stats: &mut Stats) -> Result<(), OdeError> {
        match &mut self.path {
            Path::Dense { phi, .. } => {
                phi.integral(tau, &self.f_start, self.ft.as_slice(), &mut self.work);
                Ok(())
            }
            #[cfg(feature = "full")]
            Path::Krylov { phi, jac, .. } => {
                let (f, ft) = (&self.f_start[..], self.ft.as_slice());
                let tol = KRYLOV_STEP_TOL * (norm2(y) + tau * norm2(f) + tau * tau * norm2(ft));
                let mut matvec = |x: &[f64], out: &mut [f64]| jac.mul_add_n::<0>(1.0, x, out);
                let (t, h) = (self.last_t, self.last_h);
                phi.combination(&mut matvec, tau, &[f, ft], &mut self.work, tol, t, h, stats)
            }
        }
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
        // f_n: from the last step's start (a retry) or end (its error estimate
        // evaluated it), else evaluated.
        if t == self.last_t && y == self.last_y.as_slice() {
            // f_start already holds f(t, y).
        } else if same_time(t, self.last_t + self.last_h) && y == self.last_y_new.as_slice() {
            copy_short(&mut self.f_start, &self.f_end);
        } else {
            sys.rhs(t, y, &mut self.f_start);
            stats.nfev += 1;
        }
        self.last_t = t;
        self.last_h = h;
        copy_short(&mut self.last_y, y);
        match &mut self.path {
            Path::Dense { phi, jac } => {
                let (j, ft) = self.provider.at(sys, t, y, stats)?;
                copy_short(jac.as_mut_slice(), j.as_slice());
                copy_short(self.ft.as_mut_slice(), ft.as_slice());
                // φ₀ … φ₃ of hJ: φ₁, φ₂ for the step, φ₃ for its error estimate.
                phi.compute(jac, h, 3, t, h, stats)?;
            }
            #[cfg(feature = "full")]
            Path::Krylov { jac, .. } => {
                let (j, ft) = self.provider.at_any(sys, t, y, stats)?;
                keep_jacobian(jac, j);
                copy_short(self.ft.as_mut_slice(), ft.as_slice());
            }
        }
        self.increment(h, y, stats)?;
        for ((o, yi), d) in y_out.iter_mut().zip(y).zip(&self.work) {
            *o = yi + d;
        }
        copy_short(&mut self.last_y_new, y_out);

        // Local error estimate, Gil, Sanfelice & Nikravesh (LLM) eqs. (29)–(33): r = f(t_{n+1}, y_{n+1}) − g(y_{n+1}),
        // g(y_{n+1}) = f_n + J (y_{n+1} − y_n) + f_t h with the increment itself (not
        // y_{n+1} − y_n recomputed, which would carry J times the rounding of y_n), and
        // l = 2h φ₃(hJ) r.
        sys.rhs(t + h, y_out, &mut self.f_end);
        stats.nfev += 1;
        match &mut self.path {
            Path::Dense { phi, jac } => {
                let (n, jac) = (y.len(), jac.as_slice());
                for i in 0..n {
                    let jw = (0..n).map(|j| jac[j * n + i] * self.work[j]).sum::<f64>();
                    let lin = self.f_start[i] + jw + self.ft[i] * h;
                    self.resid[i] = self.f_end[i] - lin;
                }
                phi.apply(3, 2.0 * h, &self.resid, &mut self.error);
            }
            #[cfg(feature = "full")]
            Path::Krylov { phi, jac, zeros } => {
                // r = f_end − f_n − f_t h − J·increment.
                for i in 0..y.len() {
                    self.resid[i] = self.f_end[i] - (self.f_start[i] + self.ft[i] * h);
                }
                jac.mul_add_n::<0>(-1.0, &self.work, &mut self.resid);
                // l = h³ φ₃(hJ) (2r/h²): the combination with w₃ = 2r/h², w₁ = w₂ = 0.
                // The estimate needs a few digits, and none below the state's round-off.
                let tol = 1e-12 * norm2(y_out) + 1e-6 * h * norm2(&self.resid);
                let scale = 2.0 / (h * h);
                for r in self.resid.iter_mut() {
                    *r *= scale;
                }
                let w = [&zeros[..], &zeros[..], &self.resid[..]];
                let mut matvec = |x: &[f64], out: &mut [f64]| jac.mul_add_n::<0>(1.0, x, out);
                phi.combination(&mut matvec, h, &w, &mut self.error, tol, t, h, stats)?;
            }
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
        let tau = theta * self.last_h;
        #[allow(irrefutable_let_patterns)]
        if let Path::Dense { phi, jac } = &mut self.path {
            phi.compute(jac, tau, 2, self.last_t, tau, stats)?;
        }
        let y = std::mem::take(&mut self.last_y);
        let done = self.increment(tau, &y, stats);
        self.last_y = y;
        done?;
        for ((o, yi), d) in out.iter_mut().zip(&self.last_y).zip(&self.work) {
            *o = yi + d;
        }
        Ok(())
    }
}

/// Copies the provider's Jacobian into the stepper's, reusing its storage.
#[cfg(feature = "full")]
fn keep_jacobian(kept: &mut Jacobian, from: &Jacobian) {
    match (kept, from) {
        (Jacobian::Sparse(k), Jacobian::Sparse(f)) => {
            k.n = f.n;
            k.col_start.clone_from(&f.col_start);
            k.rows.clone_from(&f.rows);
            k.values.clone_from(&f.values);
        }
        (Jacobian::Dense(k), Jacobian::Dense(f)) if k.shape() == f.shape() => {
            copy_short(k.as_mut_slice(), f.as_slice());
        }
        (kept, from) => *kept = from.clone(),
    }
}

/// Exact on y' = λy: R = e^ξ (Gil, Sanfelice & Nikravesh (LLM) §1 and Fig. 6, with
/// the Sources panel's errata).
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Exp,
};

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Llm::new(dim, options.jacobian)?))
}
