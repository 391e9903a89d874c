//! `radau5`: the three-stage Radau IIA method of order 5 (stage order 3, L-stable), the
//! fully implicit collocation method of Hairer–Wanner II §IV.8 and of their code RADAU5
//! (SciPy's `Radau` is the same method). Reading of the algorithm: Hairer–Wanner II
//! §IV.8 (eqs. 8.2a–8.20) and the published `radau5.f` (Hairer & Wanner, version of
//! 1996); no code is taken from either.
//!
//! **Stage system.** With Zᵢ = Yᵢ − yₙ the stage equations Z = h(A ⊗ I) F(Z) are solved
//! by simplified Newton with one J = ∂f/∂y per step. Writing A⁻¹ = T Λ T⁻¹ with Λ =
//! diag(γ̂, [[α, −β], [β, α]]) (one real eigenvalue and a complex pair) and W = (T⁻¹ ⊗ I)Z,
//! each iteration solves one real n×n system with (γ̂/h)I − J and one complex n×n system
//! with ((α + iβ)/h)I − J instead of a real 3n×3n one (II eqs. 8.15–8.16): two LUs per
//! Jacobian or step-size change, made and solved in storage kept by the stepper
//! (`radau5/lu.rs`: nalgebra's LU in place, the numbers of `linalg::Factored`), so a
//! step allocates nothing.
//!
//! **Newton control** (II §IV.8, "stopping criterion"): the contractivity
//! Θₖ = ‖ΔWₖ‖/‖ΔWₖ₋₁‖ gives the predicted iteration error Θ/(1 − Θ)‖ΔW‖, stopped below
//! κ·Tol (κ = min(0.03, √rtol'), at least 10 u/rtol', as RADAU5's FNEWT, with rtol' the
//! calibrated tolerance below); at most 7 iterations, and an iteration predicted not to
//! converge in them, or with Θ ≥ 0.99, is abandoned as [`OdeError::NewtonFailed`] so the
//! driver retries with a smaller step: h·0.8·q^(−1/(4 + iterations left)) when it was
//! converging too slowly (q the predicted excess, clamped to [1e-4, 20]), h/2 otherwise
//! (RADAU5's two exits). The starting values are the previous step's collocation
//! polynomial extrapolated (II eq. 8.20; RADAU5's STARTN false); a first step (or one
//! after a restart) starts from Z = 0. The tolerance comes from
//! [`Stepper::set_tolerance`] (adaptive runs); without one (a fixed grid) the iteration
//! is run to the tight tolerance of `newton.rs` ([`NEWTON_RTOL`], [`NEWTON_ATOL`]).
//!
//! **Jacobian reuse.** A retried step (after a rejection or a failure) keeps J only if
//! J was evaluated for this step (RADAU5's CALJAC), and both LUs if h did not change.
//! After an accepted step whose Newton iteration contracted by Θ ≤ 0.001, J is kept
//! for the next step too (RADAU5's THET); otherwise it is re-evaluated at the new
//! point. The LUs are kept while J is and h differs from theirs by no more than the
//! rounding of t + h.
//!
//! **Error estimate** (II eqs. 8.19–8.20): err = (γ̂/h · I − J)⁻¹ (f(tₙ, yₙ) + (e₁z₁ +
//! e₂z₂ + e₃z₃)/h) with (e₁, e₂, e₃) = (DD1, DD2, DD3) of `radau5.f`; on a first step and
//! after a rejection it is refined once with f(tₙ, yₙ + err) in place of f(tₙ, yₙ)
//! (II eq. 8.21), which damps the stiff components. The estimate is measured against
//! RADAU5's calibration of the run's tolerance, rtol' = 0.1·rtol^(2/3) and
//! atol' = atol·rtol'/rtol ([`Stepper::error_tolerance`]; the estimate is that of an
//! order-3 solution, the calibration makes the order-5 solution's global error roughly
//! proportional to rtol).
//!
//! **Step sizes** are RADAU5's ([`StepControl`], used unless the spec names a
//! `controller`): Gustafsson's predictive controller with a safety factor that drops
//! with the step's Newton iterations, h kept (and with it J and both LUs) when the new
//! one is within [1, 1.2]·h and J is kept, a rejected first step retried at h/10, a
//! failed step at the factor its Newton iteration computed (`control/predictive.rs`).
//!
//! **Dense output**: the collocation polynomial through yₙ, Y₁, Y₂, Y₃ (order 3, II
//! §IV.8 "dense output"), in RADAU5's divided-difference form around t_{n+1}.

// The digits are computed from the closed forms cited next to each constant (40-digit
// arithmetic); the compiler rounds them to the nearest f64.
#![allow(clippy::excessive_precision)]

