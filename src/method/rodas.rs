//! `rodas`: RODAS, the six-stage, stiffly accurate, L-stable Rosenbrock method of order 4
//! with an embedded order-3 estimate and an order-3 dense output, of Hairer & Wanner,
//! Solving Ordinary Differential Equations II (2nd ed., 1996), §VI.4 (the method of
//! their code RODAS, coefficient set METH = 1, as published in `rodas.f`; read, not
//! copied). In the transformed variables of Hairer & Wanner §IV.7 (eq. 7.25), with
//! E = I/(hγ) − J and J = ∂f/∂y at the step's start:
//!
//! ```text
//! E u_1 = f(t_n, y_n) + h d_1 f_t
//! E u_i = f(t_n + c_i h, y_n + Σ_{j<i} a_ij u_j) + h d_i f_t + Σ_{j<i} (c_ij/h) u_j   (i = 2..6)
//! ŷ_{n+1} = y_n + Σ_{j≤4} a_5j u_j + u_5,      y_{n+1} = ŷ_{n+1} + u_6
//! ```
//!
//! Stages 5 and 6 are evaluated at t_n + h (d_5 = d_6 = 0); their arguments are the
//! stage-6 row a_6j = (a_51, …, a_54, 1): the method is stiffly accurate, y_{n+1} is the
//! last stage's argument plus u_6, so the error estimate is u_6 alone. Six f
//! evaluations, one Jacobian and one LU of I − γhJ (through the dense or sparse solver
//! seam, `crate::linear_solver`) per step; a retry after a rejection reuses f(t_n, y_n)
//! and J.
//!
//! **Dense output** (Hairer & Wanner §VI.4, "dense output" of RODAS; `CONTRO` of the
//! code), order 3: with s = θ,
//! y(t_n + sh) ≈ (1 − s) y_n + s (y_{n+1} + (1 − s)(Σ d_2j u_j + s Σ d_3j u_j)), j = 1..5.
//!
//! **Step size** (the method's own policy, used when the spec names no controller):
//! RODAS's, fac = clamp(err^(1/4)/0.9, 1/6, 5), h_new = h/fac, and after an accepted
//! step that follows another, Gustafsson's predictive factor
//! clamp((h_acc/h)(err²/err_acc)^(1/4)/0.9, 1/6, 5) when it gives the smaller step
//! (err_acc floored at 0.01); after a rejection in the same step h may not grow; a
//! singular matrix halves h.

// Digits exactly as published for RODAS (METH = 1).
#![allow(clippy::excessive_precision)]

