//! Dormand–Prince 5(4) (Schwab & Delhaes, ode45 listing and ntrp45): order 5, FSAL cost, the
//! fourth-order dense output, work against SciPy's RK45, and pinned counts.

use super::common::*;
use odelab::solve;

#[test]
fn observed_order_is_five_on_mass_spring_damper() {
    // Below h = 0.005 the error approaches round-off (4e-13 at h = 0.00125).
    let (p, errs) = observed_order("dp45", 0.005, 3, 1.0);
    assert!(
        (p - 5.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

/// FSAL: after the first step, six new evaluations per step.
#[test]
fn six_evaluations_per_step_on_a_grid() {
    let sol = solve(&fixed("pendulum", "dp45", 0.01, 1.0)).unwrap();
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 1 + 6 * 100);
}

/// ntrp45 is Shampine's fourth-order continuous extension: its local error at the
/// step midpoint is O(h⁵).
#[test]
fn dense_output_midpoint_error_is_fifth_order_locally() {
    let (p, errs) = dense_order("dp45", 0.04, 4);
    assert!((p - 5.0).abs() < 0.15, "slope {p}, errors {errs:?}");
}

/// The work comparison. SciPy 1.x `solve_ivp(method="RK45", rtol=1e-8,
/// atol=1e-10)` on this pendulum (θ'' = −9.81 sin θ, θ(0) = 1, θ'(0) = 0, t ∈ [0, 100])
/// takes 21,626 f-evaluations (measured once; SciPy is not a test dependency). odelab
/// uses the same norm, controller defaults and initial-step algorithm; it spends one
/// more evaluation because the first step re-evaluates f(t0, y0).
#[test]
fn pendulum_work_is_within_25_percent_of_scipy_rk45() {
    const SCIPY_RK45_NFEV: f64 = 21_626.0;
    let sol = solve(&adaptive("pendulum", "dp45", 1e-8, 1e-10, 100.0)).unwrap();
    let nfev = sol.stats.nfev as f64;
    assert!(
        (nfev / SCIPY_RK45_NFEV - 1.0).abs() < 0.25,
        "nfev {nfev} vs SciPy {SCIPY_RK45_NFEV}"
    );
    let s = sol.stats;
    assert_eq!(
        (s.nfev, s.nsteps, s.naccept, s.nreject),
        (21627, 3604, 3368, 236),
        "{s:?}"
    );
    // 2 for the initial step, 1 for the first stage, 6 per attempted step.
    assert_eq!(s.nfev, 3 + 6 * s.nsteps);
}

/// The error control does its job: the end state agrees with a much tighter run to
/// roughly the tolerance, and every accepted step's estimate is ≤ 1.
#[test]
fn adaptive_run_meets_its_tolerance() {
    let loose = solve(&adaptive("mass-spring-damper", "dp45", 1e-6, 1e-9, 5.0)).unwrap();
    let err = final_error(&loose);
    assert!(err < 1e-5 && err > 1e-10, "final error {err}");
    assert!(loose.err_est.iter().all(|&e| e <= 1.0));
    assert_eq!(loose.err_est.len(), loose.h.len());
    let sum: f64 = loose.h.iter().sum();
    assert!((sum - 5.0).abs() < 1e-12);
}

/// Deterministic counts of three more runs: default tolerances (MATLAB's and SciPy's
/// rtol = 1e-3, atol = 1e-6), and the RMS vs the max norm at rtol = 1e-6.
#[test]
fn counts_are_pinned_for_default_tolerances_and_max_norm() {
    let counts = |s: &odelab::spec::SolveSpec| {
        let s = solve(s).unwrap().stats;
        (s.nfev, s.nsteps, s.naccept, s.nreject)
    };
    let mut defaults = adaptive("pendulum", "dp45", 1.0, 1.0, 10.0);
    defaults.rtol = None;
    defaults.atol = None;
    assert_eq!(counts(&defaults), (249, 41, 35, 6));
    let rms = adaptive("pendulum", "dp45", 1e-6, 1e-9, 10.0);
    assert_eq!(counts(&rms), (1077, 179, 138, 41));
    let mut max_norm = rms.clone();
    max_norm.norm = Some("max".into());
    // The max norm is never smaller than the RMS norm, so it takes more steps.
    assert_eq!(counts(&max_norm), (1167, 194, 148, 46));
}