use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::control::{Predictive, StepControl, Tolerance};
use crate::error::{NewtonReason, OdeError};
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linear_solver::Jacobian;
use crate::problem::{Dae, System};
use crate::stats::Stats;
use nalgebra::Complex;

mod lu;
use lu::StageLu;

/// Nodes c = ((4 − √6)/10, (4 + √6)/10, 1), Hairer–Wanner II Table IV.5.6.
pub const C: [f64; 3] = [
    0.1550510257216821901802716,
    0.6449489742783178098197284,
    1.0,
];

/// The Radau IIA matrix A, Hairer–Wanner II Table IV.5.6:
/// row 1 ((88 − 7√6)/360, (296 − 169√6)/1800, (−2 + 3√6)/225),
/// row 2 ((296 + 169√6)/1800, (88 + 7√6)/360, (−2 − 3√6)/225),
/// row 3 ((16 − √6)/36, (16 + √6)/36, 1/9).
pub const A: [[f64; 3]; 3] = [
    [
        0.1968154772236604258683861,
        -0.06553542585019838810852278,
        0.02377097434822015242040823,
    ],
    [
        0.3944243147390872769974117,
        0.2920734116652284630205027,
        -0.04154875212599793019818601,
    ],
    [
        0.3764030627004672750500754,
        0.5124858261884216138388134,
        1.0 / 9.0,
    ],
];

/// Weights b = last row of A (stiffly accurate), Hairer–Wanner II Table IV.5.6.
pub const B: [f64; 3] = A[2];

/// γ̂ = 1/u₁ with u₁ = (6 + ∛81 − ∛9)/30: the real eigenvalue of A⁻¹ (`radau5.f`, U1).
pub const GAMMA: f64 = 3.637834252744495732208419;
/// α ± iβ, the complex eigenvalues of A⁻¹: α = a/(a² + b²), β = b/(a² + b²) with
/// a = (12 − ∛81 + ∛9)/60, b = (∛81 + ∛9)√3/60 (`radau5.f`, ALPH and BETA).
pub const ALPHA: f64 = 2.681082873627752133895791;
pub const BETA: f64 = 3.050430199247410569426378;

/// T, A⁻¹ = T Λ T⁻¹, as printed in `radau5.f` (T11 … T31; T32 = 1, T33 = 0).
pub const T: [[f64; 3]; 3] = [
    [
        9.1232394870892942792e-02,
        -0.14125529502095420843,
        -3.0029194105147424492e-02,
    ],
    [
        0.24171793270710701896,
        0.20412935229379993199,
        0.38294211275726193779,
    ],
    [0.96604818261509293619, 1.0, 0.0],
];

/// T⁻¹ as printed in `radau5.f` (TI11 … TI33).
pub const TI: [[f64; 3]; 3] = [
    [
        4.3255798900631553510,
        0.33919925181580986954,
        0.54177053993587487119,
    ],
    [
        -4.1787185915519047273,
        -0.32768282076106238708,
        0.47662355450055045196,
    ],
    [
        -0.50287263494578687595,
        2.5719269498556054292,
        -0.59603920482822492497,
    ],
];

/// The error estimate's weights (`radau5.f` DD1 = −(13 + 7√6)/3, DD2 = (−13 + 7√6)/3,
/// DD3 = −1/3; Hairer–Wanner II eq. 8.19 with γ₀ = 1/γ̂).
const DD: [f64; 3] = [
    -10.04880939982741556246033,
    1.382142733160748895793663,
    -1.0 / 3.0,
];

/// Newton iterations per step (RADAU5's default NIT).
const MAX_NEWTON: u32 = 7;
/// Newton iterations per step of a differential-algebraic system on a fixed grid.
const FIXED_GRID_DAE_NEWTON: u32 = 30;
/// Keep J after an accepted step whose iteration contracted at least this fast
/// (RADAU5's THET).
const THETA_KEEP_JACOBIAN: f64 = 0.001;
/// A step that failed in its linear algebra, diverged or used up its iterations is
/// retried at this fraction of h (RADAU5's label 78).
const FAILURE_FACTOR: f64 = 0.5;
/// The iteration tolerance when no tolerance was handed over (`newton.rs`'s).
pub use super::newton::{NEWTON_ATOL, NEWTON_RTOL};

pub const INFO: MethodInfo = MethodInfo {
    id: "radau5",
    name: "Radau IIA 5",
    order: 5,
    family: "fully implicit Runge–Kutta (collocation)",
    source: "Hairer–Wanner II §IV.8 and Table IV.5.6; the algorithm of RADAU5",
    stages: 3,
    adaptive: true,
    embedded_order: Some(3),
    fsal: false,
    dense_order: 3,
    second_order: false,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
    sparse: true,
};

