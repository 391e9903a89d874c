//! Robertson's chemical kinetics (Robertson 1966; Hairer & Wanner, *Solving ODEs II*,
//! §IV.1, eq. (1.3)), the classic stiff test with three species:
//!
//! ```text
//! y1' = −k1 y1 + k3 y2 y3
//! y2' =  k1 y1 − k3 y2 y3 − k2 y2²
//! y3' =                     k2 y2²
//! ```
//!
//! k1 = 0.04, k2 = 3e7, k3 = 1e4, y(0) = (1, 0, 0). The rates sum to zero, so
//! y1 + y2 + y3 is conserved; the output `mass defect` = y1 + y2 + y3 − 1 shows how well a
//! method keeps it (every linear method keeps it to round-off). Reference (Hairer–Wanner):
//! y(40) ≈ (0.7158271, 9.185e-6, 0.2841637).

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::problem::System;
use nalgebra::DMatrix;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "robertson".into(),
        name: "Robertson kinetics (stiff)".into(),
        dim: 3,
        names: strings(&["y1", "y2", "y3"]),
        params: vec![
            ParamInfo::new("k1", 0.04, "1/s", "rate of A → B").above(0.0),
            ParamInfo::new("k2", 3e7, "1/s", "rate of 2B → B + C").above(0.0),
            ParamInfo::new("k3", 1e4, "1/s", "rate of B + C → A + C").above(0.0),
        ],
        y0: vec![1.0, 0.0, 0.0],
        t0: 0.0,
        t1: 40.0,
        source:
            "classic stiff test (Robertson 1966; Hairer–Wanner II §IV.1); rates and y0 as there"
                .into(),
        outputs: strings(&["mass defect"]),
        exact: false,
        fast: vec![],
        formulations: vec![],
        second_order: false,
        events: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    Box::new(Robertson {
        k1: p[0],
        k2: p[1],
        k3: p[2],
    })
}

struct Robertson {
    k1: f64,
    k2: f64,
    k3: f64,
}

impl System for Robertson {
    fn dim(&self) -> usize {
        3
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let a = self.k1 * y[0];
        let b = self.k3 * y[1] * y[2];
        let c = self.k2 * y[1] * y[1];
        dy[0] = -a + b;
        dy[1] = a - b - c;
        dy[2] = c;
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        let (k1, k2, k3) = (self.k1, self.k2, self.k3);
        Some(DMatrix::from_row_slice(
            3,
            3,
            &[
                -k1,
                k3 * y[2],
                k3 * y[1],
                k1,
                -k3 * y[2] - 2.0 * k2 * y[1],
                -k3 * y[1],
                0.0,
                2.0 * k2 * y[1],
                0.0,
            ],
        ))
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for Robertson {
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        out[0] = y[0] + y[1] + y[2] - 1.0;
    }
}
