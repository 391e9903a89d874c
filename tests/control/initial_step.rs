//! Hairer's initial step selection (Solving ODEs I, §II.4).

use odelab::control::{initial_step, Tolerance};
use odelab::model::build;
use odelab::Stats;
use std::collections::BTreeMap;

/// The pendulum from rest at θ = 1: f0 = (0, −8.25…), so d0/d1 gives h0 and the second
/// derivative estimate bounds h1. The value is pinned, and the cost is two evaluations.
#[test]
fn pendulum_initial_step_follows_hairer() {
    let (_, model) = build("pendulum", &BTreeMap::new()).unwrap();
    let tol = Tolerance::uniform(1e-8, 1e-10, 2).unwrap();
    let mut stats = Stats::default();
    let h = initial_step(model.as_ref(), 0.0, &[1.0, 0.0], 100.0, 4, &tol, &mut stats);
    assert_eq!(stats.nfev, 2);
    // d0 = ‖y0/sc‖ with sc = (1e-10 + 1e-8, 1e-10): d0 ≈ 7.0e7, d1 ≈ 5.8e10, so
    // h0 = 0.01 d0/d1 ≈ 1.2e-5; ‖y''‖ ≈ ‖(−8.25, 0)/sc‖ gives h1 = (0.01/d2)^(1/5).
    let sc0 = 1e-10 + 1e-8;
    let d0 = (0.5f64).sqrt() / sc0;
    let f1 = 9.81 * 1f64.sin();
    let d1 = (0.5f64).sqrt() * f1 / 1e-10;
    let h0 = 0.01 * d0 / d1;
    let d2 = (0.5f64).sqrt() * f1 / sc0; // (f(h0) − f0)/h0 ≈ (−f1, ≈0)
    let h1 = (0.01 / d1.max(d2)).powf(0.2);
    let expected = (100.0 * h0).min(h1);
    assert!((h / expected - 1.0).abs() < 1e-3, "{h} vs {expected}");
}

#[test]
fn initial_step_never_exceeds_the_interval() {
    let (_, model) = build("mass-spring-damper", &BTreeMap::new()).unwrap();
    let tol = Tolerance::uniform(1.0, 1.0, 2).unwrap();
    let mut stats = Stats::default();
    let h = initial_step(model.as_ref(), 0.0, &[0.0, 0.0], 1e-3, 4, &tol, &mut stats);
    assert!(h > 0.0 && h <= 1e-3, "{h}");
}
