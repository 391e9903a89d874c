//! The rotating test problem of Gil, Sanfelice & Nikravesh (LLM) eq. (35), used there (Fig. 6) to check the
//! LLM's local error estimate:
//!
//! ```text
//! x1' = −x2 / x3²,   x2' = x1 / x3²,   x3' = 1,      x(1/π) = [0, −1, 1/π]
//! ```
//!
//! with exact solution x(t) = [sin(1/t), cos(1/t), t] (Gil, Sanfelice & Nikravesh (LLM) eq. (36)). The natural start
//! is t0 = 1/π, declared as [`ModelInfo::t0`]. The frequency 1/t² grows as t → 0: the
//! problem is oscillatory and increasingly hard backwards in time.
//!
//! Exact solution from any start (t0, x0) with x3 not crossing 0: x3 = x3(t0) + (t − t0)
//! and (x1, x2) is x0 rotated by φ = ∫ dt/x3² = 1/x3(t0) − 1/x3(t).

use super::{strings, Model, ModelInfo};
use crate::math;
use crate::problem::System;
use nalgebra::DMatrix;
use std::f64::consts::FRAC_1_PI;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "sin-inv-t".into(),
        name: "sin(1/t) rotation".into(),
        dim: 3,
        names: strings(&["x1", "x2", "x3"]),
        params: vec![],
        y0: vec![0.0, -1.0, FRAC_1_PI],
        t0: FRAC_1_PI,
        t1: 1.0,
        source: "Gil, Sanfelice & Nikravesh (LLM), eqs. (35)–(36), Fig. 6; t0 and y0 from eq. (35)"
            .into(),
        outputs: strings(&["radius"]),
        exact: true,
        fast: vec![],
        formulations: vec![],
        second_order: false,
        events: vec![],
    }
}

pub fn build(_p: &[f64]) -> Box<dyn Model> {
    Box::new(SinInvT)
}

struct SinInvT;

impl System for SinInvT {
    fn dim(&self) -> usize {
        3
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let w = 1.0 / (y[2] * y[2]);
        dy[0] = -y[1] * w;
        dy[1] = y[0] * w;
        dy[2] = 1.0;
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let w = 1.0 / (y[2] * y[2]);
        let w3 = 2.0 * w / y[2]; // −∂w/∂x3
        Some(DMatrix::from_row_slice(
            3,
            3,
            &[0.0, -w, y[1] * w3, w, 0.0, -y[0] * w3, 0.0, 0.0, 0.0],
        ))
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for SinInvT {
    /// √(x1² + x2²), which stays 1 along the exact solution.
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        out[0] = math::hypot(y[0], y[1]);
    }

    fn exact(&self, t0: f64, y0: &[f64], t: f64, out: &mut [f64]) -> bool {
        let u0 = y0[2];
        let u = u0 + (t - t0);
        if u0 == 0.0 || u == 0.0 || (u0 > 0.0) != (u > 0.0) {
            return false;
        }
        let phi = 1.0 / u0 - 1.0 / u;
        let (s, c) = math::sin_cos(phi);
        out[0] = y0[0] * c - y0[1] * s;
        out[1] = y0[0] * s + y0[1] * c;
        out[2] = u;
        true
    }
}
