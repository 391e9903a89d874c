//! Explicit Euler (Schwab & Delhaes §7.1): order 1, and the energy growth of Schwab & Delhaes Fig. 7.5.

use super::common::*;

#[test]
fn observed_order_is_one_on_mass_spring_damper() {
    let hs: Vec<f64> = (0..5).map(|k| 1e-3 / 2f64.powi(k)).collect();
    let errs: Vec<f64> = hs
        .iter()
        .map(|&h| final_error(&run("mass-spring-damper", "euler", h, 1.0)))
        .collect();
    let p = loglog_slope(&hs, &errs);
    assert!(
        (p - 1.0).abs() < 0.05,
        "observed order {p}, errors {errs:?}"
    );
}

#[test]
fn one_evaluation_per_step() {
    let sol = run("pendulum", "euler", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 100);
}

/// Schwab & Delhaes Fig. 7.5: Euler's R(ib) has modulus √(1 + b²) > 1, so the undamped
/// pendulum's energy grows and the swing widens.
#[test]
fn pendulum_energy_grows_as_in_fig_7_5() {
    let sol = run("pendulum", "euler", 0.01, 10.0);
    let energy = &sol.outputs[0].1;
    let (e0, e1) = (energy[0], *energy.last().unwrap());
    assert!(e1 > 2.0 * e0, "energy {e0} -> {e1}");
    // The amplitude of θ in the last second exceeds the initial 1 rad.
    let n = sol.t.len();
    let late_max = (n - 100..n).map(|i| sol.y[2 * i].abs()).fold(0.0, f64::max);
    assert!(late_max > 1.3, "late amplitude {late_max}");
}

#[test]
fn long_run_blows_up_with_a_warning_and_keeps_the_points() {
    // hλ ≈ −0.025 ± 1i: |R| ≈ 1.41 per step, so |y| passes the 1e150 blow-up bound
    // after ln(1e150)/ln(1.41) ≈ 1000 steps, near t = 100.
    let sol = run("mass-spring-damper", "euler", 0.1, 1000.0);
    let warning = sol.warning.as_deref().expect("Euler at h = 0.1 blows up");
    assert!(
        warning.contains("blew up") && warning.contains("h = 0.1"),
        "{warning}"
    );
    let t_end = *sol.t.last().unwrap();
    assert!(t_end > 80.0 && t_end < 120.0, "stopped at {t_end}");
    assert!(sol.y.iter().all(|v| v.is_finite()));
}