/// What a call to [`Stepper::step`] continues from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// The end of the last step: it was accepted.
    AfterAccepted,
    /// The start of the last step: it was rejected (or failed) and is retried.
    Retry,
    /// Anywhere else (the first step, or after a restart).
    Fresh,
}

/// The collocation polynomial of a step in RADAU5's form: around t₁ = tₙ + h,
/// u(t₁ + sh) = y₁ + s(d₁ + (s − c₂ + 1)(d₂ + (s − c₁ + 1)d₃)), s ∈ [−1, 0].
#[derive(Debug, Clone)]
struct Collocation {
    /// (d₁, d₂, d₃) per component.
    d: Vec<[f64; 3]>,
    h: f64,
}

impl Collocation {
    fn new(n: usize) -> Self {
        Self {
            d: vec![[0.0; 3]; n],
            h: f64::NAN,
        }
    }

    /// The divided differences of (0, z₁, z₂, z₃) at (−1, c₁ − 1, c₂ − 1, 0) in s.
    fn fit(&mut self, z: &[[f64; 3]], h: f64) {
        let (c1m1, c2m1, c1mc2) = (C[0] - 1.0, C[1] - 1.0, C[0] - C[1]);
        for (d, &[z1, z2, z3]) in self.d.iter_mut().zip(z) {
            let d1 = (z2 - z3) / c2m1;
            let ak = (z1 - z2) / c1mc2;
            let acont3 = (ak - z1 / C[0]) / C[1];
            let d2 = (ak - d1) / c1m1;
            *d = [d1, d2, d2 - acont3];
        }
        self.h = h;
    }

    /// u(t₁ + sh) − y₁ for component i.
    #[inline]
    fn offset(&self, i: usize, s: f64) -> f64 {
        offset(&self.d[i], s)
    }
}

/// u(t₁ + sh) − y₁ for one component with divided differences `d`.
#[inline]
fn offset(d: &[f64; 3], s: f64) -> f64 {
    let (c1m1, c2m1) = (C[0] - 1.0, C[1] - 1.0);
    s * (d[0] + (s - c2m1) * (d[1] + (s - c1m1) * d[2]))
}

/// The Radau IIA stepper: stage vectors, factorisations and the last steps' polynomials.
pub struct Radau5 {
    provider: JacobianProvider,
    options: JacobianOptions,
    /// J, dense, or sparse when the system gives its pattern (big typed systems).
    jac: Option<Jacobian>,
    /// J was evaluated at the start of the current step (not kept from an earlier one).
    jac_fresh: bool,
    /// Steps served by the current J (for `jacobianUpdate`).
    jac_uses: usize,
    /// The real and complex factorisations and the h they were made for.
    lu: StageLu,
    /// Stage increments Zᵢ = Yᵢ − yₙ and their transforms W = T⁻¹Z, the three stages
    /// of each component together.
    z: Vec<[f64; 3]>,
    w: Vec<[f64; 3]>,
    /// f at the stages (then overwritten by the transformed right-hand sides).
    fz: [Vec<f64>; 3],
    /// The stage values Yᵢ = yₙ + Zᵢ, kept with Z through the iteration.
    stages: [Vec<f64>; 3],
    f0: Vec<f64>,
    /// The right-hand sides of the real and the complex system, solved in place.
    rhs_real: Vec<f64>,
    rhs_re: Vec<f64>,
    rhs_im: Vec<f64>,
    error: Vec<f64>,
    scale: Vec<f64>,
    tolerance: Option<Tolerance>,
    /// RADAU5's FNEWT for `tolerance`: the Newton iteration stops when its predicted
    /// error is below FNEWT in the scaled norm.
    fnewt: f64,
    /// The last computed step (dense output) and the last accepted one (predictor).
    last: Collocation,
    accepted: Collocation,
    have_accepted: bool,
    last_t: f64,
    last_h: f64,
    last_y: Vec<f64>,
    last_y_new: Vec<f64>,
    /// RADAU5's FACCON and THETA, carried from step to step.
    faccon: f64,
    /// Some(x) while FACCON is x^0.8 not yet computed ([`Radau5::faccon`]).
    faccon_pending: Option<f64>,
    theta: f64,
    last_failed: bool,
    /// Newton iterations of the last step, and the factor on h a failed one proposes.
    newton_iterations: u32,
    failure_factor: f64,
    /// RADAU5's step-size policy ([`StepControl`]).
    control: Predictive,
    /// The structure of a differential-algebraic system being integrated (asked of the
    /// system at every step), `None` for an ODE.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    dae: Option<Dae>,
}

