//! The pendulum-plus-particle of Gil, Sanfelice & Nikravesh 2013 (Fig. 6, eqs. (63)–(68)), with the corrections
//! of the Sources panel's errata (gravity sign in eqs. (66)/(67), the missing ṙ2 rows of
//! eq. (66), and the fast eigenvalue i√(k/m2), not (k/m2)i).
//!
//! A bar (mass m1, centroidal inertia J1, length L) hinged at the origin carries, at its
//! tip, a spring k to a light particle (mass m2). With s = (L/2 sin θ, −L/2 cos θ)
//! (θ = 0 hanging down), the hinge constraint of eq. (64), Φ = r1 − s = 0, fixes the
//! bar's centre of mass at r1 = s; the tip is r1 + s = 2s.
//!
//! **Formulation.** The paper writes eq. (63) in body coordinates (r1, θ) with a
//! multiplier for eq. (64). Here the hinge is eliminated exactly (one bar, one joint:
//! r1 = s(θ) is explicit), which leaves the minimal state
//! y = (θ, θ̇, r2x, r2y, ṙ2x, ṙ2y): the paper's slow state x of eq. (65) reduced to (θ, θ̇),
//! and its fast state z = (r2, ṙ2) unchanged. Eliminating the multiplier of eq. (63a)
//! by the virtual-work principle about the hinge gives
//!
//! ```text
//! (J1 + m1 L²/4) θ̈ = −m1 g (L/2) sin θ + (2s) × fs,   fs = k (r2 − 2s)      (63a)
//! r̈2 = −(k/m2)(r2 − 2s) + g,   g = (0, −9.81)                               (63b), (66) corrected
//! ```
//!
//! where (2s) × fs = k (L sin θ · r2y + L cos θ · r2x) (the 2s × 2s term vanishes). The
//! slow manifold (eq. (67), corrected) is r2 = 2s + (m2/k) g: the particle hangs
//! (m2/k)g ≈ 2e-5 m below the tip. The default start puts it *at* the tip, at rest, as
//! the example asks, so a fast oscillation of amplitude ≈ 2e-5 m rides on the swing.
//!
//! Fast eigenvalue of ∂f/∂y: ≈ ±i√(k/m2) = ±707.1i (the Sources panel's errata). With h = 0.005,
//! hλ ≈ 3.54i lies outside rk4's stability interval (2.83i): rk4 blows up there.
//! Energy, eq. (68): ½m1|ṙ1|² + ½J1θ̇² + ½m2|ṙ2|² + g(m1 r1y + m2 r2y) + ½k|r2 − 2s|²,
//! conserved (no damping).

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math;
use crate::problem::System;
use nalgebra::DMatrix;
use std::f64::consts::FRAC_PI_4;

