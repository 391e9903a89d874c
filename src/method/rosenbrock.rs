//! A generic Rosenbrock (linearly implicit) step, Negrut et al. 2003 eqs. (2a)–(3), over a
//! `const` [`RosenbrockTableau`]; `ros4.rs` and `w2.rs` are such tables.
//!
//! ```text
//! k_i = h f(t_n + α_i h, y_n + Σ_{j<i} α_ij k_j) + γ_i h² f_t(t_n, y_n) + hJ Σ_{j≤i} γ_ij k_j
//! y_{n+1} = y_n + Σ b_i k_i,   ŷ_{n+1} = y_n + Σ b̂_i k_i
//! ```
//!
//! with γ_ii = γ for every stage, α_i = Σ_j α_ij and γ_i = Σ_{j≤i} γ_ij (Negrut et al. 2003 §2). Each
//! stage solves (I − γhJ) k_i = h f(…) + γ_i h² f_t + hJ Σ_{j<i} γ_ij k_j with one LU of
//! I − γhJ per step. A stage whose argument row α_i· equals the previous stage's (001
//! eq. 11: α4j = α3j) reuses that f evaluation: the four-stage ros4 costs three.
//! The error estimate is y_{n+1} − ŷ_{n+1} = Σ (b_i − b̂_i) k_i (Negrut et al. 2003 eq. 3), controlled
//! by `crate::control` (Negrut et al. 2003 eqs. 4–7); the step measures it itself (`MeasuredStep`,
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
use crate::linalg::fixed;
use crate::linear_solver::{Jacobian, StepMatrix};
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::Complex;

/// Coefficients of a Rosenbrock method in the form of Negrut et al. 2003 eq. (2b). Row `i` of
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
    /// trailing zeros; Negrut et al. 2003 eq. 11 for ros4's stages 3 and 4).
    pub fn same_argument(&self, i: usize, j: usize) -> bool {
        let (a, b) = (self.alpha[i], self.alpha[j]);
        (0..a.len().max(b.len()))
            .all(|k| a.get(k).copied().unwrap_or(0.0) == b.get(k).copied().unwrap_or(0.0))
    }

    /// α_i = Σ_j α_ij: the stage's time node.
    pub fn alpha_sum(&self, i: usize) -> f64 {
        self.alpha[i].iter().sum()
    }

    /// γ_i = γ + Σ_{j<i} γ_ij: the weight of the ∂f/∂t term.
    pub fn gamma_sum(&self, i: usize) -> f64 {
        self.gamma_diag + self.gamma[i].iter().sum::<f64>()
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

/// A Rosenbrock stepper with its work vectors and the last step kept for the error
/// estimate and dense output. The LU keeps its storage: a step allocates nothing.
pub struct Rosenbrock {
    info: &'static MethodInfo,
    tableau: &'static RosenbrockTableau,
    provider: JacobianProvider,
    /// I − γhJ, refactorised in its own storage every step.
    lu: Option<StepMatrix>,
    work: Stages,
    /// The last step's ends and slopes (dense output, reuse of f).
    ends: StepEnds,
}

/// The stage loop's vectors, one flat buffer each (stage i at `i * n..(i + 1) * n`),
/// and what the tableau implies per stage.
struct Stages {
    /// The stages k_i, solved in place.
    k: Vec<f64>,
    /// f of each stage (kept so a stage with the same argument reuses it).
    f: Vec<f64>,
    y: Vec<f64>,
    /// Σ_{j<i} γ_ij k_j of the stage being solved.
    coupling: Vec<f64>,
    error: Vec<f64>,
    /// Per stage, what the step loop would otherwise recompute every stage of every
    /// step: (reuses the previous stage's f, α_i, γ_i).
    nodes: Vec<(bool, f64, f64)>,
}

impl Rosenbrock {
    pub fn new(
        info: &'static MethodInfo,
        tableau: &'static RosenbrockTableau,
        dim: usize,
        jacobian: JacobianOptions,
    ) -> Self {
        let s = tableau.stages();
        Self {
            info,
            tableau,
            provider: JacobianProvider::new(info.id, jacobian).sparse_if(info.sparse),
            lu: None,
            work: Stages {
                k: vec![0.0; s * dim],
                f: vec![0.0; s * dim],
                y: vec![0.0; dim],
                coupling: vec![0.0; dim],
                error: vec![0.0; dim],
                nodes: (0..s)
                    .map(|i| {
                        let reuses = i > 0 && tableau.same_argument(i, i - 1);
                        (reuses, tableau.alpha_sum(i), tableau.gamma_sum(i))
                    })
                    .collect(),
            },
            ends: StepEnds::new(dim),
        }
    }
}

/// What one step's stages read: the tableau, J and f_t at the step's start, and the
/// factorised I − γhJ.
struct StepData<'a> {
    tab: &'static RosenbrockTableau,
    jac: &'a Jacobian,
    ft: &'a [f64],
    lu: &'a StepMatrix,
}