impl Radau5 {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        let v = || vec![0.0; dim];
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian).sparse_if(INFO.sparse),
            options: jacobian,
            jac: None,
            jac_fresh: false,
            jac_uses: 0,
            lu: StageLu::new(dim),
            z: vec![[0.0; 3]; dim],
            w: vec![[0.0; 3]; dim],
            fz: [v(), v(), v()],
            stages: [v(), v(), v()],
            f0: v(),
            rhs_real: v(),
            rhs_re: v(),
            rhs_im: v(),
            error: v(),
            scale: v(),
            tolerance: None,
            fnewt: 1.0,
            last: Collocation::new(dim),
            accepted: Collocation::new(dim),
            have_accepted: false,
            last_t: f64::NAN,
            last_h: f64::NAN,
            last_y: v(),
            last_y_new: v(),
            faccon: 1.0,
            faccon_pending: None,
            theta: 1.0,
            last_failed: false,
            newton_iterations: 0,
            failure_factor: FAILURE_FACTOR,
            control: Predictive::new(MAX_NEWTON),
            dae: None,
        }
    }

    fn classify(&self, t: f64, y: &[f64]) -> Start {
        if t == self.last_t && y == self.last_y.as_slice() {
            Start::Retry
        } else if super::history::same_time(t, self.last_t + self.last_h)
            && y == self.last_y_new.as_slice()
        {
            Start::AfterAccepted
        } else {
            Start::Fresh
        }
    }

    /// The Newton tolerance: (rtol, atol) per component and FNEWT. The index-2 and
    /// index-3 components of a differential-algebraic system have theirs divided by h
    /// and h² (Hairer & Wanner, Solving ODEs II §VII.8; RADAU5's SCAL/HHFAC): their
    /// errors are measured multiplied by h and h².
    fn newton_scale(&mut self, y: &[f64], h: f64) -> f64 {
        let fnewt = self.ode_newton_scale(y);
        if let Some(dae) = self.dae() {
            let [i1, i2, i3] = dae.index;
            for s in &mut self.scale[i1..i1 + i2] {
                *s /= h;
            }
            for s in &mut self.scale[i1 + i2..i1 + i2 + i3] {
                *s /= h * h;
            }
        }
        fnewt
    }

    fn ode_newton_scale(&mut self, y: &[f64]) -> f64 {
        match &self.tolerance {
            Some(tol) => {
                let per_component = tol.atol.iter().zip(&tol.rtol);
                for ((s, (&atol, &rtol)), v) in self.scale.iter_mut().zip(per_component).zip(y) {
                    *s = atol + rtol * v.abs();
                }
                self.fnewt
            }
            None => {
                for (s, v) in self.scale.iter_mut().zip(y) {
                    *s = NEWTON_ATOL + NEWTON_RTOL * v.abs();
                }
                1.0
            }
        }
    }

    /// J for a step from (t, y): kept or evaluated per the reuse rules of the module doc.
    fn update_jacobian(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        start: Start,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let keep = match start {
            // A retry keeps J only if it was evaluated for this step (RADAU5's CALJAC),
            // or, with `jacobianUpdate` > 1, if it still serves and did not fail.
            Start::Retry => {
                self.jac_fresh || (!self.last_failed && self.jac_uses < self.options.update_every)
            }
            Start::AfterAccepted => {
                self.theta <= THETA_KEEP_JACOBIAN || self.jac_uses < self.options.update_every
            }
            Start::Fresh => false,
        };
        if keep && self.jac.is_some() {
            if start == Start::AfterAccepted {
                self.jac_fresh = false;
                self.jac_uses += 1;
            }
            return Ok(());
        }
        // A dense J is copied into the matrix kept from the last evaluation (no
        // allocation per J); a sparse one (a big typed system) is factored sparse.
        match (self.provider.fresh(sys, t, y, stats)?, &mut self.jac) {
            (Jacobian::Dense(j), Some(Jacobian::Dense(kept))) if kept.shape() == j.shape() => {
                kept.copy_from(j)
            }
            (j, kept) => *kept = Some(j.clone()),
        }
        self.jac_fresh = true;
        self.jac_uses = 1;
        self.lu.invalidate();
        Ok(())
    }

    /// The two factorisations for step size h, kept when J is unchanged and h differs
    /// from theirs by no more than the rounding of t + h (the driver computes h as
    /// (t + h) − t, so a step size the controller kept arrives rounded).
    /// The system's differential-algebraic structure. Only the whole engine runs the
    /// index-3 formulation, so the run package compiles none of the DAE branches.
    #[inline(always)]
    fn dae(&self) -> Option<Dae> {
        #[cfg(feature = "full")]
        {
            self.dae
        }
        #[cfg(not(feature = "full"))]
        {
            None
        }
    }

    fn factor(&mut self, t: f64, h: f64, stats: &mut Stats) -> Result<(), OdeError> {
        let rounding = 4.0 * f64::EPSILON * (t.abs() + h.abs());
        if matches!(self.lu.factored_for(), Some(lu_h) if (lu_h - h).abs() <= rounding) {
            return Ok(());
        }
        let jac = self.jac.as_ref().ok_or_else(no_jacobian)?;
        let complex_shift = Complex::new(ALPHA / h, BETA / h);
        let differential = self.dae().map_or(jac.nrows(), |d| d.differential);
        self.lu
            .factor(jac, GAMMA / h, complex_shift, differential, t, h, stats)
    }

    /// Starting values: the accepted step's polynomial extrapolated to the new stages
    /// (II eq. 8.20), or zero; and the stage values yₙ + Zᵢ the iteration starts from.
    fn predict(&mut self, y: &[f64], h: f64, use_polynomial: bool) {
        let n = y.len();
        let (z, w, d) = (&mut self.z[..n], &mut self.w[..n], &self.accepted.d[..n]);
        let [y1, y2, y3] = &mut self.stages;
        let (y1, y2, y3) = (&mut y1[..n], &mut y2[..n], &mut y3[..n]);
        let s = C.map(|c| c * (h / self.accepted.h));
        for i in 0..n {
            let zi = if use_polynomial {
                s.map(|s| offset(&d[i], s))
            } else {
                [0.0; 3]
            };
            z[i] = zi;
            w[i] = TI.map(|ti| ti[0] * zi[0] + ti[1] * zi[1] + ti[2] * zi[2]);
            (y1[i], y2[i], y3[i]) = (y[i] + zi[0], y[i] + zi[1], y[i] + zi[2]);
        }
    }

    /// The simplified Newton iteration on the transformed stage system.
    fn newton(
        &mut self,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = y.len();
        let fnewt = self.newton_scale(y, h);
        // M's ones: the algebraic components' rows carry no (Λ/h)·W term.
        let differential = self.dae().map_or(n, |d| d.differential.min(n));
        let (fac1, alphn, betan) = (GAMMA / h, ALPHA / h, BETA / h);
        // RADAU5's FACCON = max(FACCON, u)^0.8, computed only when read (it is
        // overwritten from the second iteration on).
        self.faccon_pending = Some(self.faccon().max(f64::EPSILON));
        // An iteration that converges at once counts as contracting fast (RADAU5).
        self.theta = THETA_KEEP_JACOBIAN;
        let mut dynold = 0.0;
        let mut thqold = 0.0;
        // On a fixed grid (no tolerance handed over) a DAE's iteration runs to the tight
        // tolerance of `newton.rs`; its first iterates move the multipliers by far more
        // than that and the index-3 iteration contracts only by Θ = O(h), so it is
        // given the iterations it needs instead of RADAU5's prediction and cap.
        let predicts_only = self.tolerance.is_none() && self.dae().is_some();
        let max_newton = if predicts_only {
            FIXED_GRID_DAE_NEWTON
        } else {
            MAX_NEWTON
        };
        for newt in 1..=max_newton {
            for ((stage, fk), ck) in self.stages.iter().zip(&mut self.fz).zip(C) {
                sys.rhs(t + ck * h, stage, fk);
            }
            stats.nfev += 3;
            stats.nnewton += 1;
            {
                // Slices of length n, so the loop indexes them without bounds checks.
                let [fz1, fz2, fz3] = &self.fz;
                let (fz1, fz2, fz3, w) = (&fz1[..n], &fz2[..n], &fz3[..n], &self.w[..n]);
                let real = &mut self.rhs_real[..n];
                let (re, im) = (&mut self.rhs_re[..n], &mut self.rhs_im[..n]);
                for i in 0..n {
                    let (a1, a2, a3) = (fz1[i], fz2[i], fz3[i]);
                    let r1 = TI[0][0] * a1 + TI[0][1] * a2 + TI[0][2] * a3;
                    let r2 = TI[1][0] * a1 + TI[1][1] * a2 + TI[1][2] * a3;
                    let r3 = TI[2][0] * a1 + TI[2][1] * a2 + TI[2][2] * a3;
                    let [w1, w2, w3] = w[i];
                    real[i] = r1 - w1 * fac1;
                    re[i] = r2 - w2 * alphn + w3 * betan;
                    im[i] = r3 - w3 * alphn - w2 * betan;
                }
                // (T⁻¹ ⊗ I)F − (Λ/h ⊗ M)W: M's zeros take the W terms out.
                for i in differential..n {
                    let (a1, a2, a3) = (fz1[i], fz2[i], fz3[i]);
                    real[i] = TI[0][0] * a1 + TI[0][1] * a2 + TI[0][2] * a3;
                    re[i] = TI[1][0] * a1 + TI[1][1] * a2 + TI[1][2] * a3;
                    im[i] = TI[2][0] * a1 + TI[2][1] * a2 + TI[2][2] * a3;
                }
            }
            self.lu.solve_real(&mut self.rhs_real);
            self.lu.solve_complex(&mut self.rhs_re, &mut self.rhs_im);
            // The increment's norm, and the increment applied: W += ΔW, Z = TW and the
            // stage values yₙ + Z. An iteration that stops below leaves the step, whose
            // retry starts again from `predict`, so applying it first is harmless.
            let mut dyno = 0.0;
            {
                let (w, z, y) = (&mut self.w[..n], &mut self.z[..n], &y[..n]);
                let (real, re, im) = (&self.rhs_real[..n], &self.rhs_re[..n], &self.rhs_im[..n]);
                let scale = &self.scale[..n];
                let [y1, y2, y3] = &mut self.stages;
                let (y1, y2, y3) = (&mut y1[..n], &mut y2[..n], &mut y3[..n]);
                for i in 0..n {
                    let s = scale[i];
                    let (a, b, d) = (real[i] / s, re[i] / s, im[i] / s);
                    dyno += a * a + b * b + d * d;
                    let [w1, w2, w3] = w[i];
                    let (f1, f2, f3) = (w1 + real[i], w2 + re[i], w3 + im[i]);
                    w[i] = [f1, f2, f3];
                    let zi = [
                        T[0][0] * f1 + T[0][1] * f2 + T[0][2] * f3,
                        T[1][0] * f1 + T[1][1] * f2 + T[1][2] * f3,
                        T[2][0] * f1 + f2,
                    ];
                    z[i] = zi;
                    (y1[i], y2[i], y3[i]) = (y[i] + zi[0], y[i] + zi[1], y[i] + zi[2]);
                }
            }
            // An empty state (a fully driven mechanism in state-space form) has no
            // correction to measure: 0, not 0/0.
            let dyno = (dyno / (3 * n).max(1) as f64).sqrt();
            if !dyno.is_finite() {
                // A non-finite solution is a (numerically) singular matrix, as a
                // checked solve would say; a finite one too large to square diverged.
                return Err(if !all_finite(&self.rhs_real) {
                    self.lu.refused_real()
                } else if !all_finite(&self.rhs_re) || !all_finite(&self.rhs_im) {
                    self.lu.refused_complex()
                } else {
                    self.failed(
                        t,
                        h,
                        newt,
                        NewtonReason::Diverged {
                            theta: f64::INFINITY,
                        },
                    )
                });
            }
            if newt > 1 && newt < max_newton {
                let thq = dyno / dynold;
                self.theta = if newt == 2 {
                    thq
                } else {
                    (thq * thqold).sqrt()
                };
                thqold = thq;
                if self.theta < 0.99 {
                    self.faccon = self.theta / (1.0 - self.theta);
                    self.faccon_pending = None;
                    let remaining = max_newton.saturating_sub(1 + newt) as i32;
                    let dyth =
                        self.faccon * dyno * crate::math::powi(self.theta, remaining) / fnewt;
                    if dyth >= 1.0 && !predicts_only {
                        // Converging, but too slowly to finish in the iterations left:
                        // RADAU5 retries with h scaled by 0.8·q^(−1/(4 + remaining)),
                        // q the predicted excess clamped to [1e-4, 20].
                        let q = dyth.clamp(1e-4, 20.0);
                        self.failure_factor =
                            0.8 * crate::math::powf(q, -1.0 / (4.0 + remaining as f64));
                        let theta = self.theta;
                        return Err(self.failed(
                            t,
                            h,
                            newt,
                            NewtonReason::SlowContraction { theta },
                        ));
                    }
                } else {
                    let theta = self.theta;
                    return Err(self.failed(t, h, newt, NewtonReason::Diverged { theta }));
                }
            }
            dynold = dyno.max(f64::EPSILON);
            let converged = match self.faccon_pending {
                // The first iteration, far from converged even with FACCON's lower
                // bound: the same decision without the power (fl(ab) is monotone in a).
                Some(base) if pow_08_lower_bound(base) * dyno > fnewt => false,
                _ => self.faccon() * dyno <= fnewt,
            };
            if converged {
                self.newton_iterations = newt;
                return Ok(());
            }
        }
        let theta = self.theta;
        Err(self.failed(t, h, max_newton, NewtonReason::SlowContraction { theta }))
    }

    /// RADAU5's FACCON, the power left pending by [`Radau5::newton`] computed now.
    fn faccon(&mut self) -> f64 {
        if let Some(base) = self.faccon_pending.take() {
            self.faccon = crate::math::powf(base, 0.8);
        }
        self.faccon
    }

    fn failed(&mut self, t: f64, h: f64, iterations: u32, reason: NewtonReason) -> OdeError {
        self.last_failed = true;
        OdeError::NewtonFailed {
            t,
            h,
            iterations,
            reason,
        }
    }

    /// err = (γ̂/h · I − J)⁻¹ (f + Σ eᵢzᵢ/h) into `self.error`, with f = f(tₙ, yₙ)
    /// (`refined` false) or f(tₙ, yₙ + err) (in `fz[0]`, `refined` true); Σ eᵢzᵢ/h is
    /// kept in `fz[1]` between the two.
    fn estimate(&mut self, h: f64, refined: bool) -> Result<(), OdeError> {
        let (e1, e2, e3) = (DD[0] / h, DD[1] / h, DD[2] / h);
        let dae = self.dae();
        let [refined_f, sum, _] = &mut self.fz;
        let f = if refined { &*refined_f } else { &self.f0 };
        for (((e, s), f), z) in self.error.iter_mut().zip(sum).zip(f).zip(&self.z) {
            if !refined {
                *s = e1 * z[0] + e2 * z[1] + e3 * z[2];
            }
            *e = *s + f;
        }
        // M Σ eᵢzᵢ/h: nothing on the algebraic components.
        if let Some(dae) = dae {
            for (e, f) in self.error.iter_mut().zip(f).skip(dae.differential) {
                *e = *f;
            }
        }
        self.lu.solve_real(&mut self.error);
        if all_finite(&self.error) {
            Ok(())
        } else {
            Err(self.lu.refused_real())
        }
    }

    /// The index-2 and index-3 components' errors multiplied by h and h² (Hairer &
    /// Wanner, Solving ODEs II §VII.8; RADAU5 divides their SCAL by h and h², the same
    /// measure): the estimate of an index-k variable is O(h^(−k+1)) larger than its
    /// error, so unscaled it would reject every step.
    fn scale_algebraic_error(&mut self, h: f64) {
        if let Some(dae) = self.dae() {
            let [i1, i2, i3] = dae.index;
            for e in &mut self.error[i1..i1 + i2] {
                *e *= h;
            }
            for e in &mut self.error[i1 + i2..i1 + i2 + i3] {
                *e *= h * h;
            }
        }
    }

    /// Whether the estimate is already within tolerance (the driver's RMS norm); `None`
    /// when no tolerance was handed over.
    fn estimate_accepted(&self, y: &[f64], y_new: &[f64]) -> Option<bool> {
        let tol = self.tolerance.as_ref()?;
        Some(
            crate::control::error_norm(crate::control::ErrorNorm::Rms, &self.error, y, y_new, tol)
                < 1.0,
        )
    }
}

