//! Helpers shared by the Rust integration tests: one way to build a spec and run it,
//! so the API can change without touching every test.
#![allow(dead_code)]

use odelab::spec::{SolveSpec, Tol};
use odelab::{solve, OdeError, Solution};

/// A spec for `model` with `method` at step `h` over [0, t1].
pub fn spec(model: &str, method: &str, h: f64, t1: f64) -> SolveSpec {
    SolveSpec {
        model: model.into(),
        method: method.into(),
        h: Some(h),
        t1: Some(t1),
        ..SolveSpec::default()
    }
}

pub fn run(model: &str, method: &str, h: f64, t1: f64) -> Solution {
    solve(&spec(model, method, h, t1)).expect("a valid spec solves")
}

pub fn run_err(s: &SolveSpec) -> OdeError {
    match solve(s) {
        Ok(_) => panic!("spec {s:?} should have been refused"),
        Err(e) => e,
    }
}

/// Last state of a run.
pub fn last(sol: &Solution) -> &[f64] {
    &sol.y[sol.y.len() - sol.dim..]
}

/// Max-norm error of the final state against the model's exact solution.
pub fn final_error(sol: &Solution) -> f64 {
    let exact = sol.exact.as_ref().expect("model has an exact solution");
    let e = &exact[exact.len() - sol.dim..];
    last(sol)
        .iter()
        .zip(e)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// Least-squares slope of log(err) against log(h).
pub fn loglog_slope(hs: &[f64], errs: &[f64]) -> f64 {
    let xs: Vec<f64> = hs.iter().map(|h| h.ln()).collect();
    let ys: Vec<f64> = errs.iter().map(|e| e.ln()).collect();
    let n = xs.len() as f64;
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// `method` forced onto the fixed grid of step `h` (adaptive methods too), over [0, t1].
pub fn fixed(model: &str, method: &str, h: f64, t1: f64) -> SolveSpec {
    SolveSpec {
        adaptive: Some(false),
        ..spec(model, method, h, t1)
    }
}

/// An adaptive run of `method` with scalar tolerances, the first step chosen by the
/// method (Hairer's algorithm).
pub fn adaptive(model: &str, method: &str, rtol: f64, atol: f64, t1: f64) -> SolveSpec {
    SolveSpec {
        model: model.into(),
        method: method.into(),
        t1: Some(t1),
        rtol: Some(Tol::Scalar(rtol)),
        atol: Some(Tol::Scalar(atol)),
        ..SolveSpec::default()
    }
}

/// Observed order on the mass–spring–damper: slope of the final error against h over
/// `n` halvings from `h0`, on the fixed grid.
pub fn observed_order(method: &str, h0: f64, n: i32, t1: f64) -> (f64, Vec<f64>) {
    let hs: Vec<f64> = (0..n).map(|k| h0 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&solve(&fixed("mass-spring-damper", method, h, t1)).unwrap()))
        .collect();
    (loglog_slope(&hs, &errs), errs)
}

/// Like [`observed_order`], with the mass–spring–damper's parameters overridden.
pub fn observed_order_with(
    method: &str,
    params: &[(&str, f64)],
    h0: f64,
    n: i32,
    t1: f64,
) -> (f64, Vec<f64>) {
    let hs: Vec<f64> = (0..n).map(|k| h0 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let mut s = fixed("mass-spring-damper", method, h, t1);
            for (name, value) in params {
                s.params.insert(name.to_string(), *value);
            }
            final_error(&solve(&s).unwrap())
        })
        .collect();
    (loglog_slope(&hs, &errs), errs)
}

/// Error of the dense output at the midpoint of one step of size h taken from the
/// exact state of the mass–spring–damper at t = 0 (max norm against the exact solution).
pub fn dense_midpoint_error(method: &str, h: f64) -> f64 {
    let s = fixed("mass-spring-damper", method, h, h);
    let mut run = odelab::Integrator::new(&s).unwrap();
    run.step().unwrap();
    let mut y_mid = [0.0; 2];
    run.interpolate(0.5 * h, &mut y_mid).unwrap();
    let (info, model) = odelab::model::build(&s.model, &s.params).unwrap();
    let mut exact = [0.0; 2];
    model.exact(0.0, &info.y0, 0.5 * h, &mut exact);
    y_mid
        .iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// Slope of the dense-output midpoint error against h over `n` halvings from `h0`.
pub fn dense_order(method: &str, h0: f64, n: i32) -> (f64, Vec<f64>) {
    let hs: Vec<f64> = (0..n).map(|k| h0 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| dense_midpoint_error(method, h))
        .collect();
    (loglog_slope(&hs, &errs), errs)
}

/// The spec's `events` list watching each of the model's switching functions `ids`,
/// in both directions.
pub fn watch(ids: &[&str]) -> Vec<odelab::spec::EventSpec> {
    ids.iter()
        .map(|id| odelab::spec::EventSpec {
            id: Some(id.to_string()),
            ..Default::default()
        })
        .collect()
}

/// Largest relative deviation of output `name` from its initial value.
pub fn max_relative_drift(sol: &Solution, name: &str) -> f64 {
    let series = &sol
        .outputs
        .iter()
        .find(|(n, _)| n == name)
        .expect("the model has this output")
        .1;
    let e0 = series[0];
    series
        .iter()
        .map(|e| (e - e0).abs() / e0.abs())
        .fold(0.0, f64::max)
}