use super::{MeasuredStep, MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::control::{ErrorMeasure, StepControl};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::{copy_short, fixed};
use crate::linear_solver::StepMatrix;
use crate::problem::System;
use crate::stats::Stats;

/// Stages.
const S: usize = 6;
/// The diagonal γ.
pub const GAMMA: f64 = 0.25;
/// Stage times c_i (c_5 = c_6 = 1).
pub const C_NODE: [f64; S] = [0.0, 0.386, 0.21, 0.63, 1.0, 1.0];
/// The ∂f/∂t weights d_i = γ_i (d_5 = d_6 = 0).
pub const D: [f64; S] = [0.25, -0.1043, 0.1035, -0.3620000000000023e-01, 0.0, 0.0];
/// a_ij, j < i; row 6 is row 5 followed by a_65 = 1.
pub const A: [[f64; 5]; S] = [
    [0.0; 5],
    [1.544, 0.0, 0.0, 0.0, 0.0],
    [0.9466785280815826, 0.2557011698983284, 0.0, 0.0, 0.0],
    [
        3.314825187068521,
        2.896124015972201,
        0.9986419139977817,
        0.0,
        0.0,
    ],
    [
        1.221224509226641,
        6.019134481288629,
        12.53708332932087,
        -0.6878860361058950,
        0.0,
    ],
    [
        1.221224509226641,
        6.019134481288629,
        12.53708332932087,
        -0.6878860361058950,
        1.0,
    ],
];
/// c_ij, j < i.
pub const C: [[f64; 5]; S] = [
    [0.0; 5],
    [-5.6688, 0.0, 0.0, 0.0, 0.0],
    [-2.430093356833875, -0.2063599157091915, 0.0, 0.0, 0.0],
    [
        -0.1073529058151375,
        -9.594562251023355,
        -20.47028614809616,
        0.0,
        0.0,
    ],
    [
        7.496443313967647,
        -10.24680431464352,
        -33.99990352819905,
        11.70890893206160,
        0.0,
    ],
    [
        8.083246795921522,
        -7.981132988064893,
        -31.52159432874371,
        16.31930543123136,
        -6.058818238834054,
    ],
];
/// The dense output's d_2j and d_3j (j = 1..5).
pub const D2: [f64; 5] = [
    10.12623508344586,
    -7.487995877610167,
    -34.80091861555747,
    -7.992771707568823,
    1.025137723295662,
];
pub const D3: [f64; 5] = [
    -0.6762803392801253,
    6.087714651680015,
    16.43084320892478,
    24.76722511418386,
    -6.594389125716872,
];

pub const INFO: MethodInfo = MethodInfo {
    id: "rodas",
    name: "RODAS 4(3)",
    order: 4,
    family: "Rosenbrock",
    source: "Hairer & Wanner, Solving ODEs II (1996), §VI.4: RODAS",
    stages: 6,
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

/// The whole engine's only (cargo feature `full`): the first-load package lists it and
/// the page re-runs it in pkg-labs/.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: XI,
}
.full();

#[cfg(feature = "full")]
const XI: Xi = Xi::Function(xi);
#[cfg(not(feature = "full"))]
const XI: Xi = Xi::None;

/// |R(z)| of the step as written above on y' = λy, z = hλ (h = 1, f_t = 0):
/// (1/γ − z) u_i = z (1 + Σ a_ij u_j) + Σ c_ij u_j, R = 1 + Σ_{j≤4} a_5j u_j + u_5 + u_6.
#[cfg(feature = "full")]
fn xi(z: nalgebra::Complex<f64>) -> f64 {
    crate::math::complex::norm(amplification(z))
}

/// R(z) of RODAS (see [`xi`]).
pub fn amplification(z: nalgebra::Complex<f64>) -> nalgebra::Complex<f64> {
    use nalgebra::Complex;
    let one = Complex::new(1.0, 0.0);
    let mut u = [Complex::new(0.0, 0.0); S];
    for i in 0..S {
        let mut arg = one;
        let mut coupling = Complex::new(0.0, 0.0);
        for j in 0..i {
            arg += u[j] * A[i][j];
            coupling += u[j] * C[i][j];
        }
        u[i] = (z * arg + coupling) / (one / GAMMA - z);
    }
    let mut r = one;
    for (j, uj) in u.iter().enumerate().take(4) {
        r += uj * A[5][j];
    }
    r + u[4] + u[5]
}

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Rodas::new(dim, options.jacobian)))
}

/// RODAS's step-size policy (the module doc).
#[derive(Debug, Clone, Default)]
struct Control {
    /// (h, max(err, 0.01)) of the last accepted step.
    accepted: Option<(f64, f64)>,
}

const SAFE: f64 = 0.9;
/// h/h_new ∈ [1/6, 5] (RODAS's defaults: 0.2 ≤ h_new/h ≤ 6).
const FAC_MIN: f64 = 1.0 / 6.0;
const FAC_MAX: f64 = 5.0;

fn elementary(err: f64) -> f64 {
    let err = if err.is_nan() { f64::INFINITY } else { err };
    (crate::math::fourth_root(err) / SAFE).clamp(FAC_MIN, FAC_MAX)
}

impl StepControl for Rodas {
    fn after_accept(&mut self, h: f64, err: f64, after_reject: bool) -> f64 {
        let mut fac = elementary(err);
        if let Some((h_acc, err_acc)) = self.control.accepted {
            let gus = (h_acc / h) * crate::math::fourth_root(err * err / err_acc) / SAFE;
            fac = fac.max(gus.clamp(FAC_MIN, FAC_MAX));
        }
        self.control.accepted = Some((h, err.max(0.01)));
        let h_new = h / fac;
        if after_reject {
            h_new.min(h)
        } else {
            h_new
        }
    }

    fn after_reject(&mut self, h: f64, err: f64) -> f64 {
        h / elementary(err)
    }

    fn after_failure(&mut self, h: f64) -> f64 {
        0.5 * h
    }
}

/// The stage loop's vectors.
struct Work {
    /// The stages u_i, stage i at `i * n..(i + 1) * n`.
    u: Vec<f64>,
    f0: Vec<f64>,
    f: Vec<f64>,
    arg: Vec<f64>,
}

/// The RODAS stepper: its stages, the kept LU and Jacobian, the last step's ends.
pub struct Rodas {
    provider: JacobianProvider,
    lu: Option<StepMatrix>,
    control: Control,
    work: Work,
    /// The time of `work.f0`, f(t_n, y_n) of the last step's start, kept for a retry.
    f0_at: Option<f64>,
    /// The last step's start and end (dense output).
    y0: Vec<f64>,
    y1: Vec<f64>,
}