impl Stepper for Radau5 {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    fn set_tolerance(&mut self, tolerance: &Tolerance) {
        self.tolerance = Some(tolerance.clone());
        let rtol = tolerance.rtol.iter().copied().fold(f64::INFINITY, f64::min);
        self.fnewt = (10.0 * f64::EPSILON / rtol).max(0.03f64.min(rtol.sqrt()));
    }

    /// RADAU5's calibration ("check and change the tolerances" of `radau5.f`): the
    /// estimate, of the embedded order-3 solution, is measured against
    /// rtol' = 0.1·rtol^(2/3) and atol' = atol·rtol'/rtol, which makes the global error
    /// of the order-5 solution roughly proportional to the requested rtol.
    fn error_tolerance(&self, run: &Tolerance) -> Tolerance {
        // A scalar rtol arrives as one value per component: its power is taken once
        // (a power per component is most of a big system's setup otherwise).
        let mut last = (f64::NAN, f64::NAN);
        let rtol: Vec<f64> = run
            .rtol
            .iter()
            .map(|&r| {
                if r.to_bits() != last.0.to_bits() {
                    last = (r, 0.1 * crate::math::powf(r, 2.0 / 3.0));
                }
                last.1
            })
            .collect();
        let atol = run
            .atol
            .iter()
            .zip(&run.rtol)
            .zip(&rtol)
            .map(|((&a, &r), &r_new)| a / r * r_new)
            .collect();
        Tolerance { rtol, atol }
    }

