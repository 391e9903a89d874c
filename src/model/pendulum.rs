//! The undamped pendulum θ'' = −(g/L) sin θ, Schwab & Delhaes Fig. 7.5 (the figure where
//! explicit Euler gains energy every step and the swing grows without bound).

use super::{strings, Model, ModelInfo, ParamInfo};
use crate::math;
use crate::problem::System;
use nalgebra::DMatrix;

pub fn info() -> ModelInfo {
    ModelInfo {
        id: "pendulum".into(),
        name: "Pendulum".into(),
        dim: 2,
        names: strings(&["θ", "ω"]),
        params: vec![
            ParamInfo::new(
                "g",
                9.81,
                "m/s²",
                "gravitational acceleration (standard value)",
            ),
            ParamInfo::new(
                "L",
                1.0,
                "m",
                "length (odelab's choice: the notes print no values)",
            )
            .above(0.0),
        ],
        y0: vec![1.0, 0.0],
        t0: 0.0,
        t1: 10.0,
        source: "Schwab & Delhaes §7.1, Fig. 7.5; y0 = (1 rad, 0) is odelab's choice: a wide swing"
            .into(),
        outputs: strings(&["energy"]),
        exact: false,
        second_order: true,
        events: vec![],
        fast: vec![],
        formulations: vec![],
    }
}

pub fn build(p: &[f64]) -> Box<dyn Model> {
    let (g, l) = (p[0], p[1]);
    Box::new(Pendulum {
        g,
        l,
        minus_g_over_l: -g / l,
    })
}

struct Pendulum {
    g: f64,
    l: f64,
    /// −g/L, the bits of `-g / l`: divided once when the model is built, not in
    /// every evaluation of f and J.
    minus_g_over_l: f64,
}

impl System for Pendulum {
    fn dim(&self) -> usize {
        2
    }

    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = self.minus_g_over_l * math::sin(y[0]);
    }

    fn jacobian(&self, _t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_row_slice(
            2,
            2,
            &[0.0, 1.0, self.minus_g_over_l * math::cos(y[0]), 0.0],
        ))
    }

    fn autonomous(&self) -> bool {
        true
    }
}

impl Model for Pendulum {
    /// Energy per unit mass (J/kg): ½ L² ω² + g L (1 − cos θ); constant along exact solutions.
    fn outputs(&self, _t: f64, y: &[f64], out: &mut [f64]) {
        out[0] = 0.5 * self.l * self.l * y[1] * y[1] + self.g * self.l * (1.0 - math::cos(y[0]));
    }
}
