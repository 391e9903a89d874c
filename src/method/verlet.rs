//! `verlet`: the Störmer–Verlet method in its velocity form, for second-order systems
//! q'' = a(t, q, q') with y = (q, v), v = q' (like `midpoint2`). Hairer, Lubich & Wanner,
//! Geometric Numerical Integration, 2nd ed. (2006), §I.1.4 (eq. 1.17) and §VI.3:
//!
//! v_{n+½} = v_n + (h/2) a_n,  q_{n+1} = q_n + h v_{n+½},
//! v_{n+1} = v_{n+½} + (h/2) a_{n+1},  a_{n+1} = a(t_{n+1}, q_{n+1}, v*),
//!
//! with v* = v_{n+½} + (h/2) a_n, an explicit estimate of v_{n+1} (O(h²) off) for a force
//! that depends on the velocity. a_{n+1} is the next step's a_n (first same as last), so
//! a step costs one evaluation of f. When a does not depend on v (a conservative force,
//! p' = −∇U(q)), v* plays no part and the step is HLW's Störmer–Verlet exactly: order 2,
//! symmetric and symplectic (HLW Theorem VI.3.4), so on the pendulum its energy error
//! stays bounded over exponentially long times (HLW §IX.8) where a non-symplectic method
//! such as RK4 drifts. With a velocity-dependent force the step stays second order (the
//! error of v* enters a_{n+1} times h/2) but is no longer symplectic.
//!
//! Dense output: the cubic Hermite interpolant on (v, a) at both ends.

use super::hermite::hermite_cubic;
use super::history::same_time;
use super::{MethodEntry, MethodInfo, MethodOptions, Stepper, Xi};
use crate::error::OdeError;
use crate::problem::System;
use crate::stats::Stats;
use nalgebra::Complex;

pub const INFO: MethodInfo = MethodInfo {
    id: "verlet",
    name: "Störmer–Verlet (second-order systems)",
    order: 2,
    family: "explicit symplectic, for second-order systems",
    source: "Hairer, Lubich & Wanner, Geometric Numerical Integration (2006), §I.1.4, §VI.3",
    stages: 1,
    adaptive: false,
    embedded_order: None,
    fsal: true,
    dense_order: 2,
    second_order: true,
    needs_jacobian: false,
    l_stable: false,
    partitioned: false,
    sparse: false,
};

pub const ENTRY: MethodEntry = MethodEntry {
    info: &INFO,
    build: Some(build),
    xi: Xi::Characteristic(characteristic),
}
.full();

fn build(dim: usize, _: &MethodOptions) -> Result<Box<dyn Stepper>, OdeError> {
    Ok(Box::new(Verlet::new(dim)))
}

/// The stepper. The model's state must be y = (q, q') halves; the driver checks
/// `ModelInfo::second_order` before creating it.
pub struct Verlet {
    /// f at the last step's start, (v_n, a_n).
    f0: Vec<f64>,
    /// f at the last step's end, (v_{n+1}, a_{n+1}); its a is the next step's a_n.
    f1: Vec<f64>,
    /// The point the end's f is evaluated at, (q_{n+1}, v*).
    at: Vec<f64>,
    y0: Vec<f64>,
    y1: Vec<f64>,
    t0: f64,
    h: f64,
    /// Whether `f1` belongs to (t0 + h, y1).
    has_end: bool,
}

impl Verlet {
    pub fn new(dim: usize) -> Self {
        Self {
            f0: vec![0.0; dim],
            f1: vec![0.0; dim],
            at: vec![0.0; dim],
            y0: vec![0.0; dim],
            y1: vec![0.0; dim],
            t0: f64::NAN,
            h: f64::NAN,
            has_end: false,
        }
    }
}

impl Stepper for Verlet {
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
        let n = y.len() / 2;
        // a_n: the last step's end acceleration when this step starts where it ended
        // (first same as last), else f(t, y).
        if self.has_end && same_time(t, self.t0 + self.h) && y == self.y1.as_slice() {
            std::mem::swap(&mut self.f0, &mut self.f1);
        } else if !(t == self.t0 && y == self.y0.as_slice() && self.has_end) {
            sys.rhs(t, y, &mut self.f0);
            stats.nfev += 1;
        }
        let (q, v) = y.split_at(n);
        let a0 = &self.f0[n..];
        for i in 0..n {
            let v_half = v[i] + 0.5 * h * a0[i];
            let q1 = q[i] + h * v_half;
            self.at[i] = q1;
            self.at[n + i] = v_half + 0.5 * h * a0[i];
            y_out[i] = q1;
            y_out[n + i] = v_half;
        }
        sys.rhs(t + h, &self.at, &mut self.f1);
        stats.nfev += 1;
        for i in 0..n {
            y_out[n + i] += 0.5 * h * self.f1[n + i];
        }
        // The slopes of the Hermite interpolant: (v, a) at both ends.
        self.f0[..n].copy_from_slice(&y[n..]);
        self.f1[..n].copy_from_slice(&y_out[n..]);
        self.y0.copy_from_slice(y);
        self.y1.copy_from_slice(y_out);
        self.t0 = t;
        self.h = h;
        self.has_end = true;
        Ok(())
    }

    fn dense_output(
        &mut self,
        _sys: &dyn System,
        theta: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) -> Result<(), OdeError> {
        hermite_cubic(theta, self.h, &self.y0, &self.f0, &self.y1, &self.f1, out);
        Ok(())
    }
}

/// The ξ-plane of the step as it runs, on the damped oscillator q'' + 2βωq' + ω²q = 0
/// read as in `midpoint2.rs`: Ω² = (hω)² = |ξ|², c = 2βωh = −2 Re ξ. In the scaled
/// variables (q, p = hv, A = h²a) the step, with the carried A, is the linear map
/// q' = q + p + A/2, A' = −Ω² q' − c (p + A), p' = p + A/2 + A'/2,
/// M = [[1, 1, ½], [−Ω²/2, 1 − Ω²/2 − c/2, ½ − Ω²/4 − c/2], [−Ω², −(Ω² + c), −(Ω²/2 + c)]].
/// Undamped, A = −Ω² q after one step: one eigenvalue 0 and the 2 × 2 Störmer–Verlet
/// matrix with det 1 and trace 2 − Ω² (HLW §I.5), so |ζ| = 1 for hω ≤ 2.
pub fn matrix(xi: Complex<f64>) -> [[f64; 3]; 3] {
    let w = xi.norm_sqr();
    let c = -2.0 * xi.re;
    [
        [1.0, 1.0, 0.5],
        [-0.5 * w, 1.0 - 0.5 * w - 0.5 * c, 0.5 - 0.25 * w - 0.5 * c],
        [-w, -(w + c), -(0.5 * w + c)],
    ]
}

/// det(ζI − M(ξ)) of [`matrix`], coefficients ascending.
pub fn characteristic(xi: Complex<f64>) -> [f64; 4] {
    let m = matrix(xi);
    let trace = m[0][0] + m[1][1] + m[2][2];
    let minors = m[0][0] * m[1][1] - m[0][1] * m[1][0] + m[0][0] * m[2][2] - m[0][2] * m[2][0]
        + m[1][1] * m[2][2]
        - m[1][2] * m[2][1];
    let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    [-det, minors, -trace, 1.0]
}
