//! Heun's method (Schwab & Delhaes §7.2): order 2, two evaluations per step, and the energy
//! growth its stability function predicts on an undamped oscillation.

use super::common::*;

#[test]
fn observed_order_is_two_on_mass_spring_damper() {
    let (p, errs) = observed_order("heun", 4e-3, 5, 1.0);
    assert!(
        (p - 2.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

#[test]
fn two_evaluations_per_step() {
    let sol = run("pendulum", "heun", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 200);
}

/// |R(ib)|² = 1 + b⁴/4 > 1 (Schwab & Delhaes Fig. 7.6): slower than Euler, but the undamped
/// pendulum still gains energy every step.
#[test]
fn pendulum_energy_grows_slowly() {
    let sol = run("pendulum", "heun", 0.01, 10.0);
    let energy = &sol.outputs[0].1;
    let (e0, e1) = (energy[0], *energy.last().unwrap());
    assert!(e1 > e0, "energy {e0} -> {e1}");
    assert!(e1 < 1.01 * e0, "energy {e0} -> {e1}");
}
