//! A generic Rosenbrock (linearly implicit) step, seed 001 eqs. (2a)–(3), over a
//! `const` [`RosenbrockTableau`]; `ros4.rs` and `w2.rs` are such tables.
//!
//! ```text
//! k_i = h f(t_n + α_i h, y_n + Σ_{j<i} α_ij k_j) + γ_i h² f_t(t_n, y_n) + hJ Σ_{j≤i} γ_ij k_j
//! y_{n+1} = y_n + Σ b_i k_i,   ŷ_{n+1} = y_n + Σ b̂_i k_i
//! ```
//!
//! with γ_ii = γ for every stage, α_i = Σ_j α_ij and γ_i = Σ_{j≤i} γ_ij (001 §2). Each
//! stage solves (I − γhJ) k_i = h f(…) + γ_i h² f_t + hJ Σ_{j<i} γ_ij k_j with one LU of
//! I − γhJ per step. A stage whose argument row α_i· equals the previous stage's (001
//! eq. 11: α4j = α3j) reuses that f evaluation: the four-stage ros4 costs three.
//! The error estimate is y_{n+1} − ŷ_{n+1} = Σ (b_i − b̂_i) k_i (001 eq. 3), controlled
//! by `crate::control` (001 eqs. 4–7); the step measures it itself (`MeasuredStep`,
//! the driver's `ErrorMeasure::of` operation for operation, with the size a constant on
//! the n = 2 path). The same loop is a W-method when J is inexact.
//!
//! The Jacobian comes from a [`JacobianProvider`]: a retried step (after a rejection)
//! reuses it, so a rejection costs f evaluations and one LU but no Jacobian. A step
//! allocates nothing: the provider refills its matrix, the LU refactorises in its own
//! storage, the stages live in flat buffers. The stage loop is one source compiled
//! twice, for any n and for n = 2 with the size a constant (`crate::linalg::fixed`:
//! Van der Pol's step costs its arithmetic, not loop overhead), both in the operation
//! order of the nalgebra calls it replaced, so both give the same bits.
//! Dense output: the cubic Hermite interpolant on f(t_n, y_n) (the first stage) and
//! f(t_{n+1}, y_{n+1}) (evaluated once when asked, then reused as the next first stage).

use super::hermite::StepEnds;
use super::{MeasuredStep, MethodInfo, Stepper};
use crate::control::ErrorMeasure;
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::{copy_short, fixed};
use crate::linear_solver::{Jacobian, StepMatrix};
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::Complex;

/// Coefficients of a Rosenbrock method in the form of seed 001 eq. (2b). Row `i` of
/// `alpha` and `gamma` holds the `i` entries left of the diagonal (row 0 is empty).
#[derive(Debug, Clone, Copy)]
pub struct RosenbrockTableau {
    /// The diagonal γ_ii = γ.
    pub gamma_diag: f64,
    pub alpha: &'static [&'static [f64]],
    /// The off-diagonal γ_ij, j < i.
    pub gamma: &'static [&'static [f64]],
    pub b: &'static [f64],
    /// Embedded weights b̂.
    pub b_hat: &'static [f64],
}

impl RosenbrockTableau {
    pub const fn stages(&self) -> usize {
        self.b.len()
    }

    /// Whether stages `i` and `j` evaluate f at the same point (rows equal up to
    /// trailing zeros; 001 eq. 11 for ros4's stages 3 and 4).
    pub const fn same_argument(&self, i: usize, j: usize) -> bool {
        let (a, b) = (self.alpha[i], self.alpha[j]);
        let len = if a.len() > b.len() { a.len() } else { b.len() };
        let mut k = 0;
        while k < len {
            let x = if k < a.len() { a[k] } else { 0.0 };
            let y = if k < b.len() { b[k] } else { 0.0 };
            if x != y {
                return false;
            }
            k += 1;
        }
        true
    }

    /// α_i = Σ_j α_ij: the stage's time node.
    pub const fn alpha_sum(&self, i: usize) -> f64 {
        sum(self.alpha[i])
    }

    /// γ_i = γ + Σ_{j<i} γ_ij: the weight of the ∂f/∂t term.
    pub const fn gamma_sum(&self, i: usize) -> f64 {
        self.gamma_diag + sum(self.gamma[i])
    }

    /// R(z) for complex z = hλ, the same recursion as [`RosenbrockTableau::stability`]
    /// (for stability maps and the A-stability check on the imaginary axis).
    pub fn stability_complex(&self, z: Complex<f64>) -> Complex<f64> {
        let s = self.stages();
        let one = Complex::new(1.0, 0.0);
        let mut k = vec![Complex::new(0.0, 0.0); s];
        for i in 0..s {
            let acc = (0..i).fold(one, |acc, j| {
                acc + k[j] * (self.alpha[i][j] + self.gamma[i][j])
            });
            k[i] = z * acc / (one - z * self.gamma_diag);
        }
        self.b.iter().zip(&k).fold(one, |r, (b, k)| r + k * *b)
    }