pub fn info() -> ModelInfo {
    let (s, c) = math::sin_cos(FRAC_PI_4);
    ModelInfo {
        id: "pendulum-particle".into(),
        name: "Pendulum with a particle on a spring".into(),
        dim: 6,
        names: strings(&["θ", "θ̇", "x2", "y2", "ẋ2", "ẏ2"]),
        params: vec![
            ParamInfo::new("m1", 100.0, "kg", "mass of the bar (Fig. 6's value)").above(0.0),
            ParamInfo::new("J1", 100.0, "kg·m²", "centroidal inertia of the bar (Fig. 6's value)").above(0.0),
            ParamInfo::new("L", 1.0, "m", "length of the bar (Fig. 6's value)").above(0.0),
            ParamInfo::new("m2", 1e-5, "kg", "mass of the particle (Fig. 6's value)").above(0.0),
            ParamInfo::new("k", 5.0, "N/m", "spring between tip and particle (Fig. 6's value)").above(0.0),
            ParamInfo::new("g", 9.81, "m/s²", "gravitational acceleration, downwards (eq. 63)"),
            ParamInfo::new(
                "theta0",
                FRAC_PI_4,
                "rad",
                "default initial angle of the bar (odelab's choice)",
            ),
        ],
        y0: vec![FRAC_PI_4, 0.0, s, -c, 0.0, 0.0],
        t0: 0.0,
        t1: 10.0,
        source: "Gil, Sanfelice & Nikravesh 2013, Fig. 6, eqs. (63)–(68), with corrections (see Sources); y0 (θ0, the particle at the tip, at rest) is odelab's choice: the paper prints none".into(),
        outputs: strings(&["energy"]),
        exact: false,
        fast: vec![2, 3, 4, 5],
        formulations: vec![],
        second_order: false,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(PendulumParticle {
        m1: p[0],
        j1: p[1],
        l: p[2],
        m2: p[3],
        k: p[4],
        g: p[5],
        theta0: p[6],
    })
}

struct PendulumParticle {
    m1: f64,
    j1: f64,
    l: f64,
    m2: f64,
    k: f64,
    g: f64,
    theta0: f64,
}

impl PendulumParticle {
    /// Inertia about the hinge.
    fn inertia(&self) -> f64 {
        self.j1 + self.m1 * self.l * self.l / 4.0
    }
}

impl System for PendulumParticle {
    fn dim(&self) -> usize {
        6
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let (sn, cs) = math::sin_cos(y[0]);
        let (px, py) = (self.l * sn, -self.l * cs); // tip 2s
        let torque = -self.m1 * self.g * 0.5 * self.l * sn + self.k * (px * y[3] - py * y[2]);
        let w = self.k / self.m2;
        dy[0] = y[1];
        dy[1] = torque / self.inertia();
        dy[2] = y[4];
        dy[3] = y[5];
        dy[4] = -w * (y[2] - px);
        dy[5] = -w * (y[3] - py) - self.g;
    }

    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let mut jac = DMatrix::zeros(6, 6);
        self.jacobian_into(t, y, &mut jac).then_some(jac)
    }

    fn autonomous(&self) -> bool {
        true
    }

    // What `slowfast` calls every step: fill the caller's buffers, no allocation.
    fn jacobian_into(&self, _t: f64, y: &[f64], j: &mut DMatrix<f64>) -> bool {
        let (sn, cs) = math::sin_cos(y[0]);
        let (px, py) = (self.l * sn, -self.l * cs);
        let (dpx, dpy) = (self.l * cs, self.l * sn); // ∂(2s)/∂θ
        let i = self.inertia();
        let w = self.k / self.m2;
        j.fill(0.0);
        j[(0, 1)] = 1.0;
        j[(1, 0)] =
            (-self.m1 * self.g * 0.5 * self.l * cs + self.k * (dpx * y[3] - dpy * y[2])) / i;
        j[(1, 2)] = -self.k * py / i;
        j[(1, 3)] = self.k * px / i;
        j[(2, 4)] = 1.0;
        j[(3, 5)] = 1.0;
        j[(4, 0)] = w * dpx;
        j[(4, 2)] = -w;
        j[(5, 0)] = w * dpy;
        j[(5, 3)] = -w;
        true
    }
}

impl Model for PendulumParticle {
    /// The bar at `theta0`, the particle at its tip, all at rest.
    fn default_y0(&self) -> Option<Vec<f64>> {
        let (sn, cs) = math::sin_cos(self.theta0);
        Some(vec![self.theta0, 0.0, self.l * sn, -self.l * cs, 0.0, 0.0])
    }

    /// Total energy, Gil, Sanfelice & Nikravesh 2013 eq. (68), with r1 = s and |ṙ1| = (L/2)|θ̇|.
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        let (sn, cs) = math::sin_cos(y[0]);
        let h = 0.5 * self.l;
        let (dx, dy) = (y[2] - self.l * sn, y[3] + self.l * cs);
        out[0] = 0.5 * self.m1 * h * h * y[1] * y[1]
            + 0.5 * self.j1 * y[1] * y[1]
            + 0.5 * self.m2 * (y[4] * y[4] + y[5] * y[5])
            + self.g * (self.m1 * (-h * cs) + self.m2 * y[3])
            + 0.5 * self.k * (dx * dx + dy * dy);
    }
}
