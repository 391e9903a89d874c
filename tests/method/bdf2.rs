//! `bdf2` (Schwab & Delhaes §7.8 corrected): order 2, started by extrapolated backward Euler.

use super::common::*;

#[test]
fn bdf2_order_two() {
    let (p, errs) = observed_order("bdf2", 0.01, 4, 1.0);
    println!("bdf2 order {p}, errors {errs:?}");
    assert!((p - 2.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// The grid's shortened last step restarts the start-up (a different h), and still
/// lands on t1.
#[test]
fn bdf2_restarts_when_h_changes() {
    let sol = run("mass-spring-damper", "bdf2", 0.003, 1.0);
    assert_eq!(*sol.t.last().unwrap(), 1.0);
    assert!(final_error(&sol) < 5e-3);
}

/// The start-up step is extrapolated backward Euler, 2·y(h/2, h/2) − y(h): second
/// order, so one step's error on x' = −x falls 8× when h halves (backward Euler's: 4×).
#[test]
fn bdf2_starts_with_a_second_order_step() {
    let one_step = |h: f64| {
        let spec: odelab::spec::SolveSpec = serde_json::from_str(&format!(
            r#"{{"system":"x' = -x\nx(0) = 1","method":"bdf2","h":{h},"t1":{h}}}"#
        ))
        .unwrap();
        let sol = odelab::solve(&spec).unwrap();
        (sol.y[1] - (-h).exp()).abs()
    };
    for h in [0.05, 0.025, 0.0125] {
        let ratio = one_step(h) / one_step(h / 2.0);
        assert!((ratio - 8.0).abs() < 0.8, "h = {h}: ratio {ratio}");
    }
}
