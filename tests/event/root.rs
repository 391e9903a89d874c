//! The bracketing root finder (Illinois) that locates sign changes of switching functions.

use odelab::event::locate_crossing;

/// cos t = 0 at π/2 in [1, 2], to 1e-12 relative, in few evaluations, reporting the end
/// past the crossing (g < 0 there).
#[test]
fn finds_a_simple_root_past_the_crossing() {
    let mut calls = 0;
    let t = locate_crossing(
        |t: f64| {
            calls += 1;
            t.cos()
        },
        1.0,
        1f64.cos(),
        2.0,
        2f64.cos(),
        1e-12 * 2.0,
    );
    let root = std::f64::consts::FRAC_PI_2;
    assert!(t >= root && t - root < 2e-12, "{t}");
    assert!(t.cos() <= 0.0);
    assert!(calls < 20, "{calls} evaluations");
}

/// A flat-then-steep function that stalls plain regula falsi; Illinois (and the
/// bisection fallback) still converges.
#[test]
fn converges_on_a_lopsided_function() {
    let g = |t: f64| t.powi(9) - 0.5f64.powi(9);
    let t = locate_crossing(g, 0.0, g(0.0), 1.0, g(1.0), 1e-12);
    assert!((t - 0.5).abs() < 1e-12, "{t}");
    assert!(g(t) >= 0.0);
}

/// An end value of exactly 0 is the crossing.
#[test]
fn zero_at_the_end_is_the_root() {
    let t = locate_crossing(|t| t - 1.0, 0.0, -1.0, 1.0, 0.0, 1e-12);
    assert_eq!(t, 1.0);
}