impl Rodas {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian).sparse_if(INFO.sparse),
            lu: None,
            control: Control::default(),
            work: Work {
                u: vec![0.0; S * dim],
                f0: vec![0.0; dim],
                f: vec![0.0; dim],
                arg: vec![0.0; dim],
            },
            f0_at: None,
            y0: vec![0.0; dim],
            y1: vec![0.0; dim],
        }
    }
}

impl MeasuredStep for Rodas {
    fn step_measuring(
        &mut self,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let n = y.len();
        // f(t, y): kept from the last attempt when this is its retry.
        let retry = self.f0_at == Some(t) && self.y0.as_slice() == y;
        if !retry {
            sys.rhs(t, y, &mut self.work.f0);
            stats.nfev += 1;
            self.f0_at = Some(t);
            copy_short(&mut self.y0, y);
        }
        let (jac, ft) = self.provider.at_any(sys, t, y, stats)?;
        let hg = h * GAMMA;
        let what = "I − γhJ of the RODAS step";
        let lu = StepMatrix::in_kept(&mut self.lu, jac, 1.0, hg, what, t, h, stats)?;
        let ft = ft.as_slice();
        let err = match n {
            2 => self
                .work
                .stages::<2>(lu, sys, (t, y, h), ft, y_out, stats, measure)?,
            _ => self
                .work
                .stages::<0>(lu, sys, (t, y, h), ft, y_out, stats, measure)?,
        };
        copy_short(&mut self.y1, y_out);
        Ok(err)
    }
}

impl Work {
    /// The six stages for n = `N` states (`N` = 0: any n, `crate::linalg::fixed`).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn stages<const N: usize>(
        &mut self,
        lu: &StepMatrix,
        sys: &dyn System,
        (t, y, h): (f64, &[f64], f64),
        ft: &[f64],
        y_out: &mut [f64],
        stats: &mut Stats,
        measure: Option<ErrorMeasure>,
    ) -> Result<f64, OdeError> {
        let n = fixed::<N>(y.len());
        let (y, y_out, ft) = (&y[..n], &mut y_out[..n], &ft[..n]);
        let (arg, f) = (&mut self.arg[..n], &mut self.f[..n]);
        let hg = h * GAMMA;
        let inv_h = 1.0 / h;
        for i in 0..S {
            let (done, rest) = self.u.split_at_mut(i * n);
            let u_i = &mut rest[..n];
            let g: &[f64] = if i == 0 {
                &self.f0[..n]
            } else {
                arg.copy_from_slice(y);
                for (j, u_j) in done.chunks_exact(n.max(1)).enumerate() {
                    let a = A[i][j];
                    if a != 0.0 {
                        for (x, uj) in arg.iter_mut().zip(u_j) {
                            *x += a * uj;
                        }
                    }
                }
                sys.rhs(t + C_NODE[i] * h, arg, f);
                stats.nfev += 1;
                f
            };
            let hd = h * D[i];
            for ((u, gr), ftr) in u_i.iter_mut().zip(g).zip(ft) {
                *u = gr + hd * ftr;
            }
            for (j, u_j) in done.chunks_exact(n.max(1)).enumerate() {
                let c = C[i][j] * inv_h;
                for (u, uj) in u_i.iter_mut().zip(u_j) {
                    *u += c * uj;
                }
            }
            // E u = r ⇔ (I − γhJ) u = γh r.
            for u in u_i.iter_mut() {
                *u *= hg;
            }
            lu.solve_n::<N>(u_i)?;
        }
        // y_{n+1} = (stage 6's argument, ŷ_{n+1}) + u_6; the estimate is u_6.
        let u6 = &self.u[5 * n..6 * n];
        for ((yo, a), e) in y_out.iter_mut().zip(arg.iter()).zip(u6) {
            *yo = a + e;
        }
        Ok(match measure {
            None => 0.0,
            Some(m) => m.of_n::<N>(u6, y, y_out),
        })
    }
}

impl Stepper for Rodas {
    fn info(&self) -> &MethodInfo {
        &INFO
    }

    measured_step!();

    fn step_control(&mut self) -> Option<&mut dyn StepControl> {
        Some(self)
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        let n = self.y0.len();
        Some(&self.work.u[5 * n..6 * n])
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = out.len();
        let s = theta;
        for (r, o) in out.iter_mut().enumerate() {
            let (mut d2, mut d3) = (0.0, 0.0);
            for j in 0..5 {
                let u = self.work.u[j * n + r];
                d2 += D2[j] * u;
                d3 += D3[j] * u;
            }
            *o = self.y0[r] * (1.0 - s) + s * (self.y1[r] + (1.0 - s) * (d2 + s * d3));
        }
        Ok(())
    }
}
