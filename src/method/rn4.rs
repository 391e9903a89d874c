//! `rn4`: the Rosenbrock–Nyström form of `ros4` for second-order systems q'' = g(t, q, q'),
//! y = (q, v) halves, with the coefficients of Negrut et al. 2003 §2, Table 2 (the method
//! of Sandu et al. 2003, "A Rosenbrock–Nystrom state space implicit approach for the
//! dynamic analysis of mechanical systems: I", Algorithm 1). Its stages live in the
//! velocity space only (n unknowns, not 2n) and its matrix is built from the two
//! Jacobians J₁ = ∂g/∂q and J₂ = ∂g/∂q' (analytic, or the system language's AD):
//!
//! ```text
//! (I/(hγ) − J₂ − hγ J₁) U_i = g(t_n + α_i h, q_n + hα_i v_n + h Σ_{j<i} θ_ij U_j, v_n + Σ_{j<i} a_ij U_j)
//!                            + Σ_{j<i} (c_ij/h) U_j + γ_i h ∂g/∂t + h J₁ (γ_i v_n + Σ_{j<i} δ_ij U_j)
//! v_{n+1} = v_n + Σ m_i U_i,          q_{n+1} = q_n + h v_n + h Σ μ_i U_i
//! v̂_{n+1} = v_n + Σ m̂_i U_i,          q̂_{n+1} = q_n + h v_n + h Σ μ̂_i U_i
//! ```
//!
//! **Where it is ros4.** Write ros4 (Negrut et al. 2003 eq. 2, Table 1) in the transformed
//! variables U_i = Σ_{j≤i} γ_ij k_j of Hairer & Wanner (Solving ODEs II, §IV.7, eq. 7.25:
//! a = AΓ⁻¹, C = diag(1/γ) − Γ⁻¹, m = bΓ⁻¹) and apply it to the first-order system
//! q' = v, v' = g with its exact Jacobian [[0, I], [J₁, J₂]]. The q rows of the stage
//! equations give U^q = h(Γ𝟙 v_n + Γ(I + a) U^v), which substituted into the v rows is the
//! scheme above with θ = A(I + a), δ = Γ(I + a) − γI, μ = b(I + a), μ̂ = b̂(I + a): the
//! Table 2 coefficients (each checked against Table 1 by `tests/method/rn4.rs`). So in
//! exact arithmetic rn4 and ros4 take the same steps on such a system, with the same
//! error estimate; in floating point they agree to rounding.
//!
//! **Correction:** Table 2 prints a21 = 0.2000; it is a21 = α21/γ = 2.0 (the Sources
//! panel's errata, "Negrut et al. 2003 Table 2, a21"). Table 2's c, δ and m also carry
//! Table 1's γ21 with its sign corrected (c21 = γ21/γ² < 0 as printed).
//!
//! The stage 4 argument equals stage 3's (Negrut et al. 2003 eq. 11: α4j = α3j, so
//! θ4j = θ3j and a4j = a3j): three g evaluations per step, as ros4. Dense output: the
//! cubic Hermite interpolant on f at both ends, as ros4. Dense Jacobians only (the
//! matrix is n × n, formed from the blocks of ∂f/∂y).

// The digits are exactly as printed in Negrut et al. 2003 Table 2.
#![allow(clippy::excessive_precision)]

use super::hermite::StepEnds;
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::jacobian::{JacobianOptions, JacobianProvider};
use crate::linalg::Factored;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::DMatrix;

/// The Rosenbrock–Nyström coefficients of Negrut et al. 2003 Table 2 (strictly lower rows
/// hold j < i; a21 corrected from the printed 0.2 to 2.0, the Sources panel's errata).
#[derive(Debug, Clone, Copy)]
pub struct NystromTableau {
    pub gamma_diag: f64,
    pub theta: [[f64; 3]; 4],
    pub a: [[f64; 3]; 4],
    pub c: [[f64; 3]; 4],
    pub delta: [[f64; 3]; 4],
    pub m: [f64; 4],
    pub m_hat: [f64; 4],
    pub mu: [f64; 4],
    pub mu_hat: [f64; 4],
    /// α_i (stage times), α_1 = 0.
    pub alpha: [f64; 4],
    /// γ_i = Σ_{j≤i} γ_ij, γ_1 = γ.
    pub gamma: [f64; 4],
}

