//! Classical RK4 (Schwab & Delhaes §7.3): accuracy, order 4, cost, energy behaviour.

use super::common::*;

/// The skeleton issue's acceptance test: RK4 at h = 0.001 on [0, 1] matches the exact
/// solution of Schwab & Delhaes eq. (7.7) to 1e-9 at every grid point.
#[test]
fn rk4_matches_exact_mass_spring_damper_to_1e_9() {
    let sol = run("mass-spring-damper", "rk4", 1e-3, 1.0);
    let exact = sol.exact.as_ref().unwrap();
    let worst = sol
        .y
        .iter()
        .zip(exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst < 1e-9, "max error {worst}");
    assert_eq!(sol.t.len(), 1001);
    assert_eq!(*sol.t.last().unwrap(), 1.0);
}

#[test]
fn observed_order_is_four_on_mass_spring_damper() {
    let hs: Vec<f64> = (0..4).map(|k| 0.02 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&run("mass-spring-damper", "rk4", h, 1.0)))
        .collect();
    let p = loglog_slope(&hs, &errs);
    assert!((p - 4.0).abs() < 0.1, "observed order {p}, errors {errs:?}");
}

/// On the nonlinear pendulum, against a reference from RK4 at a much smaller step
/// (whose own error is ~2^-16 of the coarsest run's).
#[test]
fn observed_order_is_four_on_pendulum() {
    let reference = last(&run("pendulum", "rk4", 0.05 / 64.0, 2.0)).to_vec();
    let hs: Vec<f64> = (0..4).map(|k| 0.05 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| {
            let sol = run("pendulum", "rk4", h, 2.0);
            (last(&sol)[0] - reference[0]).abs()
        })
        .collect();
    let p = loglog_slope(&hs, &errs);
    assert!(
        (p - 4.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

#[test]
fn four_evaluations_per_step() {
    let sol = run("pendulum", "rk4", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 400);
}

#[test]
fn pendulum_energy_nearly_conserved() {
    let sol = run("pendulum", "rk4", 0.01, 10.0);
    let energy = &sol.outputs[0].1;
    let drift = energy
        .iter()
        .map(|e| (e - energy[0]).abs() / energy[0])
        .fold(0.0, f64::max);
    assert!(drift < 1e-6, "relative energy drift {drift}");
}