    fn step_control(&mut self) -> Option<&mut dyn StepControl> {
        Some(self)
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
        let start = self.classify(t, y);
        match start {
            Start::AfterAccepted => {
                std::mem::swap(&mut self.accepted, &mut self.last);
                self.have_accepted = true;
            }
            Start::Fresh => self.have_accepted = false,
            Start::Retry => {}
        }
        if start != Start::Retry {
            sys.rhs(t, y, &mut self.f0);
            stats.nfev += 1;
        }
        #[cfg(feature = "full")]
        {
            self.dae = sys.dae();
        }
        self.update_jacobian(sys, t, y, start, stats)?;
        // From here on (t, y) is the start of the last step, whatever happens to it.
        self.last_t = t;
        self.last_h = h;
        self.last_y.copy_from_slice(y);
        self.last_failed = false;
        self.failure_factor = FAILURE_FACTOR;
        self.factor(t, h, stats)?;
        self.predict(y, h, self.have_accepted);
        self.newton(sys, t, y, h, stats)?;
        // y + Z₃, the last stage value.
        y_out.copy_from_slice(&self.stages[2]);
        self.estimate(h, false)?;
        // First step or a retry whose estimate fails (always, without a tolerance):
        // refine with f(tₙ, yₙ + err) (II eq. 8.21).
        if start != Start::AfterAccepted {
            for ((ys, yv), e) in self.stages[0].iter_mut().zip(y).zip(&self.error) {
                *ys = yv + e;
            }
        }
        self.scale_algebraic_error(h);
        if start != Start::AfterAccepted && self.estimate_accepted(y, y_out) != Some(true) {
            sys.rhs(t, &self.stages[0], &mut self.fz[0]);
            stats.nfev += 1;
            self.estimate(h, true)?;
            self.scale_algebraic_error(h);
        }
        self.last.fit(&self.z, h);
        self.last_y_new.copy_from_slice(y_out);
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
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let s = theta - 1.0;
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.last_y_new[i] + self.last.offset(i, s);
        }
        Ok(())
    }
}

