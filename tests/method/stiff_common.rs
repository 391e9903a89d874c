//! Test-only systems and helpers for the stiff and exponential methods.
#![allow(dead_code)]

use super::common::loglog_slope;
use nalgebra::{DMatrix, DVector};
use odelab::method::create;
use odelab::problem::System;
use odelab::stats::Stats;

/// y' = −2ty² (exact y = 1/(t² + c)), non-autonomous: exercises ∂f/∂t.
pub struct Riccati;

impl System for Riccati {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -2.0 * t * y[0] * y[0];
    }
    fn jacobian(&self, t: f64, y: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_element(1, 1, -4.0 * t * y[0]))
    }
    fn dfdt(&self, _t: f64, y: &[f64]) -> Option<DVector<f64>> {
        Some(DVector::from_element(1, -2.0 * y[0] * y[0]))
    }
}

/// Exact solution of [`Riccati`] through (t0, y0).
pub fn riccati_exact(t0: f64, y0: f64, t: f64) -> f64 {
    let c = 1.0 / y0 - t0 * t0;
    1.0 / (t * t + c)
}

/// y' = Λ y with Λ = [[a, −b], [b, a]] (λ = a + ib as a real 2 × 2 rotation block);
/// b = 0 with the second row ignored is the scalar test equation.
pub struct Rotation {
    pub a: f64,
    pub b: f64,
}

impl System for Rotation {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = self.a * y[0] - self.b * y[1];
        dy[1] = self.b * y[0] + self.a * y[1];
    }
    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_row_slice(
            2,
            2,
            &[self.a, -self.b, self.b, self.a],
        ))
    }
    fn dfdt(&self, _t: f64, _y: &[f64]) -> Option<DVector<f64>> {
        Some(DVector::zeros(2))
    }
}

/// A system without derivatives (for the typed "no Jacobian" error and FD tests).
pub struct NoJac;

impl System for NoJac {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -2.0 * t * y[0] * y[0];
    }
}

/// Slope of the norm of one step's error estimate from the exact state of
/// [`Riccati`] at t = 0.5 against h (an embedded formula of order q gives q + 1).
pub fn embedded_order_on_riccati(method: &str, h0: f64, n: i32) -> (f64, Vec<f64>) {
    let hs: Vec<f64> = (0..n).map(|k| h0 / 2f64.powi(k)).collect();
    let ests: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let mut s = create(method, 1).unwrap();
            let mut y1 = [0.0];
            s.step(&Riccati, 0.5, &[0.8], h, &mut y1, &mut Stats::default())
                .unwrap();
            s.error_estimate().unwrap()[0].abs()
        })
        .collect();
    (loglog_slope(&hs, &ests), ests)
}

/// Observed order of `method` on the fixed grid, with `tweak` applied to each spec
/// (Jacobian options, parameters): the error at t1 against `reference` (or the
/// model's exact solution when `reference` is `None`).
pub fn order_with(
    model: &str,
    method: &str,
    h0: f64,
    n: i32,
    t1: f64,
    reference: Option<&[f64]>,
    tweak: &dyn Fn(&mut odelab::spec::SolveSpec),
) -> (f64, Vec<f64>) {
    let hs: Vec<f64> = (0..n).map(|k| h0 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let mut s = super::common::fixed(model, method, h, t1);
            tweak(&mut s);
            let sol = odelab::solve(&s).unwrap();
            match reference {
                None => super::common::final_error(&sol),
                Some(r) => super::common::last(&sol)
                    .iter()
                    .zip(r)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max),
            }
        })
        .collect();
    (loglog_slope(&hs, &errs), errs)
}

/// Van der Pol with μ = 1 at t1 = 2 from a fine RK4 run (its error ~1e-14).
pub fn van_der_pol_mu1_reference() -> Vec<f64> {
    let mut s = super::common::fixed("van-der-pol", "rk4", 1e-4, 2.0);
    s.params.insert("mu".into(), 1.0);
    super::common::last(&odelab::solve(&s).unwrap()).to_vec()
}

pub fn mu1(s: &mut odelab::spec::SolveSpec) {
    s.params.insert("mu".into(), 1.0);
}

/// y' = λ y + c t: affine in y and t, so a method that linearises f with its ∂f/∂t
/// term (LLM) is exact. Exact: y(t) = (y0 + c/λ²) e^{λt} − c t/λ − c/λ² from t = 0.
pub struct Affine {
    pub lambda: f64,
    pub c: f64,
}

impl System for Affine {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = self.lambda * y[0] + self.c * t;
    }
    fn jacobian(&self, _t: f64, _y: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_element(1, 1, self.lambda))
    }
    fn dfdt(&self, _t: f64, _y: &[f64]) -> Option<DVector<f64>> {
        Some(DVector::from_element(1, self.c))
    }
}

impl Affine {
    pub fn exact(&self, y0: f64, t: f64) -> f64 {
        let (l, c) = (self.lambda, self.c);
        (y0 + c / (l * l)) * (l * t).exp() - c * t / l - c / (l * l)
    }
}
