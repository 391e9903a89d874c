//! `bdf2` (Schwab & Delhaes §7.8 corrected): order 2 with its backward Euler start-up.

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
