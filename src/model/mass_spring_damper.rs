//! Mass–spring–damper under gravity, Schwab & Delhaes eq. (7.7):
//! x' = u, u' = g − (k/m) x − (c/m) u, from rest by default (Schwab & Delhaes §7, "starting from rest").
//! Linear, so the exact solution is known in closed form for every damping ratio.

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math;
use crate::problem::System;
use nalgebra::DMatrix;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "mass-spring-damper".into(),
        name: "Mass–spring–damper".into(),
        dim: 2,
        names: strings(&["x", "u"]),
        params: vec![
            ParamInfo::new(
                "m",
                1.0,
                "kg",
                "mass (odelab's choice: the notes print no values)",
            )
            .above(0.0),
            ParamInfo::new(
                "k",
                100.0,
                "N/m",
                "spring stiffness (odelab's choice: ω0 = 10 rad/s)",
            )
            .above(0.0),
            ParamInfo::new(
                "c",
                0.5,
                "N·s/m",
                "damping coefficient (odelab's choice: light, β = 0.025)",
            ),
            ParamInfo::new(
                "g",
                9.81,
                "m/s²",
                "gravitational acceleration, x down (eq. 7.7)",
            ),
        ],
        y0: vec![0.0, 0.0],
        t0: 0.0,
        t1: 5.0,
        source: "Schwab & Delhaes, eq. (7.7); y0 = 0, from rest, as there".into(),
        outputs: strings(&["energy"]),
        exact: true,
        second_order: true,
        events: vec![],
        fast: vec![],
        formulations: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(MassSpringDamper {
        m: p[0],
        k: p[1],
        c: p[2],
        g: p[3],
    })
}

struct MassSpringDamper {
    m: f64,
    k: f64,
    c: f64,
    g: f64,
}

impl System for MassSpringDamper {
    fn dim(&self) -> usize {
        2
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = self.g - self.k / self.m * y[0] - self.c / self.m * y[1];
    }

    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_row_slice(
            2,
            2,
            &[0.0, 1.0, -self.k / self.m, -self.c / self.m],
        ))
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for MassSpringDamper {
    /// Kinetic + spring − gravity potential (x measured downwards).
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        let (x, u) = (y[0], y[1]);
        out[0] = 0.5 * self.m * u * u + 0.5 * self.k * x * x - self.m * self.g * x;
    }

    /// Free response about the static equilibrium x_eq = m g / k, in the under-,
    /// critically and over-damped cases (ζ = c / (2√(mk))).
    fn exact(&self, t0: f64, y0: &[f64], t: f64, out: &mut [f64]) -> bool {
        let x_eq = self.m * self.g / self.k;
        let (x0, v0) = (y0[0] - x_eq, y0[1]);
        let w0 = (self.k / self.m).sqrt();
        let a = self.c / (2.0 * self.m); // ζ ω0
        let tau = t - t0;
        let disc = a * a - w0 * w0; // ω0²(ζ² − 1)
        if disc > 1e-14 * w0 * w0 {
            // Over-damped: the two real modes e^{λτ}, λ = −a ± s, taken separately. The
            // product e^{−aτ} cosh(sτ) overflows to 0·∞ once aτ passes ~710 (a stiff
            // spring, c = 1000, at τ = 1.5), though both modes decay. The slow rate
            // −a + s is written −ω0²/(a + s), free of cancellation when s ≈ a.
            let s = disc.sqrt();
            let (slow, fast) = (-w0 * w0 / (a + s), -(a + s));
            let (es, ef) = (math::exp(slow * tau), math::exp(fast * tau));
            // x = A e^{slow τ} + B e^{fast τ} with A + B = x0, slow A + fast B = v0.
            let b = (v0 - slow * x0) / (fast - slow);
            let a_coef = x0 - b;
            out[0] = x_eq + a_coef * es + b * ef;
            out[1] = slow * a_coef * es + fast * b * ef;
            return true;
        }
        let decay = math::exp(-a * tau);
        // x(τ) = e^{−aτ}[x0 C(τ) + (v0 + a x0) S(τ)], v(τ) = e^{−aτ}[v0 C(τ) − (a v0 + ω0² x0) S(τ)]
        // with C = cos(ωτ) or 1 and S = sin(ωτ)/ω or τ (under- or critically damped).
        let (cc, ss) = if disc.abs() <= 1e-14 * w0 * w0 {
            (1.0, tau)
        } else {
            let wd = (-disc).sqrt();
            (math::cos(wd * tau), math::sin(wd * tau) / wd)
        };
        out[0] = x_eq + decay * (x0 * cc + (v0 + a * x0) * ss);
        out[1] = decay * (v0 * cc - (a * v0 + w0 * w0 * x0) * ss);
        true
    }
}
