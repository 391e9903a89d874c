//! `ab3` (Schwab & Delhaes §7.8): order 3 with its RK4 start-up, one f per step.

use super::common::*;

#[test]
fn ab3_order_three() {
    let (p, errs) = observed_order("ab3", 0.01, 4, 1.0);
    println!("ab3 order {p}, errors {errs:?}");
    assert!((p - 3.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

/// Two RK4 start-up steps (f at the step start for the history, then RK4's 4), then one
/// f per step: 100 steps cost 2·5 + 98 = 108 evaluations.
#[test]
fn ab3_cost_and_start_up() {
    let sol = run("mass-spring-damper", "ab3", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 108);
}