/// A power of two at most `powf(x, 0.8)` (0 unless x > 0 with binary exponent
/// e ∈ [−1000, 1000]): x ∈ [2ᵉ, 2ᵉ⁺¹)
/// gives x^0.8 ≥ 2^(0.8e) ≥ 2^⌊4e/5⌋, halved once more so that pow's error (under an
/// ulp) cannot take it below the bound where x^0.8 is itself a power of two.
fn pow_08_lower_bound(x: f64) -> f64 {
    let e = ((x.to_bits() >> 52) & 0x7ff) as i64 - 1023;
    if !(x > 0.0 && (-1000..=1000).contains(&e)) {
        return 0.0;
    }
    let k = (4 * e).div_euclid(5) - 1;
    f64::from_bits(((k + 1023) as u64) << 52)
}

fn all_finite(values: &[f64]) -> bool {
    values.iter().all(|v| v.is_finite())
}

fn no_jacobian() -> OdeError {
    OdeError::NoJacobian {
        method: INFO.id.into(),
        model: "this system".into(),
    }
}

/// RADAU5's step-size policy: the [`Predictive`] controller fed with the step's Newton
/// iterations (h kept in its band only while J is kept), and a failed step retried
/// with the factor its Newton iteration computed.
impl StepControl for Radau5 {
    fn after_accept(&mut self, h: f64, err: f64, after_reject: bool) -> f64 {
        let keeps_jacobian = self.theta <= THETA_KEEP_JACOBIAN;
        self.control
            .after_accept(h, err, self.newton_iterations, after_reject, keeps_jacobian)
    }