impl Stages {
    /// The stages and the combinations y_{n+1}, y_{n+1} − ŷ_{n+1} for n = `N` states
    /// (`N` = 0: any n; see [`crate::linalg::fixed`]), f(t, y) already in stage 0;
    /// with a `measure`, the normalised error of the estimate ([`ErrorMeasure::of`]).
    /// The loops are nalgebra's axpy/gemv of the earlier DVector form in their order
    /// (x += a·y is x ← a·y + x; IEEE addition commutes): the same bits.
    #[allow(clippy::too_many_arguments)]
    fn run<const N: usize>(
        &mut self,
        data: &StepData,
        sys: &dyn System,
        t: f64,
        y: &[f64],
        h: f64,
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let StepData { tab, jac, ft, lu } = *data;
        let n = fixed::<N>(y.len());
        // Every vector cut to n, so that a constant n reaches every loop.
        let (y, y_out, ft) = (&y[..n], &mut y_out[..n], &ft[..n]);
        let (y_stage, coupling) = (&mut self.y[..n], &mut self.coupling[..n]);
        let error = &mut self.error[..n];
        for (i, &(reuses_f, alpha_i, gamma_i)) in self.nodes.iter().enumerate() {
            let (done, rest) = self.k.split_at_mut(i * n);
            let k_i = &mut rest[..n];
            let (f_done, f_rest) = self.f.split_at_mut(i * n);
            let f_i = &mut f_rest[..n];
            if i > 0 {
                if reuses_f {
                    // Same argument as the previous stage (Negrut et al. 2003 eq. 11): reuse its f.
                    f_i.copy_from_slice(&f_done[(i - 1) * n..]);
                } else {
                    y_stage.copy_from_slice(y);
                    for (&a, k_j) in tab.alpha[i].iter().zip(done.chunks_exact(n.max(1))) {
                        if a != 0.0 {
                            for (ys, kj) in y_stage.iter_mut().zip(k_j) {
                                *ys += a * kj;
                            }
                        }
                    }
                    sys.rhs(t + alpha_i * h, y_stage, f_i);
                    stats.nfev += 1;
                }
            }
            // k_i = h f_i + γ_i h² f_t + hJ Σ_{j<i} γ_ij k_j, then solved in place.
            let gi = gamma_i * h * h;
            for ((kr, fr), ftr) in k_i.iter_mut().zip(f_i.iter()).zip(ft) {
                *kr = h * fr + gi * ftr;
            }
            if i > 0 {
                coupling.fill(0.0);
                for (&g, k_j) in tab.gamma[i].iter().zip(done.chunks_exact(n.max(1))) {
                    if g != 0.0 {
                        for (cr, kj) in coupling.iter_mut().zip(k_j) {
                            *cr += g * kj;
                        }
                    }
                }
                jac.mul_add_n::<N>(h, coupling, k_i);
            }
            lu.solve_n::<N>(k_i)?;
        }
        y_out.copy_from_slice(y);
        error.fill(0.0);
        let stages = self.k.chunks_exact(n.max(1));
        for ((&b, &b_hat), k_i) in tab.b.iter().zip(tab.b_hat).zip(stages) {
            let e = b - b_hat;
            for ((yo, err), k) in y_out.iter_mut().zip(error.iter_mut()).zip(k_i) {
                *yo += b * k;
                *err += e * k;
            }
        }
        Ok(match measure {
            None => 0.0,
            Some(m) => m.of_n::<N>(error, y, y_out),
        })
    }
}

impl MeasuredStep for Rosenbrock {
    fn step_measuring(
        &mut self,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let tab = self.tableau;
        let n = y.len();
        let f_start = &mut self.work.f[..n];
        // f(t, y) for the first stage: known from the last step's start (a retry) or
        // end (the dense output evaluated it), else evaluated.
        self.ends.start_f(sys, t, y, f_start, stats);
        let (jac, ft) = self.provider.at_any(sys, t, y, stats)?;
        // I − γhJ through the solver seam (src/linear_solver.rs: dense or sparse LU;
        // the dense entries are δᵢⱼ − Jᵢⱼ·γh as before), in the last step's storage.
        let what = "I − γhJ of the Rosenbrock step";
        let c = tab.gamma_diag * h;
        let lu = StepMatrix::in_kept(&mut self.lu, jac, 1.0, c, what, t, h, stats)?;
        let data = StepData {
            tab,
            jac,
            ft: ft.as_slice(),
            lu,
        };
        // Two states (Van der Pol, the pendulum, the oscillators): the same stages with
        // the size a constant, their loops unrolled (crate::linalg::fixed).
        let err = match n {
            2 => self
                .work
                .run::<2>(&data, sys, t, y, h, y_out, stats, measure)?,
            _ => self
                .work
                .run::<0>(&data, sys, t, y, h, y_out, stats, measure)?,
        };
        self.ends.record(t, h, y, y_out, Some(&self.work.f[..n]));
        Ok(err)
    }
}

impl Stepper for Rosenbrock {
    fn info(&self) -> &MethodInfo {
        self.info
    }

    measured_step!();

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
