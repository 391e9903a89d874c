//! The Van der Pol oscillator in its classic stiff form (Hairer & Wanner, *Solving ODEs
//! II*, §IV.1; MATLAB's `vdp1000`), y'' − μ(1 − y²)y' + y = 0 written as
//!
//! ```text
//! y1' = y2
//! y2' = μ (1 − y1²) y2 − y1
//! ```
//!
//! with μ = 1000, y(0) = (2, 0), t ∈ [0, 3000]. In this (unscaled) time the limit cycle
//! has period ≈ (3 − 2 ln 2) μ ≈ 1614 and the slow branches satisfy y2 ≈ y1 / (μ(1 − y1²)),
//! which is why the reference end point y(3000) = (−1.51060693674397, 1.1783800007312e-3)
//! has y2 of order 1e-3: it belongs to this form, not to the scaled form
//! y2' = μ((1 − y1²) y2 − y1) (whose slow branch has y2 = O(1)); see the test
//! `van_der_pol_reference_value`. Stiffness: the eigenvalue −μ(y1² − 1) reaches
//! −3000 at y1 = 2.
//!
//! Not among the sources' own examples: it is the standard stiff test the playground's
//! stiff methods are compared on.

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::problem::System;
use nalgebra::DMatrix;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "van-der-pol".into(),
        name: "Van der Pol oscillator (stiff)".into(),
        dim: 2,
        names: strings(&["y1", "y2"]),
        params: vec![ParamInfo::new(
            "mu",
            1000.0,
            "1",
            "stiffness parameter μ (1000 as in vdp1000)",
        )
        .above(0.0)],
        y0: vec![2.0, 0.0],
        t0: 0.0,
        t1: 3000.0,
        source: "classic stiff test (Hairer–Wanner II §IV.1); μ and y0 = (2, 0) as there".into(),
        outputs: vec![],
        exact: false,
        fast: vec![],
        formulations: vec![],
        second_order: true,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(VanDerPol { mu: p[0] })
}

struct VanDerPol {
    mu: f64,
}

impl System for VanDerPol {
    fn dim(&self) -> usize {
        2
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = self.mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
    }

    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let mut jac = DMatrix::zeros(2, 2);
        self.jacobian_into(t, y, &mut jac).then_some(jac)
    }

    fn autonomous(&self) -> bool {
        true
    }

    // The stiff methods' per-step calls: fill the caller's buffers, no allocation.
    fn jacobian_into(&self, _t: f64, y: &[f64], jac: &mut DMatrix<f64>) -> bool {
        let mu = self.mu;
        // Column-major: (0, 0), (1, 0), (0, 1), (1, 1); the caller's buffer is 2 × 2.
        match (jac.as_mut_slice(), y) {
            ([j00, j10, j01, j11], [y0, y1, ..]) => {
                *j00 = 0.0;
                *j01 = 1.0;
                *j10 = -2.0 * mu * y0 * y1 - 1.0;
                *j11 = mu * (1.0 - y0 * y0);
                true
            }
            _ => false,
        }
    }
}

impl Model for VanDerPol {}