/// Negrut et al. 2003 Table 2 (with γ = 0.57281606 of Table 1).
pub const TABLEAU: NystromTableau = NystromTableau {
    gamma_diag: 0.57281606,
    theta: [
        [0.0, 0.0, 0.0],
        [1.14563212, 0.0, 0.0],
        [0.7895091628156386296980, 0.134294186842504800149232, 0.0],
        [0.7895091628156386296980, 0.134294186842504800149232, 0.0],
    ],
    a: [
        [0.0, 0.0, 0.0],
        // Printed 0.20000000000000000000; a21 = α21/γ = 2 (the Sources panel's errata).
        [2.0, 0.0, 0.0],
        [1.86794814949823713234476, 0.2344455685172388502322, 0.0],
        [1.86794814949823713234476, 0.2344455685172388502322, 0.0],
    ],
    c: [
        [0.0, 0.0, 0.0],
        [-7.137649943349979830369260, 0.0, 0.0],
        [2.580923666509657714488050, 0.651629887302032023387417, 0.0],
        [
            -2.137115266506619116806370,
            -0.321469531339951070769241,
            -0.69496604928244522557329,
        ],
    ],
    delta: [
        [0.0, 0.0, 0.0],
        [-1.19636100711201394970520, 0.0, 0.0],
        [1.47028025440978071463870, 0.34810583767920449016704, 0.0],
        [
            0.003765094355556165798974,
            -0.10976248675810325875398,
            -0.22803103597313382947744,
        ],
    ],
    m: [
        2.25556622860456524378840,
        0.28705506319415760762630,
        0.435311963379983213402707,
        1.093507656403247803214820,
    ],
    m_hat: [
        2.06839916052758373423670,
        0.23868135206753279795493,
        0.36337334543539170826747,
        0.36655712793615514430163,
    ],
    mu: [
        1.59275081940958534074900,
        0.195938266310250609693329,
        0.0,
        0.62637874732074217781171,
    ],
    mu_hat: [
        1.43490397184820947267100,
        0.22297867258869836905153,
        0.124559686414702049774897,
        0.20996980978930432131906,
    ],
    alpha: [
        0.0,
        1.145632120,
        0.655214975973133829477748,
        0.655214975973133829477748,
    ],
    gamma: [
        0.57281606,
        -1.76917706711201394970520,
        0.759293964293209853670967,
        -0.10489462149095580326743,
    ],
};

pub const INFO: MethodInfo = MethodInfo {
    id: "rn4",
    name: "Rosenbrock–Nyström 4(3)",
    order: 4,
    family: "Rosenbrock, for second-order systems",
    source: "Negrut et al. 2003, §2, Table 2 (a21 corrected, see Sources); Sandu et al. 2003",
    stages: 3,
    adaptive: true,
    embedded_order: Some(3),
    fsal: false,
    dense_order: 3,
    second_order: true,
    needs_jacobian: true,
    l_stable: true,
    partitioned: false,
    sparse: false,
};

/// On y' = λy the method is ros4 (the module doc): its ξ-plane is ros4's table.
pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Rosenbrock(&super::ros4::TABLEAU),
}
.full();

fn build(dim: usize, options: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    // The driver runs it on second-order models only (`MethodInfo::second_order`).
    Ok(Box::new(RosenbrockNystrom::new(dim, options.jacobian)))
}

/// The Rosenbrock–Nyström stepper: its stages in velocity space, the n × n matrix
/// I − hγJ₂ − (hγ)²J₁ factorised once per step.
pub struct RosenbrockNystrom {
    provider: JacobianProvider,
    /// J₂ + hγ J₁, whose I − hγ(·) is factorised.
    k: DMatrix<f64>,
    lu: Option<Factored>,
    /// The stages U_i, stage i at `i * n..(i + 1) * n`.
    u: Vec<f64>,
    /// f(t_n, y_n) (2n), then the stage arguments' f.
    f0: Vec<f64>,
    f: Vec<f64>,
    arg: Vec<f64>,
    rhs: Vec<f64>,
    /// γ_i v_n + Σ δ_ij U_j, multiplied by J₁.
    w: Vec<f64>,
    error: Vec<f64>,
    ends: StepEnds,
}

