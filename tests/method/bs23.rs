//! Bogacki–Shampine 3(2) (Schwab & Delhaes, ode23 listing, weights per the Sources panel's errata): order 3,
//! FSAL cost, the ntrp23 dense output, and pinned adaptive counts.

use super::common::*;
use odelab::method::tableau;
use odelab::solve;

#[test]
fn observed_order_is_three_on_mass_spring_damper() {
    let (p, errs) = observed_order("bs23", 0.01, 5, 1.0);
    assert!(
        (p - 3.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

/// the Sources panel's errata: the printed update h/9 (2k1 + k2 + 4k3) is a misprint; the weights are
/// (2, 3, 4)/9 and sum to 1.
#[test]
fn update_weights_are_the_corrected_ones() {
    let tab = tableau("bs23").unwrap();
    assert_eq!(tab.b[1], 3.0 / 9.0);
    assert!((tab.b.iter().sum::<f64>() - 1.0).abs() < 1e-15);
}

/// FSAL: after the first step, three new evaluations per step.
#[test]
fn three_evaluations_per_step_on_a_grid() {
    let sol = solve(&fixed("pendulum", "bs23", 0.01, 1.0)).unwrap();
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 1 + 3 * 100);
}

/// Schwab & Delhaes on ntrp23: y_{n+α} = … "(+ O(h⁴)??)": the local error of the interpolant
/// at the step midpoint is O(h⁴).
#[test]
fn dense_output_midpoint_error_is_fourth_order_locally() {
    let (p, errs) = dense_order("bs23", 0.02, 4);
    assert!((p - 4.0).abs() < 0.15, "slope {p}, errors {errs:?}");
}

/// Deterministic counts of one adaptive run (any change to the controller or the
/// initial step shows up here).
#[test]
fn pendulum_adaptive_counts_are_pinned() {
    let sol = solve(&adaptive("pendulum", "bs23", 1e-6, 1e-9, 10.0)).unwrap();
    let s = sol.stats;
    assert_eq!(
        (s.nfev, s.nsteps, s.naccept, s.nreject),
        (3894, 1297, 1233, 64),
        "{s:?}"
    );
    assert_eq!(sol.t.len() as u64, s.naccept + 1);
    assert_eq!(*sol.t.last().unwrap(), 10.0);
}
