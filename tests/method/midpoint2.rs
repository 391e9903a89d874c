//! "Euler 2" for second-order systems (Schwab & Delhaes §7.4): one evaluation per step; order 2
//! when f does not depend on q', order 1 when it does (damping), as 002 derives.

use super::common::*;

/// No damping: f = g − (k/m) q does not depend on q', the local error is O(h³) (002
/// §7.4 "if f is weak in z") and the method is second order.
#[test]
fn order_two_without_damping() {
    let (p, errs) = observed_order_with("midpoint2", &[("c", 0.0)], 4e-3, 5, 1.0);
    assert!(
        (p - 2.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

/// With damping c ≠ 0, k₁ uses q'_n where q' at the midpoint is needed: the z-update
/// misses (h²/2) ∂f/∂z f, the local error is O(h²) (Schwab & Delhaes §7.4) and the method is first
/// order. With the default c = 0.5 the O(h) term already dominates at these h.
#[test]
fn order_one_with_damping() {
    let (p, errs) = observed_order("midpoint2", 2e-3, 5, 1.0);
    assert!(
        (p - 1.0).abs() < 0.15,
        "observed order {p}, errors {errs:?}"
    );
}

#[test]
fn one_evaluation_per_step() {
    let sol = run("pendulum", "midpoint2", 0.01, 1.0);
    assert_eq!(sol.stats.nsteps, 100);
    assert_eq!(sol.stats.nfev, 100);
}

/// the Sources panel's errata: on q'' = −ω²q the amplification matrix has det 1 and trace 2 − (hω)²,
/// so for hω < 2 the energy stays bounded (no growth as with Euler).
#[test]
fn undamped_oscillation_stays_bounded_below_h_omega_two() {
    // ω = 10: h = 0.15 gives hω = 1.5.
    let mut s = fixed("mass-spring-damper", "midpoint2", 0.15, 300.0);
    s.params.insert("c".into(), 0.0);
    let sol = odelab::solve(&s).unwrap();
    let max_x = sol.y.iter().step_by(2).fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(max_x < 1.0, "max |x| {max_x}");
    // hω = 2.1: unstable, it blows up.
    let mut s = fixed("mass-spring-damper", "midpoint2", 0.21, 300.0);
    s.params.insert("c".into(), 0.0);
    assert!(odelab::solve(&s).unwrap().warning.is_some());
}

/// A first-order model (Robertson's kinetics) is refused with a message that says why.
#[test]
fn refusal_for_first_order_models_says_why() {
    let err = run_err(&spec("robertson", "midpoint2", 1e-3, 1.0)).to_string();
    assert!(
        err.contains("second-order systems q'' = f(t, q, q')") && err.contains("\"robertson\""),
        "{err}"
    );
    for info in odelab::model::catalog() {
        assert!(!info.second_order || info.dim % 2 == 0, "{}", info.id);
    }
}