    /// R(z) of the method on y' = λy (z = hλ): (1 − γz) k_i = z (y + Σ_{j<i} β_ij k_j)
    /// with β_ij = α_ij + γ_ij, R = 1 + Σ b_i k_i. `z = ∞` gives the limit R(∞):
    /// k_i = −(1 + Σ β_ij k_j)/γ.
    pub fn stability(&self, z: f64) -> f64 {
        let s = self.stages();
        let mut k = vec![0.0; s];
        for i in 0..s {
            let acc: f64 = 1.0
                + (0..i)
                    .map(|j| (self.alpha[i][j] + self.gamma[i][j]) * k[j])
                    .sum::<f64>();
            k[i] = if z.is_infinite() {
                -acc / self.gamma_diag
            } else {
                z * acc / (1.0 - self.gamma_diag * z)
            };
        }
        1.0 + self.b.iter().zip(&k).map(|(b, k)| b * k).sum::<f64>()
    }
}

/// Σ x_j left to right from −0.0 (the identity of IEEE addition), as `Iterator::sum`,
/// in a `const fn`.
const fn sum(x: &[f64]) -> f64 {
    let mut acc = -0.0;
    let mut j = 0;
    while j < x.len() {
        acc += x[j];
        j += 1;
    }
    acc
}

/// The most stages a Rosenbrock table may have here (ros4's four).
pub const MAX_STAGES: usize = 4;

/// A [`RosenbrockTableau`] in fixed-size arrays, with what the step would otherwise
/// recompute every stage of every step: `alpha[i][j]` and `gamma[i][j]` (zero on and
/// above the diagonal), `b`, `e` = b − b̂, the nodes α_i and γ_i, and whether stage i
/// evaluates f where stage i − 1 did (001 eq. 11). Rows past `stages` are zero.
#[derive(Debug, Clone, Copy)]
pub struct FixedRosenbrockTableau {
    pub stages: usize,
    pub gamma_diag: f64,
    pub alpha: [[f64; MAX_STAGES]; MAX_STAGES],
    pub gamma: [[f64; MAX_STAGES]; MAX_STAGES],
    pub b: [f64; MAX_STAGES],
    pub e: [f64; MAX_STAGES],
    pub alpha_sum: [f64; MAX_STAGES],
    pub gamma_sum: [f64; MAX_STAGES],
    pub reuses_f: [bool; MAX_STAGES],
}

impl FixedRosenbrockTableau {
    /// The same coefficients as `t`, checked at compile time (a table of more than
    /// [`MAX_STAGES`] stages, or of ragged rows, does not compile).
    pub const fn from_tableau(t: &RosenbrockTableau) -> Self {
        let s = t.stages();
        assert!(s <= MAX_STAGES && t.b_hat.len() == s && t.alpha.len() == s);
        assert!(t.gamma.len() == s);
        let mut out = FixedRosenbrockTableau {
            stages: s,
            gamma_diag: t.gamma_diag,
            alpha: [[0.0; MAX_STAGES]; MAX_STAGES],
            gamma: [[0.0; MAX_STAGES]; MAX_STAGES],
            b: [0.0; MAX_STAGES],
            e: [0.0; MAX_STAGES],
            alpha_sum: [0.0; MAX_STAGES],
            gamma_sum: [0.0; MAX_STAGES],
            reuses_f: [false; MAX_STAGES],
        };
        let mut i = 0;
        while i < s {
            assert!(t.alpha[i].len() == i && t.gamma[i].len() == i);
            let mut j = 0;
            while j < i {
                out.alpha[i][j] = t.alpha[i][j];
                out.gamma[i][j] = t.gamma[i][j];
                j += 1;
            }
            out.b[i] = t.b[i];
            out.e[i] = t.b[i] - t.b_hat[i];
            out.alpha_sum[i] = t.alpha_sum(i);
            out.gamma_sum[i] = t.gamma_sum(i);
            out.reuses_f[i] = i > 0 && t.same_argument(i, i - 1);
            i += 1;
        }
        out
    }
}

/// A Rosenbrock method's table as an associated `const`, so that its step for two
/// states is compiled with every coefficient a constant (a zero one costs nothing).
pub trait RosenbrockPair {
    const TABLEAU: &'static RosenbrockTableau;
    const FIXED: &'static FixedRosenbrockTableau =
        &FixedRosenbrockTableau::from_tableau(Self::TABLEAU);
}

/// The stages of one step and their combinations (see [`Stages::run`]).
type RunFn = fn(
    &mut Stages,
    &StepData,
    &dyn System,
    (f64, &[f64], f64),
    &mut [f64],
    &mut Stats,
    Option<ErrorMeasure>,
) -> Result<f64, OdeError>;

