//! `am-pece` (Schwab & Delhaes §7.8): AB3 predictor + AM4 corrector, order 4, two f per step.

use super::common::*;

#[test]
fn am_pece_order_four() {
    let (p, errs) = observed_order("am-pece", 0.01, 4, 1.0);
    println!("am-pece order {p}, errors {errs:?}");
    assert!((p - 4.0).abs() < 0.15, "order {p}, errors {errs:?}");
}

#[test]
fn am_pece_cost() {
    let sol = run("mass-spring-damper", "am-pece", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    // Two RK4 start-up steps at 5 f each (f at the start for the history, RK4's 4),
    // f at the third point (the RK4 step left none), then 2 per PECE step:
    // 5 + 5 + (1 + 2) + 97·2 = 207.
    assert_eq!(sol.stats.nfev, 207);
}
