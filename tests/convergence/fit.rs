//! The slope fit on synthetic data E = C1 h^p + C2/h (Schwab & Delhaes §7.5).

use odelab::convergence::fit::fit_slope;

#[test]
fn fit_finds_the_truncation_slope_and_the_floor() {
    let h: Vec<f64> = (0..20).map(|n| 2f64.powi(-n)).collect();
    let e: Vec<f64> = h.iter().map(|h| 3.0 * h.powi(4) + 1e-15 / h).collect();
    let f = fit_slope(&h, &e);
    assert!((f.slope - 4.0).abs() < 0.05, "{f:?}");
    let floor = f.floor.unwrap();
    assert!(f.to <= floor && floor < 19);
    // A blow-up at large h (∞) is skipped.
    let mut e2 = e.clone();
    e2[0] = f64::INFINITY;
    let f2 = fit_slope(&h, &e2);
    assert!(f2.from >= 1 && (f2.slope - 4.0).abs() < 0.05, "{f2:?}");
    // Still decreasing at the end: no floor.
    let e3: Vec<f64> = h.iter().map(|h| h * h).collect();
    assert_eq!(fit_slope(&h, &e3).floor, None);
}

#[test]
fn two_points_still_give_a_slope() {
    let f = fit_slope(&[0.1, 0.05], &[1e-4, 1.25e-5]);
    assert!((f.slope - 3.0).abs() < 1e-12, "{f:?}");
    assert!(fit_slope(&[0.1], &[1e-4]).slope.is_nan());
}
