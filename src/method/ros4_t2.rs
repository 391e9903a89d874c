//! `ros4-t2`: the same four-stage, order-4(3) L-stable Rosenbrock method as `ros4`,
//! in the transformed implementation form of Negrut et al. 2003 Table 2 (Hairer–Wanner's
//! u_i = Σ_{j≤i} γ_ij k_j), which needs no product with J:
//!
//! ```text
//! (1/(γh) I − J) u_i = f(t_n + α_i h, y_n + Σ_{j<i} a_ij u_j) + Σ_{j<i} (c_ij/h) u_j + γ_i h f_t
//! y_{n+1} = y_n + Σ m_i u_i,      ŷ_{n+1} = y_n + Σ m̂_i u_i
//! ```
//!
//! with a = (α_ij)Γ⁻¹, C = diag(1/γ) − Γ⁻¹, m = bᵀΓ⁻¹, m̂ = b̂ᵀΓ⁻¹ and γ_i, α_i the row
//! sums of Table 1. **Correction:** Table 2 prints a21 = 0.2; it must be 2.0 = α21/γ
//! (the Sources panel's errata, "Negrut et al. 2003 Table 2, a21"). The θ_ij, δ_ij, μ_i of Table 2 are the
//! Nyström (second-order) coefficients of the companion paper and are not used by this
//! first-order form. One LU of I/(γh) − J per step; stage 4 has stage 3's argument
//! (a4j = a3j, Negrut et al. 2003 eq. 11), so three f-evaluations per step, as `ros4`. One step agrees
//! with `ros4` to rounding (tests/method/ros4_t2.rs: 1e-13).

// Digits exactly as printed in Negrut et al. 2003 Table 2 (a21 corrected).
#![allow(clippy::excessive_precision)]

use super::hermite::StepEnds;
use super::{ros4, MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linear_solver::StepMatrix;
use crate::problem::System;
use crate::stats::Stats;

/// γ of Table 1 (the diagonal γ_ii).
pub const GAMMA: f64 = 0.57281606;
/// a_ij of Table 2 (a21 corrected to 2.0).
pub const A: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [2.0, 0.0, 0.0],
    [1.86794814949823713234476, 0.2344455685172388502322, 0.0],
    [1.86794814949823713234476, 0.2344455685172388502322, 0.0],
];
/// c_ij of Table 2.
pub const C: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [-7.137649943349979830369260, 0.0, 0.0],
    [2.580923666509657714488050, 0.651629887302032023387417, 0.0],
    [
        -2.137115266506619116806370,
        -0.321469531339951070769241,
        -0.69496604928244522557329,
    ],
];
/// m_i and m̂_i of Table 2.
pub const M: [f64; 4] = [
    2.25556622860456524378840,
    0.28705506319415760762630,
    0.435311963379983213402707,
    1.093507656403247803214820,
];
pub const M_HAT: [f64; 4] = [
    2.06839916052758373423670,
    0.23868135206753279795493,
    0.36337334543539170826747,
    0.36655712793615514430163,
];
/// γ_i (γ_1 = γ) and α_i (α_1 = 0) of Table 2.
pub const GAMMA_I: [f64; 4] = [
    GAMMA,
    -1.76917706711201394970520,
    0.759293964293209853670967,
    -0.10489462149095580326743,
];
pub const ALPHA_I: [f64; 4] = [
    0.0,
    1.145632120,
    0.655214975973133829477748,
    0.655214975973133829477748,
];

pub const INFO: MethodInfo = MethodInfo {
    id: "ros4-t2",
    name: "Rosenbrock 4(3), Table 2 form",
    order: 4,
    family: "Rosenbrock",
    source: "Negrut et al. 2003, §2, Table 2 (a21 = 2.0, corrected, see Sources): ros4 without products with J",
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

/// The Table 2 stepper. The stages are one flat buffer (stage i at `i * n..(i + 1) *
/// n`) and the LU keeps its storage: a step allocates nothing.
pub struct Ros4T2 {
    provider: JacobianProvider,
    /// I/(γh) − J, refactorised in its own storage every step.
    lu: Option<StepMatrix>,
    /// The stages u_i, solved in place.
    u: Vec<f64>,
    f_stage: Vec<f64>,
    y_stage: Vec<f64>,
    error: Vec<f64>,
    /// f(t_n, y_n) of the step being taken.
    f_first: Vec<f64>,
    /// The last step's ends and slopes (dense output, reuse of f).
    ends: StepEnds,
}

impl Ros4T2 {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian).sparse_if(INFO.sparse),
            lu: None,
            u: vec![0.0; 4 * dim],
            f_stage: vec![0.0; dim],
            y_stage: vec![0.0; dim],
            error: vec![0.0; dim],
            f_first: vec![0.0; dim],
            ends: StepEnds::new(dim),
        }
    }
}

impl Stepper for Ros4T2 {
    fn info(&self) -> &'static MethodInfo {
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
        let n = y.len();
        // f(t_n, y_n): reused from a retry from the same point, or from the last step's
        // end once the dense output evaluated it there.
        self.ends.start_f(sys, t, y, &mut self.f_first, stats);
        let (jac, ft) = self.provider.at_any(sys, t, y, stats)?;
        let what = "I/(γh) − J of the Table 2 Rosenbrock step";
        let d = 1.0 / (GAMMA * h);
        let lu = StepMatrix::in_kept(&mut self.lu, jac, d, 1.0, what, t, h, stats)?;
        for i in 0..4 {
            let (done, rest) = self.u.split_at_mut(i * n);
            let u_i = &mut rest[..n];
            if i == 0 {
                self.f_stage.copy_from_slice(&self.f_first);
            } else if i != 3 {
                // Stage 4 has stage 3's argument (a4j = a3j): f_stage is kept.
                self.y_stage.copy_from_slice(y);
                for (&a, u_j) in A[i].iter().zip(done.chunks_exact(n.max(1))) {
                    if a != 0.0 {
                        for (ys, u) in self.y_stage.iter_mut().zip(u_j) {
                            *ys += a * u;
                        }
                    }
                }
                sys.rhs(t + ALPHA_I[i] * h, &self.y_stage, &mut self.f_stage);
                stats.nfev += 1;
            }
            for ((r, f), ftr) in u_i.iter_mut().zip(&self.f_stage).zip(ft.iter()) {
                *r = f + GAMMA_I[i] * h * ftr;
            }
            // nalgebra's axpy(c/h, u_j, 1) of the earlier DVector form, in its order.
            for (&c, u_j) in C[i].iter().zip(done.chunks_exact(n.max(1))) {
                let c_h = c / h;
                for (r, u) in u_i.iter_mut().zip(u_j) {
                    *r += c_h * u;
                }
            }
            lu.solve_slice(u_i)?;
        }
        y_out.copy_from_slice(y);
        self.error.fill(0.0);
        for ((&mi, &mi_hat), u_i) in M.iter().zip(&M_HAT).zip(self.u.chunks_exact(n.max(1))) {
            let ei = mi - mi_hat;
            for ((yo, err), u) in y_out.iter_mut().zip(&mut self.error).zip(u_i) {
                *yo += mi * u;
                *err += ei * u;
            }
        }
        self.ends.record(t, h, y, y_out, Some(&self.f_first));
        Ok(())
    }

    fn error_estimate(&self) -> Option<&[f64]> {
        Some(&self.error)
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

/// Table 2 is Table 1 transformed (Negrut et al. 2003 §2): the same method, so the
/// same R(z) as ros4's table.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Rosenbrock(&ros4::TABLEAU),
}
.full();

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Ros4T2::new(dim, options.jacobian)))
}