impl RosenbrockNystrom {
    pub fn new(dim: usize, jacobian: JacobianOptions) -> Self {
        let n = dim / 2;
        Self {
            provider: JacobianProvider::new(INFO.id, jacobian),
            k: DMatrix::zeros(n, n),
            lu: None,
            u: vec![0.0; 4 * n],
            f0: vec![0.0; dim],
            f: vec![0.0; dim],
            arg: vec![0.0; dim],
            rhs: vec![0.0; n],
            w: vec![0.0; n],
            error: vec![0.0; dim],
            ends: StepEnds::new(dim),
        }
    }
}

impl Stepper for RosenbrockNystrom {
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
        let tab = &TABLEAU;
        let n = y.len() / 2;
        let (q, v) = y.split_at(n);
        self.ends.start_f(sys, t, y, &mut self.f0, stats);
        let (jac, ft) = self.provider.at(sys, t, y, stats)?;
        let hg = h * tab.gamma_diag;
        // K = J₂ + hγ J₁ from the lower blocks of ∂f/∂y; hγ × (I/(hγ) − J₂ − hγJ₁) = I − hγK.
        for j in 0..n {
            for i in 0..n {
                self.k[(i, j)] = jac[(n + i, n + j)] + hg * jac[(n + i, j)];
            }
        }
        let what = "I − hγ ∂f/∂q' − (hγ)² ∂f/∂q of the Rosenbrock–Nyström step";
        match &mut self.lu {
            Some(f) => f.reshift(&self.k, 1.0, hg, t, h, stats)?,
            None => self.lu = Some(Factored::shifted(&self.k, 1.0, hg, what, t, h, stats)?),
        }
        let lu = self.lu.as_ref().ok_or_else(|| OdeError::BadSpec {
            message: "the Rosenbrock–Nyström matrix was not factorised".into(),
        })?;
        for i in 0..4 {
            let (done, rest) = self.u.split_at_mut(i * n);
            let u_i = &mut rest[..n];
            // g at the stage's argument; stage 4's equals stage 3's (eq. 11).
            let g: &[f64] = if i == 0 {
                &self.f0[n..]
            } else {
                if i != 3 {
                    let ai = tab.alpha[i];
                    for r in 0..n {
                        let (mut dq, mut dv) = (0.0, 0.0);
                        for (j, u_j) in done.chunks_exact(n).enumerate() {
                            dq += tab.theta[i][j] * u_j[r];
                            dv += tab.a[i][j] * u_j[r];
                        }
                        self.arg[r] = q[r] + h * ai * v[r] + h * dq;
                        self.arg[n + r] = v[r] + dv;
                    }
                    sys.rhs(t + ai * h, &self.arg, &mut self.f);
                    stats.nfev += 1;
                }
                &self.f[n..]
            };
            let gi = tab.gamma[i];
            for r in 0..n {
                let mut coupling = 0.0;
                let mut w = gi * v[r];
                for (j, u_j) in done.chunks_exact(n).enumerate() {
                    coupling += tab.c[i][j] / h * u_j[r];
                    w += tab.delta[i][j] * u_j[r];
                }
                self.rhs[r] = g[r] + coupling + gi * h * ft[n + r];
                self.w[r] = w;
            }
            // + h J₁ w.
            for j in 0..n {
                let hw = h * self.w[j];
                if hw != 0.0 {
                    for r in 0..n {
                        self.rhs[r] += jac[(n + r, j)] * hw;
                    }
                }
            }
            for (u, r) in u_i.iter_mut().zip(&self.rhs) {
                *u = hg * r;
            }
            lu.solve_slice(u_i)?;
        }
        let (q_out, v_out) = y_out.split_at_mut(n);
        let (eq, ev) = self.error.split_at_mut(n);
        for r in 0..n {
            let (mut dq, mut dv, mut e_q, mut e_v) = (0.0, 0.0, 0.0, 0.0);
            for (i, u_i) in self.u.chunks_exact(n).enumerate() {
                dq += tab.mu[i] * u_i[r];
                dv += tab.m[i] * u_i[r];
                e_q += (tab.mu[i] - tab.mu_hat[i]) * u_i[r];
                e_v += (tab.m[i] - tab.m_hat[i]) * u_i[r];
            }
            q_out[r] = q[r] + h * v[r] + h * dq;
            v_out[r] = v[r] + dv;
            eq[r] = h * e_q;
            ev[r] = e_v;
        }
        self.ends.record(t, h, y, y_out, Some(&self.f0));
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