/// A Rosenbrock stepper with its work vectors and the last step kept for the error
/// estimate and dense output. The LU keeps its storage: a step allocates nothing.
pub struct Rosenbrock {
    info: &'static MethodInfo,
    table: &'static FixedRosenbrockTableau,
    /// The step for two states with the method's table and the size constants.
    two_states: RunFn,
    provider: JacobianProvider,
    /// I − γhJ, refactorised in its own storage every step.
    lu: Option<StepMatrix>,
    work: Stages,
    /// The last step's ends and slopes (dense output, reuse of f).
    ends: StepEnds,
}

/// The stage loop's vectors, one flat buffer each (stage i at `i * n..(i + 1) * n`).
struct Stages {
    /// The stages k_i, solved in place.
    k: Vec<f64>,
    /// f of each stage (kept so a stage with the same argument reuses it).
    f: Vec<f64>,
    y: Vec<f64>,
    /// Σ_{j<i} γ_ij k_j of the stage being solved.
    coupling: Vec<f64>,
    error: Vec<f64>,
}

impl Rosenbrock {
    /// The stepper of method `P` for `dim` states.
    pub fn new<P: RosenbrockPair>(
        info: &'static MethodInfo,
        dim: usize,
        jacobian: JacobianOptions,
    ) -> Self {
        let s = P::FIXED.stages;
        Self {
            info,
            table: P::FIXED,
            two_states: two_states::<P>,
            provider: JacobianProvider::new(info.id, jacobian).sparse(),
            lu: None,
            work: Stages {
                k: vec![0.0; s * dim],
                f: vec![0.0; s * dim],
                y: vec![0.0; dim],
                coupling: vec![0.0; dim],
                error: vec![0.0; dim],
            },
            ends: StepEnds::new(dim),
        }
    }
}

/// [`Stages::run`] for two states (Van der Pol, the pendulum, the oscillators) with
/// `P`'s table: the size and every coefficient compile-time constants.
fn two_states<P: RosenbrockPair>(
    work: &mut Stages,
    data: &StepData,
    sys: &dyn System,
    step: (f64, &[f64], f64),
    y_out: &mut [f64],
    stats: &mut Stats,
    measure: Option<ErrorMeasure>,
) -> Result<f64, OdeError> {
    let data = StepData {
        tab: P::FIXED,
        ..*data
    };
    work.run::<2>(&data, sys, step, y_out, stats, measure)
}

/// [`Stages::run`] for any size and table: one copy for every method.
#[inline(never)]
fn any_size(
    work: &mut Stages,
    data: &StepData,
    sys: &dyn System,
    step: (f64, &[f64], f64),
    y_out: &mut [f64],
    stats: &mut Stats,
    measure: Option<ErrorMeasure>,
) -> Result<f64, OdeError> {
    work.run::<0>(data, sys, step, y_out, stats, measure)
}

/// What one step's stages read: the method's table, J and f_t at the step's start,
/// and the factorised I − γhJ.
#[derive(Clone, Copy)]
struct StepData<'a> {
    tab: &'a FixedRosenbrockTableau,
    jac: &'a Jacobian,
    ft: &'a [f64],
    lu: &'a StepMatrix,
}