    fn after_reject(&mut self, h: f64, err: f64) -> f64 {
        self.control.after_reject(h, err, self.newton_iterations)
    }

    fn after_failure(&mut self, h: f64) -> f64 {
        h * self.failure_factor
    }
}

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Full(&[&A[0], &A[1], &A[2]], &B),
};

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Radau5::new(dim, options.jacobian)))
}

#[cfg(test)]
mod tests {
    use super::pow_08_lower_bound;

    #[test]
    fn pow_08_lower_bound_stays_below_the_power_and_within_a_factor_eight() {
        // FACCON's range (u … 99) and beyond, every power of two in it (where x^0.8
        // can be a power of two itself) and the numbers around them.
        let mut xs = vec![f64::EPSILON, 1.0, 99.0, 1e-300, 1e300];
        for k in -60..=20 {
            let p = crate::math::powi(2.0, k);
            xs.extend([p, p * (1.0 - f64::EPSILON), p * (1.0 + 2.0 * f64::EPSILON)]);
            xs.extend((1..10).map(|j| p * (1.0 + j as f64 / 10.0)));
        }
        for x in xs {
            let (bound, power) = (pow_08_lower_bound(x), crate::math::powf(x, 0.8));
            assert!(bound <= power, "x = {x:e}: {bound:e} > {power:e}");
            assert!(
                bound * 8.0 > power,
                "x = {x:e}: {bound:e} is loose for {power:e}"
            );
        }
        for x in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-310] {
            assert_eq!(pow_08_lower_bound(x), 0.0);
        }
    }
}