impl Stages {
    /// Stage I for n = `N` states (`N` = 0: any n; see [`crate::linalg::fixed`]),
    /// f(t, y) already in stage 0: its argument y + Σ_{j<I} α_Ij k_j and f there (or the
    /// previous stage's f, 001 eq. 11), then k_I = h f_I + γ_I h² f_t + hJ Σ_{j<I} γ_Ij k_j,
    /// solved in place. Per component the operations of nalgebra's axpy/gemv in the
    /// earlier DVector form, in their order (x += a·y is x ← a·y + x; IEEE addition
    /// commutes), zero coefficients skipped: the same bits.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn stage<const I: usize, const N: usize>(
        &mut self,
        data: &StepData,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let tab = data.tab;
        let n = fixed::<N>(y.len());
        let (y, ft) = (&y[..n], &data.ft[..n]);
        let (done, rest) = self.k.split_at_mut(I * n);
        // The earlier stages as slices of length n: no bounds checks below.
        let k: [&[f64]; I] = std::array::from_fn(|j| &done[j * n..][..n]);
        let k_i = &mut rest[..n];
        let (f_done, f_rest) = self.f.split_at_mut(I * n);
        let f_i = &mut f_rest[..n];
        if I > 0 {
            if tab.reuses_f[I] {
                copy_short(f_i, &f_done[(I - 1) * n..][..n]);
            } else {
                let y_stage = &mut self.y[..n];
                for c in 0..n {
                    let mut acc = y[c];
                    for j in 0..I {
                        if tab.alpha[I][j] != 0.0 {
                            acc += tab.alpha[I][j] * k[j][c];
                        }
                    }
                    y_stage[c] = acc;
                }
                sys.rhs(t + tab.alpha_sum[I] * h, y_stage, f_i);
                stats.nfev += 1;
            }
        }
        let gi = tab.gamma_sum[I] * h * h;
        for c in 0..n {
            k_i[c] = h * f_i[c] + gi * ft[c];
        }
        if I > 0 {
            let coupling = &mut self.coupling[..n];
            for c in 0..n {
                let mut acc = 0.0;
                for j in 0..I {
                    if tab.gamma[I][j] != 0.0 {
                        acc += tab.gamma[I][j] * k[j][c];
                    }
                }
                coupling[c] = acc;
            }
            data.jac.mul_add_n::<N>(h, coupling, k_i);
        }
        data.lu.solve_n::<N>(k_i)
    }

    /// The stages and the combinations y_{n+1}, y_{n+1} − ŷ_{n+1}; with a `measure`,
    /// the normalised error of the estimate ([`ErrorMeasure::of`]). Inlined into
    /// [`two_states`], where the table is a constant: the stage loop below unrolls, each
    /// stage its own monomorphised call whose sums over j < i have a constant trip
    /// count and constant coefficients (as fixed_rk.rs's stages).
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn run<const N: usize>(
        &mut self,
        data: &StepData,
        sys: &dyn System,
        step: (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let tab = data.tab;
        macro_rules! stages {
            ($($i:literal)*) => {
                $(if $i < tab.stages {
                    self.stage::<$i, N>(data, sys, step, stats)?;
                })*
            };
        }
        stages!(0 1 2 3);
        const { assert!(MAX_STAGES == 4, "stages! above covers MAX_STAGES") };
        let (_, y, _) = step;
        let n = fixed::<N>(y.len());
        let (y, y_out, error) = (&y[..n], &mut y_out[..n], &mut self.error[..n]);
        // b_j and e_j are not skipped when zero (ros4's b3): the earlier loops added
        // 0·k_j too, and −0.0 + 0·k would not be −0.0.
        for c in 0..n {
            let (mut acc, mut err) = (y[c], 0.0);
            for j in 0..tab.stages {
                let k_j = self.k[j * n + c];
                acc += tab.b[j] * k_j;
                err += tab.e[j] * k_j;
            }
            y_out[c] = acc;
            error[c] = err;
        }
        Ok(match measure {
            None => 0.0,
            Some(m) => m.of_n::<N>(error, y, y_out),
        })
    }
}

impl Rosenbrock {
    /// The step from (t, y) by h; with a `measure`, the normalised error of its
    /// estimate ([`ErrorMeasure::of`], as the driver would measure it afterwards).
    fn step_measuring(
        &mut self,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let n = y.len();
        let f_start = &mut self.work.f[..n];
        // f(t, y) for the first stage: known from the last step's start (a retry) or
        // end (the dense output evaluated it), else evaluated.
        self.ends.start_f(sys, t, y, f_start, stats);
        let (jac, ft) = self.provider.at_any(sys, t, y, stats)?;
        // I − γhJ through the solver seam (src/linear_solver.rs: dense or sparse LU;
        // the dense entries are δᵢⱼ − Jᵢⱼ·γh as before), in the last step's storage.
        let what = "I − γhJ of the Rosenbrock step";
        let c = self.table.gamma_diag * h;
        let lu = StepMatrix::in_kept(&mut self.lu, jac, 1.0, c, what, t, h, stats)?;
        let data = StepData {
            tab: self.table,
            jac,
            ft: ft.as_slice(),
            lu,
        };
        let (work, step) = (&mut self.work, (t, y, h));
        let err = if n == 2 {
            (self.two_states)(work, &data, sys, step, y_out, stats, measure)?
        } else {
            any_size(work, &data, sys, step, y_out, stats, measure)?
        };
        self.ends.record(t, h, y, y_out, Some(&self.work.f[..n]));
        Ok(err)
    }
}

impl MeasuredStep for Rosenbrock {
    fn step_measured(
        &mut self,
        sys: &dyn System,
        step: (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: ErrorMeasure,
    ) -> Result<f64, OdeError> {
        self.step_measuring(sys, step, y_out, stats, Some(measure))
    }
}

impl Stepper for Rosenbrock {
    fn info(&self) -> &MethodInfo {
        self.info
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
        self.step_measuring(sys, (t, y, h), y_out, stats, None)
            .map(|_| ())
    }

    fn measured(&mut self) -> Option<&mut dyn MeasuredStep> {
        Some(self)
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        Some(&self.work.error)
    }

    fn dense_output(
        &mut self,
        sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.ends.interpolate(sys, theta, out, stats);
        Ok(())
    }
}
